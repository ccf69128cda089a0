#include "dsl/passes/pass_fusion.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <queue>
#include <sstream>
#include <utility>

#include "dsl/ir/vector_unit_tensors.h"

namespace dsl {

namespace {

bool in_ddr(const TaskGraph& g, int t) { return g.tensors[size_t(t)].placement == Placement::DDR; }

// A tensor the whole group may read: in DDR and ready before the cube
// operation starts (an input, a weight, or an earlier operation's result).
bool ready_before(const TaskGraph& g, int t, int head) {
    const TensorNode& n = g.tensors[size_t(t)];
    return n.placement == Placement::DDR && n.producer < head;
}

// Where a group must stop, answered in constant time: a print(...) that
// drains between two operations, an update between them (it overwrites
// bytes in place).
class Barriers {
public:
    explicit Barriers(const TaskGraph& g) : drains_(g.ops.size() + 1, 0), updates_(g.ops.size() + 1, 0) {
        for (const LogNode& l : g.logs)
            if (l.synchronous) ++drains_[size_t(std::max(l.after_op, -1) + 1)];
        for (size_t k = 0; k < g.ops.size(); ++k) updates_[k + 1] = g.ops[k].kind == OpKind::Update;
        for (size_t k = 1; k < drains_.size(); ++k) drains_[k] += drains_[k - 1], updates_[k] += updates_[k - 1];
    }
    // A print that drains after operation `head` and before `op` (after_op in [head, op)).
    bool drain(int head, int op) const { return drains_[size_t(op)] - drains_[size_t(head)] > 0; }
    // An update strictly between operations `a` and `b`.
    bool update(int a, int b) const { return b > a + 1 && updates_[size_t(b)] - updates_[size_t(a + 1)] > 0; }

private:
    std::vector<int> drains_;   // [k]: draining prints with after_op < k (a print before any operation counts at 0)
    std::vector<int> updates_;  // [k]: updates among operations 0 .. k - 1
};

// How `op` would take part in a chain whose result so far is `cur`, by
// the rules cube epilogues and vector chains share: it writes a DDR
// tensor of cur's shape (a format_convert: its axes reordered) and reads cur as its first input (a binary op:
// either input); a cast changes the chain's dtype (into a buffer of its
// own), every other operation computes in the dtype the chain has when
// it reaches it, and so must its other operand: a number, a tensor of its
// shape, or batch_norm's scale and shift. Which tensors each kind of
// chain may read is its own rule (`joins`, `joins_vector_chain`).
struct Member {
    enum class Reads { Chain, Number, Tensor, ScaleShift, Column } reads = Reads::Chain;
    int other = -1;  // Tensor: the operand
};

// Whether `o` holds one value per channel (column) of `y`, broadcast over
// the rest: a conv2d's bias, (O,) under NHWC or (O, 1, 1) under NCHW, or a
// row vector of a 2-D matmul's result.
bool column_vector(const TensorNode& o, const TensorNode& y) {
    if (y.shape.size() == 2) return o.shape == std::vector<int64_t>{y.shape[1]};
    if (y.shape.size() != 4) return false;
    if (y.layout == "NHWC") return o.shape == std::vector<int64_t>{y.shape[3]};
    return o.shape == std::vector<int64_t>{y.shape[1], 1, 1};
}

std::optional<Member> member_of(const TaskGraph& g, int cur, const OpNode& op) {
    const TensorNode& y = g.tensors[size_t(op.output)];
    const TensorNode& c = g.tensors[size_t(cur)];
    if (!in_ddr(g, op.output) || op.inputs.empty() || y.shape.empty()) return std::nullopt;
    // A format_convert reorders the axes (NHWC -> NCHW) of the same tile.
    if (op.kind != OpKind::FormatConvert && y.shape != c.shape) return std::nullopt;
    if (op.kind == OpKind::Cast) {
        if (op.inputs.size() == 1 && op.inputs[0] == cur && y.layout == c.layout) return Member{};
        return std::nullopt;
    }
    if (y.dtype != c.dtype) return std::nullopt;
    switch (op.kind) {
    case OpKind::BatchNorm:
        if (op.inputs.size() == 3 && op.inputs[0] == cur && g.tensors[size_t(op.inputs[1])].dtype == y.dtype &&
            g.tensors[size_t(op.inputs[2])].dtype == y.dtype)
            return Member{Member::Reads::ScaleShift};
        return std::nullopt;
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Maximum:
    case OpKind::Minimum:
    case OpKind::Swiglu: {
        if (op.inputs.size() == 1) {
            if (op.inputs[0] == cur && op.attrs.count("scalar") > 0) return Member{Member::Reads::Number};
            return std::nullopt;
        }
        if (op.inputs.size() != 2 || (op.inputs[0] == cur) == (op.inputs[1] == cur)) return std::nullopt;
        const int other = op.inputs[0] == cur ? op.inputs[1] : op.inputs[0];
        const TensorNode& o = g.tensors[size_t(other)];
        if (o.shape == y.shape && o.dtype == y.dtype) return Member{Member::Reads::Tensor, other};
        if (op.kind != OpKind::Swiglu && o.dtype == y.dtype && column_vector(o, y))
            return Member{Member::Reads::Column, other};
        return std::nullopt;
    }
    default:  // relu, gelu, sigmoid, tanh, exp, sqrt, silu, clip, format_convert
        if (op.inputs.size() == 1 && op.inputs[0] == cur) return Member{};
        return std::nullopt;
    }
}

// Whether `op` can run on the tile of `cur` (the result of `head`'s chain
// so far, `position` operations in): what it reads besides the tile must
// be in DDR before the cube operation starts; batch_norm's channels must
// be the GEMM's columns (conv2d, a two-dimensional matmul); a
// format_convert only directly after its conv2d; a column vector (a bias)
// read as batch_norm's scale and shift are.
bool joins(const TaskGraph& g, int head, size_t position, int cur, const OpNode& op) {
    const OpNode& h = g.ops[size_t(head)];
    if (op_kind_fusion(op.kind) != OpFusion::Epilogue) return false;
    const std::optional<Member> m = member_of(g, cur, op);
    if (!m) return false;
    if (op.kind == OpKind::FormatConvert) return position == 0 && h.kind == OpKind::Conv2d;
    // The epilogue computes silu of its tile, so the tile must be the gate.
    if (op.kind == OpKind::Swiglu && op.inputs[0] != cur) return false;
    switch (m->reads) {
    case Member::Reads::ScaleShift:
        return (h.kind == OpKind::Conv2d || g.tensors[size_t(h.output)].shape.size() == 2) &&
               ready_before(g, op.inputs[1], head) && ready_before(g, op.inputs[2], head);
    case Member::Reads::Column:
        return (h.kind == OpKind::Conv2d || g.tensors[size_t(h.output)].shape.size() == 2) &&
               ready_before(g, m->other, head);
    case Member::Reads::Tensor: return ready_before(g, m->other, head);
    default: return true;
    }
}

// The operations a vector chain is made of: the element-wise ones with an
// instruction of their own, and batch_norm (lower_vector_chain.h runs
// them on a stream's chunks), silu (a sigmoid into a scratch buffer, then
// a multiply), swiglu (silu, then a multiply by its other input), clip (a
// maximum and a minimum with numbers) and cast (into a buffer of the new
// dtype).
bool vector_link(OpKind k) {
    switch (k) {
    case OpKind::Cast:
    case OpKind::Silu:
    case OpKind::Relu:
    case OpKind::Gelu:
    case OpKind::Sigmoid:
    case OpKind::Tanh:
    case OpKind::Exp:
    case OpKind::Sqrt:
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Maximum:
    case OpKind::Minimum:
    case OpKind::Clip:
    case OpKind::Swiglu:
    case OpKind::BatchNorm: return op_kind_fusion(k) == OpFusion::Epilogue;
    default: return false;
    }
}

// Pooling and depthwise convolution: window walks over image rows, whose
// units are bands of output rows.
bool is_window_op(OpKind k) { return k == OpKind::AvgPool || k == OpKind::MaxPool || k == OpKind::DepthwiseConv2d; }

// A vector chain's head: an element-wise operation not in a cube
// operation's group, or a pooling operation, whose result is in DDR.
bool vector_head(const TaskGraph& g, const OpNode& op) {
    return (vector_link(op.kind) || is_window_op(op.kind)) && in_ddr(g, op.output);
}

// The head reads a tensor it broadcasts (a bias): its rows are then the
// last axis, which batch_norm's per-channel rows may not be.
bool broadcasts(const TaskGraph& g, const OpNode& h) {
    if (h.kind == OpKind::BatchNorm || is_window_op(h.kind)) return false;
    for (int t : h.inputs)
        if (g.tensors[size_t(t)].shape != g.tensors[size_t(h.output)].shape) return true;
    return false;
}

// The head reads a tensor kept on chip: its streams may follow the
// tensor's parts (one window of rows and columns per cluster), which
// batch_norm's per-channel operands do not.
bool reads_on_chip(const TaskGraph& g, const OpNode& h) {
    for (int t : h.inputs)
        if (!in_ddr(g, t)) return true;
    return false;
}

// A tensor a vector chain's member may read that is computed after the
// chain's head (o * rescale + p @ v: the product comes after the
// multiply): in DDR, and the head reads nothing on chip (the buffer plan
// frees an on-chip tensor after its last reader in program order, and
// the chain's reads then move later). The chain is then lowered where its
// last member is (deferred_chain, dsl/lower/program/lower.cpp); group()
// allows no update up to there (it could overwrite what the head reads).
bool ready_late(const TaskGraph& g, int t, int head) { return in_ddr(g, t) && !reads_on_chip(g, g.ops[size_t(head)]); }

// Whether `op` can run on the chunks of `cur` (the result of the vector
// chain of `head` so far), in place in L1: a member (member_of) whose
// tensor operand is ready in DDR before the head, or later (ready_late),
// or is the head's own input (read where the head reads it, in place when
// on chip), not after
// a pooling head (whose units are bands of output rows, not rows of the
// operand); batch_norm not after a head that broadcasts an operand or
// reads an on-chip tensor.
bool joins_vector_chain(const TaskGraph& g, int head, int cur, const OpNode& op) {
    const OpNode& h = g.ops[size_t(head)];
    if (!vector_link(op.kind)) return false;
    const std::optional<Member> m = member_of(g, cur, op);
    if (!m) return false;
    switch (m->reads) {
    case Member::Reads::ScaleShift:
        return ready_before(g, op.inputs[1], head) && ready_before(g, op.inputs[2], head) && !broadcasts(g, h) &&
               !reads_on_chip(g, h);
    case Member::Reads::Tensor: {
        const bool heads_input = std::find(h.inputs.begin(), h.inputs.end(), m->other) != h.inputs.end();
        return !is_window_op(h.kind) &&
               (heads_input || ready_before(g, m->other, head) || ready_late(g, m->other, head));
    }
    case Member::Reads::Column: return false;  // read broadcast by cube epilogues only
    default: return true;
    }
}

// Row groups. A row reduction: reduce_sum, reduce_mean or reduce_max over
// the last axis alone, keepdims, of a tensor of rank 2 or more.
bool row_reduction(const TaskGraph& g, const OpNode& op) {
    if (!is_reduce_kind(op.kind)) return false;
    const size_t rank = g.tensors[size_t(op.inputs[0])].shape.size();
    return rank >= 2 && op.attrs.at("axis").ints == std::vector<int64_t>{int64_t(rank) - 1} &&
           op.attrs.at("keepdims").b;
}

// The operations a row group runs besides row reductions: one VECTOR
// instruction each on rows of its operands.
bool row_wise(const OpNode& op) {
    switch (op.kind) {
    case OpKind::Relu:
    case OpKind::Sigmoid:
    case OpKind::Tanh:
    case OpKind::Exp:
    case OpKind::Sqrt: return op.inputs.size() == 1;
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Maximum:
    case OpKind::Minimum: return op.inputs.size() == 2 || (op.inputs.size() == 1 && op.attrs.count("scalar") > 0);
    default: return false;
    }
}

// The leading axes of a tensor: a row group's tensors all have the same.
std::vector<int64_t> rows_of(const TensorNode& t) { return {t.shape.begin(), t.shape.end() - 1}; }

// A tensor a row group may load from DDR: stored bytes of its own (no
// view: its rows are then runs of the tensor), of the group's rows and
// dtype, ready before the group's head.
bool row_operand(const TaskGraph& g, int t, int head) {
    const TensorNode& n = g.tensors[size_t(t)];
    const TensorNode& h = g.tensors[size_t(g.ops[size_t(head)].output)];
    return ready_before(g, t, head) && (n.producer < 0 || !is_view_kind(g.ops[size_t(n.producer)].kind)) &&
           n.shape.size() == h.shape.size() && rows_of(n) == rows_of(h) && n.dtype == h.dtype;
}

// The unit operation k runs in: its row group's head, or itself.
int unit_of(const TaskGraph& g, int k) { return g.ops[size_t(k)].fused_into >= 0 ? g.ops[size_t(k)].fused_into : k; }

// Whether tensor `t` is computed from tensor `f` through an operation
// outside f's unit (a row group runs as one): a group that read both would
// wait for the chain from f to t, where one that reads f alone need not.
// Only units after f's are searched: row groups are formed first, and a
// unit reads only tensors produced before its head.
class Descent {
public:
    explicit Descent(const TaskGraph& g) : g_(&g), seen_(g.ops.size(), 0) {}
    bool after(int t, int f) {
        const TaskGraph& g = *g_;
        const int tp = g.tensors[size_t(t)].producer, fp = g.tensors[size_t(f)].producer;
        if (tp < 0 || fp < 0) return false;
        const int target = unit_of(g, fp);
        if (unit_of(g, tp) == target) return false;
        ++stamp_;
        todo_.assign(1, unit_of(g, tp));
        while (!todo_.empty()) {
            const int u = todo_.back();
            todo_.pop_back();
            const OpNode& head = g.ops[size_t(u)];
            for (size_t k = 0; k <= head.epilogue.size(); ++k)
                for (int in : g.ops[size_t(k == 0 ? u : head.epilogue[k - 1])].inputs) {
                    const int p = g.tensors[size_t(in)].producer;
                    if (p < 0) continue;
                    const int v = unit_of(g, p);
                    if (v == target) return true;
                    if (v > target && seen_[size_t(v)] != stamp_) seen_[size_t(v)] = stamp_, todo_.push_back(v);
                }
        }
        return false;
    }

private:
    const TaskGraph* g_;
    std::vector<uint32_t> seen_;  // stamp_ when visited in this search
    uint32_t stamp_ = 0;
    std::vector<int> todo_;
};

// Whether `op` joins the row group of `head`, whose results so far are
// `in_group` and whose operands from DDR so far are `operands`: a row
// reduction or a row-wise operation with a DDR result of the group's rows
// and dtype that reads at least one of them, whose other tensor operands
// are row operands, each of the result's row length or of one element a
// row (a row statistic, broadcast over the row), none computed from
// another operand of the group (Descent; a flash-attention step's output,
// computed from the step's statistics through the next matmul, is left to
// an operation of its own, so the next step's statistics need not wait
// for it).
bool joins_row_group(const TaskGraph& g, int head, const std::vector<bool>& in_group, const std::vector<int>& operands,
                     Descent& descent, const OpNode& op) {
    if (op.fused_into >= 0 || !op.epilogue.empty()) return false;
    if (std::none_of(op.inputs.begin(), op.inputs.end(), [&](int t) { return in_group[size_t(t)]; })) return false;
    const bool reduces = row_reduction(g, op);
    if (!reduces && !row_wise(op)) return false;
    const TensorNode& y = g.tensors[size_t(op.output)];
    const TensorNode& h = g.tensors[size_t(g.ops[size_t(head)].output)];
    if (!in_ddr(g, op.output) || y.shape.size() != h.shape.size() || rows_of(y) != rows_of(h) || y.dtype != h.dtype)
        return false;
    for (int t : op.inputs) {
        const int64_t w = g.tensors[size_t(t)].shape.back();
        if (!reduces && w != y.shape.back() && w != 1) return false;
        if (in_group[size_t(t)]) continue;
        if (!row_operand(g, t, head)) return false;
        for (int f : operands)
            if (descent.after(t, f)) return false;
    }
    return true;
}

// Groups each row reduction of a DDR tensor with the row-wise operations
// and row reductions after it that read its result or one another's
// (joins_row_group), in program order: only the readers of the group's
// results are candidates, and the search stops at a print(...) that
// drains or an update.
void group_rows(TaskGraph& g, const std::vector<std::vector<int>>& readers, const Barriers& barriers) {
    std::vector<bool> in_group(g.tensors.size(), false);
    Descent descent(g);
    for (size_t i = 0; i < g.ops.size(); ++i) {
        OpNode& head = g.ops[i];
        if (head.fused_into >= 0 || !row_reduction(g, head) || !in_ddr(g, head.output) ||
            !row_operand(g, head.inputs[0], int(i)))
            continue;
        std::vector<int> members, results{head.output}, operands{head.inputs[0]};
        in_group[size_t(head.output)] = true;
        std::priority_queue<int, std::vector<int>, std::greater<int>> candidates(readers[size_t(head.output)].begin(),
                                                                                 readers[size_t(head.output)].end());
        int last = int(i);
        while (!candidates.empty()) {
            const int k = candidates.top();
            candidates.pop();
            if (k == last) continue;  // a reader of two of the group's results
            last = k;
            if (barriers.update(int(i), k + 1) || barriers.drain(int(i), k)) break;
            const OpNode& op = g.ops[size_t(k)];
            if (!joins_row_group(g, int(i), in_group, operands, descent, op)) continue;
            for (int t : op.inputs)
                if (!in_group[size_t(t)]) operands.push_back(t);
            members.push_back(k);
            results.push_back(op.output);
            in_group[size_t(op.output)] = true;
            for (int r : readers[size_t(op.output)]) candidates.push(r);
        }
        for (int t : results) in_group[size_t(t)] = false;
        if (members.empty()) continue;
        head.epilogue = members;
        for (int k : members) g.ops[size_t(k)].fused_into = int(i);
    }
}

// `g` with its groups, by its tensors' placements as they are.
TaskGraph group(TaskGraph g) {
    const std::vector<std::vector<int>> readers = tensor_consumers(g);
    const Barriers barriers(g);
    group_rows(g, readers, barriers);
    std::vector<bool> views(g.tensors.size(), false);
    for (const OpNode& op : g.ops)
        if (op_kind_unit_of(op.kind) == OpUnit::Dma)
            for (int t : op.inputs) views[size_t(t)] = true;
    // Cube groups first, so an operation both could take (an add of a
    // matmul's result and a chain's, computed before the matmul) runs in
    // the cube's epilogue; where the vector units have buffers of their own
    // the epilogue cannot run fused (dsl/lower/gemm/gemm_epilogue.h), so
    // there the vector chains come first.
    for (const bool cube_phase : {!g.vector_buffers, g.vector_buffers})
        for (size_t i = 0; i < g.ops.size(); ++i) {
            OpNode& head = g.ops[i];
            if (head.fused_into >= 0 || !head.epilogue.empty()) continue;
            // A cube operation's operands may be on chip (read in place from
            // L1); its result is the tile the chain runs on, stored to DDR. A
            // vector chain's head is the first operation of the chain: its
            // inputs reach L1 as its own lowering loads them.
            const bool cube = op_kind_fusion(head.kind) == OpFusion::Head;
            if (cube != cube_phase) continue;
            if (cube ? !in_ddr(g, head.output) : !vector_head(g, head)) continue;
            int cur = head.output;
            std::vector<int> chain;
            bool late = false;  // a member reads a tensor computed after the head: the chain is deferred
            for (;;) {
                const TensorNode& c = g.tensors[size_t(cur)];
                if (c.role != TensorRole::Intermediate || views[size_t(cur)] || readers[size_t(cur)].size() != 1) break;
                const int next = readers[size_t(cur)].front();
                const OpNode& op = g.ops[size_t(next)];
                if (op.fused_into >= 0 || !op.epilogue.empty() || barriers.drain(int(i), next) ||
                    !(cube ? joins(g, int(i), chain.size(), cur, op) : joins_vector_chain(g, int(i), cur, op)))
                    break;
                for (int t : op.inputs) late = late || (t != cur && g.tensors[size_t(t)].producer > int(i));
                // A deferred chain reads what its head reads where its last
                // member is: no update may come between.
                if (late && barriers.update(int(i), next)) break;
                chain.push_back(next);
                cur = op.output;
            }
            if (chain.empty()) continue;
            head.epilogue = chain;
            for (int k : chain) g.ops[size_t(k)].fused_into = int(i);
        }
    return g;
}

}  // namespace

TaskGraph apply_fusion(const TaskGraph& in) {
    if (!in.fusion) return in;
    if (!in.vector_buffers) return group(in);
    // The tensors the lowering keeps in DDR for vector units with buffers of
    // their own are grouped as the DDR tensors they will be; the graph then
    // gets their placements back (the lowering's note names them).
    const std::vector<int> kept = tensors_vector_units_touch(in);
    TaskGraph g = in;
    for (int t : kept) g.tensors[size_t(t)].placement = Placement::DDR;
    g = group(std::move(g));
    for (int t : kept) g.tensors[size_t(t)].placement = in.tensors[size_t(t)].placement;
    return g;
}

std::string format_fusion_groups(const TaskGraph& g, const std::function<std::string(const OpNode&)>& unfused) {
    std::ostringstream os;
    size_t groups = 0;
    for (const OpNode& op : g.ops) groups += op.epilogue.empty() ? 0 : 1;
    if (groups == 0) return "";
    os << "fusion groups: " << groups << "\n";
    for (size_t i = 0; i < g.ops.size(); ++i) {
        const OpNode& op = g.ops[i];
        if (op.epilogue.empty()) continue;
        os << "  " << g.tensors[size_t(g.ops[size_t(op.epilogue.back())].output)].name << ": " << op_kind_name(op.kind);
        for (int k : op.epilogue) os << " -> " << op_kind_name(g.ops[size_t(k)].kind);
        os << "  (ops " << i;
        for (int k : op.epilogue) os << ", " << k;
        os << ")";
        if (const std::string why = unfused ? unfused(op) : ""; !why.empty()) os << "  [runs unfused: " << why << "]";
        os << "\n";
    }
    return os.str();
}

}  // namespace dsl
