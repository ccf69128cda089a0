#include "dsl/ir/graph_format.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <sstream>

#include "dsl/ir/strided_view.h"

namespace dsl {

namespace {

std::string shape_str(const std::vector<int64_t>& shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

std::string tensor_type(const TensorNode& t) {
    std::string s = shape_str(t.shape) + " " + arch::dtype_name(t.dtype);
    if (!t.layout.empty()) s += " " + t.layout;
    if (t.placement != Placement::DDR) s += " in " + std::string(placement_name(t.placement));
    return s;
}

std::string where(const SourceLoc& loc) { return std::to_string(loc.line) + ":" + std::to_string(loc.col); }

std::string op_line(const TaskGraph& g, size_t i) {
    const OpNode& op = g.ops[i];
    std::string s = g.tensors[size_t(op.output)].name + " = " + op_kind_name(op.kind) + "(";
    const bool sliced = op.kind == OpKind::Slice || op.kind == OpKind::Update;
    for (size_t k = 0; k < op.inputs.size(); ++k) {
        s += (k ? ", " : "") + g.tensors[size_t(op.inputs[k])].name;
        // t[a:b, i] rather than its four attributes.
        if (sliced && k == 0) s += slice_text(slice_spec(op), g.tensors[size_t(op.inputs[0])].shape);
    }
    for (const auto& [key, value] : op.attrs)
        if (!sliced) s += ", " + key + "=" + attr_text(value);
    s += ")  -> " + tensor_type(g.tensors[size_t(op.output)]);
    // transpose(engine='dma') runs on a DMA engine, not the vector unit.
    auto engine = op.attrs.find("engine");
    bool on_dma = engine != op.attrs.end() && engine->second.as<Engine>() == Engine::Dma;
    s += "  [" + std::string(on_dma ? "dma" : op_kind_unit(op.kind));
    if (!op.precision.empty()) s += ", precision " + op.precision;
    if (op.promotion) s += ", promotion";
    return s + "]  @" + where(op.loc);
}

std::string move_line(const TaskGraph& g, const MoveNode& m) {
    return "move " + g.tensors[size_t(m.src)].name + " -> " + g.tensors[size_t(m.dst)].name + "  (" +
           tensor_type(g.tensors[size_t(m.dst)]) + ")  @" + where(m.loc);
}

// Items of one task level in program order: its ops, moves, logs and the
// tasks it calls, so the listing reads like the program.
struct Item {
    int64_t key;  // position in program order; moves have none and come last
    std::string text;
    int child_task = -1;
};

constexpr int64_t kNoPosition = INT64_MAX;

void list_level(const TaskGraph& g, int task, const std::string& indent, std::ostringstream& os);

void list_task(const TaskGraph& g, int task, const std::string& indent, std::ostringstream& os) {
    const TaskNode& t = g.tasks[size_t(task)];
    os << indent << "task " << t.name << "  [placement " << t.placement << "]  @" << where(t.loc) << "\n";
    list_level(g, task, indent + "  ", os);
}

// The program-order position of a task: that of its first operation, or of
// the operations recorded before it was called.
int task_position(const TaskGraph& g, int task) {
    for (size_t i = 0; i < g.ops.size(); ++i)
        for (int t = g.ops[i].task; t >= 0; t = g.tasks[size_t(t)].parent)
            if (t == task) return int(i);
    return int(g.ops.size());
}

void list_level(const TaskGraph& g, int task, const std::string& indent, std::ostringstream& os) {
    std::vector<Item> items;
    for (size_t i = 0; i < g.ops.size(); ++i)
        if (g.ops[i].task == task) items.push_back({int64_t(i) * 4, "op " + std::to_string(i) + ": " + op_line(g, i)});
    for (const MoveNode& m : g.moves)
        if (m.task == task) items.push_back({kNoPosition, move_line(g, m)});
    for (const LogNode& l : g.logs)
        if (l.task == task)
            items.push_back({int64_t(l.after_op + 1) * 4 - 1,
                             std::string(l.synchronous ? "print" : "log") + " \"" + l.text + "\"" +
                                 (l.synchronous ? "  (synchronisation point)" : "") + "  @" + where(l.loc)});
    for (size_t k = 0; k < g.tasks.size(); ++k)
        if (g.tasks[k].parent == task) items.push_back({int64_t(task_position(g, int(k))) * 4 - 2, "", int(k)});
    // Before op i come (in this order) the tasks and logs recorded before it:
    // key 4i-2 for a task whose first op is i, 4i-1 for a log after op i-1.
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.key < b.key; });
    for (const Item& it : items) {
        if (it.child_task >= 0) list_task(g, it.child_task, indent, os);
        else os << indent << it.text << "\n";
    }
}

std::string dot_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

// A Graphviz label of several lines.
std::string dot_lines(std::initializer_list<std::string> lines) {
    std::string out;
    bool first = true;
    for (const std::string& l : lines) {
        out += (first ? "" : "\\n") + dot_escape(l);
        first = false;
    }
    return out;
}

void dot_task(const TaskGraph& g, int task, const std::string& indent, std::ostringstream& os) {
    if (task >= 0) {
        const TaskNode& t = g.tasks[size_t(task)];
        os << indent << "subgraph cluster_task" << task << " {\n"
           << indent << "  label=\"" << dot_escape(t.name + " [" + t.placement + "]") << "\";\n"
           << indent << "  style=rounded; color=gray40;\n";
    }
    std::string inner = task >= 0 ? indent + "  " : indent;
    for (size_t i = 0; i < g.ops.size(); ++i) {
        if (g.ops[i].task != task) continue;
        const OpNode& op = g.ops[i];
        os << inner << "op" << i << " [shape=box, style=filled, fillcolor="
           << (op_kind_unit_of(op.kind) == OpUnit::Cube ? "lightsalmon" : "lightblue") << ", label=\""
           << dot_lines({op_kind_name(op.kind), g.tensors[size_t(op.output)].name}) << "\"];\n";
    }
    for (size_t k = 0; k < g.tasks.size(); ++k)
        if (g.tasks[k].parent == task) dot_task(g, int(k), inner, os);
    if (task >= 0) os << indent << "}\n";
}

}  // namespace

std::string format_graph(const TaskGraph& g) {
    std::ostringstream os;
    os << "task graph: " << g.tasks.size() << " tasks, " << g.ops.size() << " operations, " << g.moves.size()
       << " data movements, " << g.tensors.size() << " tensors";
    if (g.max_parallel) os << ", MAX_PARALLEL " << g.max_parallel;
    if (g.buffers) os << ", BUFFERS " << g.buffers;
    if (g.workspace_buffers != TaskGraph::kDefaultWorkspaceBuffers) os << ", WORKSPACE_BUFFERS " << g.workspace_buffers;
    os << "\n";
    for (size_t k = 0; k < g.params.size(); ++k)
        os << (k ? ", " : "params: ") << g.params[k].name << "=" << g.params[k].repr
           << (k + 1 == g.params.size() ? "\n" : "");
    os << "\ntensors\n";
    auto consumers = tensor_consumers(g);
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const TensorNode& t = g.tensors[i];
        os << "  " << t.name << "  " << tensor_role_name(t.role) << "  " << tensor_type(t);
        if (t.producer >= 0) os << "  from op " << t.producer;
        if (!consumers[i].empty()) {
            os << "  to op";
            for (size_t k = 0; k < consumers[i].size(); ++k) os << (k ? "," : " ") << consumers[i][k];
        }
        os << "\n";
    }
    for (const CacheScope& c : g.temp_caches)
        os << "temp_cache " << c.name << ": ops " << c.first_op << ".." << c.end_op - 1 << "  @" << where(c.loc)
           << "\n";
    os << "\nprogram\n";
    list_level(g, -1, "  ", os);
    return os.str();
}

std::string format_promotions(const TaskGraph& passed) {
    std::string s;
    const auto consumers = tensor_consumers(passed);
    for (size_t i = 0; i < passed.ops.size(); ++i) {
        const OpNode& op = passed.ops[i];
        if (!op.promotion) continue;
        s += "  " + op_line(passed, i);
        for (int c : consumers[size_t(op.output)]) {
            const OpNode& user = passed.ops[size_t(c)];
            if (user.origin >= 0) s += "  for op " + std::to_string(user.origin) + " " + op_kind_name(user.kind);
            break;
        }
        s += "\n";
    }
    return s.empty() ? s : "\npromotions (casts the compiler inserts where operand dtypes differ)\n" + s;
}

std::string graph_to_dot(const TaskGraph& g) {
    std::ostringstream os;
    os << "digraph pypto {\n  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n";
    // Tensors that enter or leave the program are drawn as their own nodes;
    // intermediates are the edges between operations, labelled with their shape.
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const TensorNode& t = g.tensors[i];
        if (t.role == TensorRole::Intermediate) continue;
        os << "  t" << i << " [shape=ellipse, label=\"" << dot_lines({t.name, tensor_type(t), tensor_role_name(t.role)})
           << "\"];\n";
    }
    dot_task(g, -1, "  ", os);
    auto node_of = [&](int tensor) {
        const TensorNode& t = g.tensors[size_t(tensor)];
        return t.role == TensorRole::Intermediate ? "op" + std::to_string(t.producer) : "t" + std::to_string(tensor);
    };
    for (size_t i = 0; i < g.ops.size(); ++i) {
        for (int in : g.ops[i].inputs) {
            const TensorNode& t = g.tensors[size_t(in)];
            os << "  " << node_of(in) << " -> op" << i;
            if (t.role == TensorRole::Intermediate) os << " [label=\"" << dot_escape(shape_str(t.shape)) << "\"]";
            os << ";\n";
        }
        const TensorNode& out = g.tensors[size_t(g.ops[i].output)];
        if (out.role != TensorRole::Intermediate) os << "  op" << i << " -> t" << g.ops[i].output << ";\n";
    }
    for (const MoveNode& m : g.moves)
        os << "  " << node_of(m.src) << " -> " << node_of(m.dst) << " [style=dashed, label=\"move\"];\n";
    os << "}\n";
    return os.str();
}

}  // namespace dsl
