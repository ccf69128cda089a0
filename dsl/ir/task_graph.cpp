#include "dsl/ir/task_graph.h"

#include <stdexcept>

#include "dsl/support/float_repr.h"

namespace dsl {

const char* tensor_role_name(TensorRole r) {
    switch (r) {
    case TensorRole::Input: return "input";
    case TensorRole::Weight: return "weight";
    case TensorRole::Output: return "output";
    case TensorRole::Intermediate: return "intermediate";
    case TensorRole::Buffer: return "buffer";
    }
    return "?";
}

const char* placement_name(Placement p) {
    switch (p) {
    case Placement::DDR: return "DDR";
    case Placement::L1: return "L1";
    case Placement::L0: return "L0";
    }
    return "?";
}

std::string effective_placement(const TaskGraph& g, int task) {
    for (int t = task; t >= 0; t = g.tasks[size_t(t)].parent)
        if (g.tasks[size_t(t)].placement != "any") return g.tasks[size_t(t)].placement;
    return "any";
}

arch::DType wider_dtype(arch::DType a, arch::DType b) {
    if (a == b) return a;
    // float16 and bfloat16 each lack what the other has (range, precision):
    // only float32 holds both, as in PyTorch's promote_types.
    return arch::DType::Float32;
}

Attr Attr::integer(int64_t v) {
    Attr a;
    a.kind = Kind::Int, a.i = v;
    return a;
}
Attr Attr::real(double v) {
    Attr a;
    a.kind = Kind::Float, a.f = v;
    return a;
}
Attr Attr::str(std::string v) {
    Attr a;
    a.kind = Kind::Str, a.s = std::move(v);
    return a;
}
Attr Attr::boolean(bool v) {
    Attr a;
    a.kind = Kind::Bool, a.b = v;
    return a;
}
Attr Attr::list(std::vector<int64_t> v) {
    Attr a;
    a.kind = Kind::Ints, a.ints = std::move(v);
    return a;
}

std::string attr_text(const Attr& a) {
    switch (a.kind) {
    case Attr::Kind::Int: return std::to_string(a.i);
    case Attr::Kind::Float: return float_repr(a.f);
    case Attr::Kind::Str:
    case Attr::Kind::Choice: return "'" + a.s + "'";
    case Attr::Kind::Bool: return a.b ? "True" : "False";
    case Attr::Kind::Ints: {
        std::string s = "(";
        for (size_t i = 0; i < a.ints.size(); ++i) s += (i ? ", " : "") + std::to_string(a.ints[i]);
        return s + (a.ints.size() == 1 ? ",)" : ")");
    }
    }
    return "?";
}

std::vector<std::vector<int>> tensor_consumers(const TaskGraph& g) {
    std::vector<std::vector<int>> out(g.tensors.size());
    for (size_t i = 0; i < g.ops.size(); ++i)
        for (int t : g.ops[i].inputs) out[size_t(t)].push_back(int(i));
    return out;
}

void check_dag(const TaskGraph& g) {
    auto bad = [](const std::string& why) { throw std::logic_error("task graph: " + why); };
    for (size_t i = 0; i < g.ops.size(); ++i) {
        const OpNode& op = g.ops[i];
        std::string name = "op " + std::to_string(i) + " (" + op_kind_name(op.kind) + ")";
        if (op.output < 0 || size_t(op.output) >= g.tensors.size()) bad(name + " has no valid output");
        if (g.tensors[size_t(op.output)].producer != int(i)) bad(name + "'s output names another producer");
        if (op.task >= int(g.tasks.size())) bad(name + " belongs to no task");
        for (int t : op.inputs) {
            if (t < 0 || size_t(t) >= g.tensors.size()) bad(name + " reads a tensor out of range");
            int p = g.tensors[size_t(t)].producer;
            if (p >= int(i)) bad(name + " reads '" + g.tensors[size_t(t)].name + "' before it is produced");
        }
    }
    for (const MoveNode& m : g.moves)
        if (m.src < 0 || m.dst < 0 || size_t(m.src) >= g.tensors.size() || size_t(m.dst) >= g.tensors.size())
            bad("a move names a tensor out of range");
    for (size_t k = 0; k < g.tasks.size(); ++k)
        if (g.tasks[k].parent >= int(k)) bad("task " + g.tasks[k].name + " has a later parent");
}

}  // namespace dsl
