#include "dsl/lower/program/lower.h"

#include <algorithm>
#include <stdexcept>

#include "dsl/ir/vector_unit_tensors.h"
#include "dsl/lower/ddr_workspace.h"
#include "dsl/lower/gemm/gemm_epilogue.h"
#include "dsl/lower/gemm/lower_matmul.h"
#include "dsl/lower/lower_context.h"
#include "dsl/lower/lower_views.h"
#include "dsl/lower/program/op_lowering.h"
#include "dsl/lower/row_bands.h"
#include "dsl/support/diagnostics.h"
#include "sim/arch/block_codec.h"
#include "sim/arch/program_check.h"

namespace dsl {

namespace {

// Tensors start on 4 KiB boundaries in DDR so no two share a page.
constexpr uint64_t kDdrAlignment = 4096;

// Every stored tensor gets its own DDR range, except the on-chip ones (the
// buffer plan's, in L1); a view (dsl/lower/lower_views.h) gets its source's
// address and no range of its own.
// A buffer copied from `t` (pypo.mem.alloc_l1, buf[:] = t) that is kept
// in DDR (a placement note) is `t` itself: the copy emits nothing and its
// readers read `t`. The source, else -1.
int kept_copy_of(const TaskGraph& g, const BufferPlan& plan, int tensor) {
    const TensorNode& t = g.tensors[size_t(tensor)];
    if (t.producer < 0 || g.ops[size_t(t.producer)].kind != OpKind::Move || plan.on_chip(tensor)) return -1;
    return g.ops[size_t(t.producer)].inputs[0];
}

// The tensors that may take a strand's workspace bytes (dsl/lower/
// ddr_workspace.h): intermediates with DDR bytes of their own that no
// other tensor names (a view, an update, a copy kept in DDR).
std::vector<bool> workspace_eligible(const TaskGraph& g, const BufferPlan& plan) {
    std::vector<bool> e(g.tensors.size(), false);
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const TensorNode& t = g.tensors[i];
        e[i] = t.role == TensorRole::Intermediate && t.producer >= 0 && !plan.in_ub(int(i)) && !plan.on_chip(int(i)) &&
               view_source(g, int(i)) < 0 && kept_copy_of(g, plan, int(i)) < 0;
    }
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        if (const int source = kept_copy_of(g, plan, int(i)); source >= 0) e[size_t(source)] = false;
        if (const int source = view_source(g, int(i)); source >= 0) e[size_t(source)] = false;
    }
    return e;
}

void place_tensors(const TaskGraph& g, const arch::Config& c, const BufferPlan& plan, const DdrWorkspace& workspace,
                   arch::Program& p) {
    uint64_t next = 0;
    p.tensors.resize(g.tensors.size());
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const TensorNode& t = g.tensors[i];
        if (view_source(g, int(i)) >= 0 || kept_copy_of(g, plan, int(i)) >= 0 || workspace.takes[i] >= 0) continue;
        uint64_t bytes = tensor_bytes(t);
        if (plan.in_ub(int(i))) {
            p.tensors[i] = {t.name,
                            t.shape,
                            t.dtype,
                            0,
                            bytes,
                            std::string(tensor_role_name(t.role)) + ", in " + placement_name(t.placement) +
                                ", kept in the vector units' Unified Buffers in bands of " +
                                std::to_string(plan.ub_of(int(i)).bands.unit_rows) + " rows"};
            p.tensors[i].ub_addr = int64_t(plan.ub_addr(int(i)));
            continue;
        }
        if (t.placement != Placement::DDR && (plan.on_chip(int(i)) || t.producer < 0)) {
            std::string role = std::string(tensor_role_name(t.role)) + ", in " + placement_name(t.placement);
            p.tensors[i] = {t.name, t.shape, t.dtype, 0, bytes, role};
            if (plan.on_chip(int(i))) {
                p.tensors[i].l1_addr = int64_t(plan.l1_addr(int(i)));
                if (plan.band_rows(int(i)) > 0)
                    p.tensors[i].role += ", in bands of " + std::to_string(plan.band_rows(int(i))) + " rows";
            } else {
                p.tensors[i].role += ", never written";
            }
            continue;
        }
        if (next + bytes > uint64_t(c.ddr_bytes()))
            throw CompileError(t.loc, "tensor '" + t.name + "' does not fit in DDR: the program's tensors need " +
                                          std::to_string(next + bytes) + " bytes, DDR has " +
                                          std::to_string(c.ddr_bytes()));
        std::string role = tensor_role_name(t.role);
        if (!t.layout.empty()) role += ", " + t.layout;
        p.tensors[i] = {t.name, t.shape, t.dtype, next, bytes, role};
        next = (next + bytes + kDdrAlignment - 1) / kDdrAlignment * kDdrAlignment;
    }
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const TensorNode& t = g.tensors[i];
        if (const int root = workspace.takes[i]; root >= 0) {
            p.tensors[i] = {t.name,
                            t.shape,
                            t.dtype,
                            p.tensors[size_t(root)].ddr_addr,
                            tensor_bytes(t),
                            std::string(tensor_role_name(t.role)) + ", in its strand's workspace: the bytes of " +
                                g.tensors[size_t(workspace.previous[i])].name};
            continue;
        }
        if (int source = kept_copy_of(g, plan, int(i)); source >= 0) {
            p.tensors[i] = {t.name,
                            t.shape,
                            t.dtype,
                            p.tensors[size_t(source)].ddr_addr,
                            tensor_bytes(t),
                            std::string(tensor_role_name(t.role)) + ", kept in DDR: " + g.tensors[size_t(source)].name};
            continue;
        }
        int source = view_source(g, int(i));
        if (source < 0) continue;
        if (plan.on_chip(source))
            throw CompileError(t.loc, std::string(op_kind_name(g.ops[size_t(t.producer)].kind)) + " of '" +
                                          g.tensors[size_t(source)].name + "' in " +
                                          placement_name(g.tensors[size_t(source)].placement) +
                                          " is not lowered yet: views are of tensors in DDR");
        const DdrView v = ddr_view(g, int(i));
        const bool update = g.ops[size_t(t.producer)].kind == OpKind::Update;
        p.tensors[i] = {t.name,
                        t.shape,
                        t.dtype,
                        p.tensors[size_t(source)].ddr_addr + uint64_t(v.layout.offset * arch::dtype_bytes(t.dtype)),
                        tensor_bytes(t),
                        std::string(tensor_role_name(t.role)) + (update ? ", updated in place: " : ", view of ") +
                            g.tensors[size_t(source)].name};
    }
}

// How much of [addr, addr + bytes) in DDR `blocks` (emitted) together
// write: none, some, or all of it.
enum class Written { None, Some, All };
Written written(const LowerContext& ctx, const std::vector<uint32_t>& blocks, uint64_t addr, uint64_t bytes) {
    SpanList spans;
    for (uint32_t b : blocks)
        for (const ByteSpan& s : ctx.block_writes(b))
            if (s.begin < addr + bytes && addr < s.end) spans.push_back(s);
    merge(spans);
    if (spans.empty()) return Written::None;
    return spans[0].begin <= addr && spans[0].end >= addr + bytes ? Written::All : Written::Some;
}

// A row reduction (reduce_sum, reduce_mean, reduce_max over the last axis
// alone): it can read an on-chip tensor where it is, part by part (whole
// rows), and keep its result, row r's statistic for row r, on chip.
bool reduces_rows(const TaskGraph& g, const OpNode& op) {
    if (!is_reduce_kind(op.kind)) return false;
    const size_t rank = g.tensors[size_t(op.inputs[0])].shape.size();
    return op.attrs.at("axis").ints == std::vector<int64_t>{int64_t(rank) - 1};
}

// `tensor`'s bytes are in DDR (not in an on-chip tensor, nor a view of one,
// nor in the Unified Buffers).
bool in_ddr_storage(const TaskGraph& g, const BufferPlan& plan, int tensor) {
    return !plan.in_place(tensor) && !plan.on_chip(ddr_view(g, tensor).storage);
}

// The operation uses an on-chip tensor; throws if it cannot.
bool uses_on_chip(const TaskGraph& g, const BufferPlan& plan, const OpNode& op) {
    std::vector<int> on_chip;
    for (int in : op.inputs)
        if (plan.on_chip(in)) on_chip.push_back(in);
    const bool writes = plan.on_chip(op.output);
    if (on_chip.empty() && !writes) return false;
    const TensorNode& t = g.tensors[size_t(on_chip.empty() ? op.output : on_chip.front())];
    const std::string what = std::string(op_kind_name(op.kind)) + (on_chip.empty() ? " writing '" : " reading '") +
                             t.name + "' in " + placement_name(t.placement);
    // A result the operation cannot keep on chip stays in DDR, said in a
    // note (target= is accepted on every operation).
    const bool keeps_result =
        (op_kind_on_chip(op.kind) && !(op.kind == OpKind::Matmul && g.tensors[size_t(op.output)].shape.size() > 2)) ||
        reduces_rows(g, op);
    if (writes && !keeps_result && on_chip.empty())
        throw PlacementMismatch{op.output, std::string(op_kind_name(op.kind)) + " writes its result to DDR: " +
                                               "on-chip results are those of 2-D matmuls, element-wise "
                                               "operations, cast and reductions over the last axis"};
    if (reduces_rows(g, op)) return true;
    if (!op_kind_on_chip(op.kind))
        throw CompileError(op.loc, what +
                                       " is not lowered yet: on-chip tensors are used by copies, matmul, "
                                       "element-wise operations, cast and reductions over the last axis");
    if (op.kind == OpKind::Move && !on_chip.empty())
        throw CompileError(op.loc, "copying '" + t.name + "' in " + placement_name(t.placement) +
                                       " into a buffer is not lowered yet: copy from a tensor in DDR");
    if (op.kind == OpKind::Matmul && g.tensors[size_t(op.output)].shape.size() > 2)
        throw CompileError(op.loc, "batched " + what + " is not lowered yet");
    return true;
}

}  // namespace

namespace {

// Whether `shape`, left-padded with 1s, is `out` (no broadcasting).
bool same_shape(std::vector<int64_t> shape, const std::vector<int64_t>& out) {
    if (shape.size() < out.size()) shape.insert(shape.begin(), out.size() - shape.size(), 1);
    return shape == out;
}

// Whether an element-wise operation can follow the parts of `part_of`
// (rows of `row_elems` elements); throws PlacementMismatch if not.
void check_parts_followed(const LowerContext& ctx, const OpNode& op, int part_of, const std::string& what,
                          int64_t row_elems) {
    const TensorNode& x = ctx.tensor(part_of);
    const TensorNode& y = ctx.tensor(op.output);
    if (x.shape != y.shape)
        throw PlacementMismatch{part_of, what + "broadcasts it, and a broadcast does not follow a tensor's parts"};
    bool strided = false, broadcast = false;
    for (const TensorPart& p : ctx.placement->parts(part_of)) {
        if (!p.exact)
            throw PlacementMismatch{part_of, what +
                                                 "reads it, and its producer's blocks wrote parts that are not "
                                                 "rectangles of rows and columns"};
        strided = strided || p.rect.c1 - p.rect.c0 != row_elems;
    }
    for (int in : op.inputs) broadcast = broadcast || !same_shape(ctx.tensor(in).shape, y.shape);
    if (strided && ctx.on_chip(op.output))
        throw PlacementMismatch{
            op.output, what + "would write it by columns of '" + x.name + "', and the vector unit writes whole rows"};
    if (strided && broadcast)
        throw PlacementMismatch{part_of, what +
                                             "broadcasts an operand over column parts of it, which is not "
                                             "lowered"};
}

// An element-wise operation or a row reduction reading a partitioned
// on-chip tensor follows its parts: one stream per part, on the cluster
// holding it, over the part's rows and columns (LowerContext::window).
// Every other operation is lowered whole, its blocks placed as they come.
void lower_on_parts(LowerContext& ctx, const OpNode& op) {
    int part_of = -1;
    if (ctx.pinned && op.kind != OpKind::Matmul && op.kind != OpKind::Move)
        for (int in : op.inputs)
            if (ctx.on_chip(in) && !ctx.placement->everywhere(in)) {
                part_of = in;
                break;
            }
    const int64_t out_band = ctx.plan.band_rows(op.output);
    if (part_of < 0 && out_band > 0 && op.kind != OpKind::Matmul && op.kind != OpKind::Move &&
        (op_kind_on_chip(op.kind) || reduces_rows(ctx.graph, op))) {
        // A result kept in bands, read from DDR: one stream per band, on
        // its cluster.
        const TensorNode& x = ctx.tensor(op.inputs[0]);
        const TensorNode& y = ctx.tensor(op.output);
        const int64_t cols = y.shape.empty() ? 1 : y.shape.back();
        const int64_t rows = tensor_rows(y);
        const int64_t row_elems = reduces_rows(ctx.graph, op) ? x.shape.back() : cols;
        for (int64_t r0 = 0, k = 0; r0 < rows; r0 += out_band, ++k) {
            ctx.pin = int32_t(k);
            ctx.window = {r0, std::min(out_band, rows - r0), 0, row_elems, row_elems};
            lower_op(ctx, op);
        }
        ctx.pin = -1;
        ctx.window = {};
        return;
    }
    if (part_of < 0) return lower_op(ctx, op);
    const TensorNode& x = ctx.tensor(part_of);
    const TensorNode& y = ctx.tensor(op.output);
    const std::string what = std::string(op_kind_name(op.kind)) + " '" + y.name + "' ";
    // The window is over the part's rows of the tensor read (the same shape
    // as the result, except for a row reduction, whose part row r gives
    // output row r: lower_reduction).
    const int64_t row_elems = x.shape.empty() ? 1 : x.shape.back();
    if (reduces_rows(ctx.graph, op)) {
        for (const TensorPart& p : ctx.placement->parts(part_of))
            if (!p.exact || p.rect.c0 != 0 || p.rect.c1 != row_elems)
                throw PlacementMismatch{part_of, what +
                                                     "reduces its rows, and its producer's blocks wrote parts "
                                                     "that are not whole rows"};
    } else {
        check_parts_followed(ctx, op, part_of, what, row_elems);
    }
    // Tensors kept in bands are followed band by band: each part must be
    // rows of one band, on its cluster.
    std::vector<int> banded;
    for (int t : op.inputs)
        if (ctx.plan.band_rows(t) > 0) banded.push_back(t);
    if (out_band > 0) banded.push_back(op.output);
    for (const TensorPart& p : ctx.placement->parts(part_of)) {
        for (int t : banded) {
            const int64_t band = ctx.plan.band_rows(t);
            if (p.rect.r0 / band != (p.rect.r1 - 1) / band || p.rect.r0 / band != p.cluster)
                throw PlacementMismatch{t,
                                        what + "follows parts of '" + x.name + "' (rows " + std::to_string(p.rect.r0) +
                                            " to " + std::to_string(p.rect.r1) + " on cluster " +
                                            std::to_string(p.cluster) + ") that are not its bands of " +
                                            std::to_string(band) + " rows",
                                        false, true};
        }
        ctx.pin = p.cluster;
        ctx.window = {p.rect.r0, p.rect.r1 - p.rect.r0, p.rect.c0, p.rect.c1 - p.rect.c0, row_elems};
        lower_op(ctx, op);
    }
    ctx.pin = -1;
    ctx.window = {};
}

// The tensor at the top of a region (L1's or the UBs'), the latest placed
// among equals: the one kept in DDR instead when the region leaves an
// operation too little.
template <class T>
int region_top(const std::vector<T>& tensors) {
    const T* top = nullptr;
    for (const T& t : tensors)
        if (!top || t.offset + t.bytes > top->offset + top->bytes ||
            (t.offset + t.bytes == top->offset + top->bytes && t.first_op > top->first_op))
            top = &t;
    return top->tensor;
}

// The fusion group operation `k` runs in: its head's index, or its own.
int group_of(const TaskGraph& g, int k) {
    const int h = g.ops[size_t(k)].fused_into;
    return h >= 0 ? h : k;
}

// With Unified Buffers (vector.buffer_kib) the vector units compute in
// their own buffers, which reach the cluster's L1 only through DDR or the
// L2 (docs/timing-model.md §2). A tensor kept on chip that vector-unit
// operations alone write and read, whole (no view of it), and that is read
// outside its writer's fusion group, is kept in the vector units' buffers
// instead (`in_ub`, docs/timing-model.md §10, "Tensors kept in the Unified
// Buffers"); any other on-chip tensor a vector-unit operation reads or
// writes (through views too) is kept in DDR, all of them said in one note.
void keep_vector_operands(const TaskGraph& g, const arch::Config& config, std::vector<bool>& in_ddr,
                          std::vector<bool>& in_ub, std::vector<std::string>& notes) {
    if (!config.vector_buffer()) return;
    const std::vector<std::vector<int>> readers = tensor_consumers(g);
    auto vector_op = [&](int k) {
        const OpKind kind = g.ops[size_t(k)].kind;
        return op_kind_unit_of(kind) == OpUnit::Vector && !is_view_kind(kind) && kind != OpKind::Move;
    };
    auto in_buffers = [&](int t) {
        const TensorNode& n = g.tensors[size_t(t)];
        if (n.producer < 0 || n.role == TensorRole::Output || n.shape.empty() || !vector_op(n.producer)) return false;
        bool outside = false;
        for (int r : readers[size_t(t)]) {
            if (!vector_op(r)) return false;
            outside = outside || group_of(g, r) != group_of(g, n.producer);
        }
        return outside;
    };
    std::string kept;
    int count = 0;
    for (int t : tensors_vector_units_touch(g)) {
        const TensorNode& n = g.tensors[size_t(t)];
        if (n.placement == Placement::DDR || in_ddr[size_t(t)]) continue;
        if (in_buffers(t)) {
            in_ub[size_t(t)] = true;
            continue;
        }
        in_ddr[size_t(t)] = true;
        kept += (count++ ? ", '" : "'") + n.name + "' (" + placement_name(n.placement) + ")";
    }
    if (count)
        notes.push_back(std::string(count == 1 ? "tensor " : std::to_string(count) + " tensors ") + kept +
                        " kept in DDR: vector-unit operations read or write " + (count == 1 ? "it" : "them") +
                        ", and the vector units compute in their own Unified Buffers (vector.buffer_kib), which "
                        "reach on-chip tensors only through DDR or the L2");
}

// The note naming the tensors kept in the Unified Buffers, if any.
void note_ub_tensors(const TaskGraph& g, const BufferPlan& plan, std::vector<std::string>& notes) {
    if (plan.ub_tensors.empty()) return;
    std::string kept;
    for (const UbTensor& u : plan.ub_tensors) {
        const TensorNode& n = g.tensors[size_t(u.tensor)];
        kept += (kept.empty() ? "'" : ", '") + n.name + "' (" + placement_name(n.placement) + ")";
    }
    const size_t count = plan.ub_tensors.size();
    notes.push_back(std::string(count == 1 ? "tensor " : std::to_string(count) + " tensors ") + kept +
                    " kept in the vector units' Unified Buffers, each unit holding its band of rows (" +
                    std::to_string(plan.ub_region) +
                    " bytes of each UB): vector-unit operations alone write and read " + (count == 1 ? "it" : "them"));
}

// A vector chain (dsl/passes/pass_fusion.h) with a member that reads a
// tensor computed after the chain's head: it can only run once that
// tensor is there.
bool deferred_chain(const TaskGraph& g, const OpNode& head) {
    if (head.epilogue.empty() || op_kind_fusion(head.kind) == OpFusion::Head) return false;
    const int h = int(&head - g.ops.data());
    for (int k : head.epilogue)
        for (int t : g.ops[size_t(k)].inputs)
            if (g.tensors[size_t(t)].producer > h && g.tensors[size_t(t)].producer < k &&
                g.ops[size_t(g.tensors[size_t(t)].producer)].fused_into != h)
                return true;
    return false;
}

// The order the operations are lowered in: the program's, except that a
// deferred chain (its head, then its members) is lowered where its last
// member is. Nothing between reads the chain's intermediates (each has
// its next member as its only reader), and the pass allows no update
// there.
std::vector<int> lowering_order(const TaskGraph& g) {
    std::vector<int> order;
    std::vector<int> deferred_at(g.ops.size(), -1);  // a deferred chain's op -> its head
    for (size_t i = 0; i < g.ops.size(); ++i)
        if (deferred_chain(g, g.ops[i])) {
            deferred_at[i] = int(i);
            for (int k : g.ops[i].epilogue) deferred_at[size_t(k)] = int(i);
        }
    for (size_t i = 0; i < g.ops.size(); ++i) {
        if (deferred_at[i] < 0) {
            order.push_back(int(i));
            continue;
        }
        const OpNode& head = g.ops[size_t(deferred_at[i])];
        if (int(i) != head.epilogue.back()) continue;
        order.push_back(deferred_at[i]);
        order.insert(order.end(), head.epilogue.begin(), head.epilogue.end());
    }
    return order;
}

// Where each operation may be lowered, as steps of lowering_order: a
// fusion group's member with its head (when the head runs its group) or at
// its own step (when not), so from `first_at` to `last_at`.
void lowering_steps(const TaskGraph& g, std::vector<int>& first_at, std::vector<int>& last_at) {
    const std::vector<int> order = lowering_order(g);
    std::vector<int> step(g.ops.size(), 0);
    for (size_t k = 0; k < order.size(); ++k) step[size_t(order[k])] = int(k);
    first_at = last_at = step;
    for (size_t i = 0; i < g.ops.size(); ++i)
        if (const int h = g.ops[i].fused_into; h >= 0) {
            first_at[i] = std::min(step[i], step[size_t(h)]);
            last_at[i] = std::max(step[i], step[size_t(h)]);
        }
}

// Lowers the program with the tensors `in_ddr` kept in DDR and those
// `in_ub` in the vector units' Unified Buffers; throws PlacementMismatch
// when a consumer cannot follow an on-chip tensor's placement.
arch::Program lower_once(const TaskGraph& g, const arch::Config& config, const std::string& source,
                         const LowerOptions& options, const std::vector<bool>& in_ddr, const std::vector<bool>& in_ub,
                         int64_t band_granule) {
    arch::Program program;
    program.source = source;
    program.max_parallel = uint32_t(std::max(g.max_parallel, 0));
    std::vector<bool> not_in_l1 = in_ddr;
    for (size_t t = 0; t < in_ub.size(); ++t)
        if (in_ub[t]) not_in_l1[t] = true;
    BufferPlan plan =
        plan_buffers(g, config, not_in_l1, band_granule ? arch::clusters_in_use(program, config) : 0, band_granule);
    std::vector<int> first_at, last_at;
    lowering_steps(g, first_at, last_at);
    const UbStrands strands = find_ub_strands(g, in_ub, arch::clusters_in_use(program, config));
    plan_ub_tensors(plan, g, config, in_ub, strands, first_at, last_at);
    // A lowering that ends in a PlacementMismatch is done again: only the
    // last one is explained.
    if (options.explain) options.explain->ops.clear();
    const DdrWorkspace workspace = plan_ddr_workspace(g, strands, workspace_eligible(g, plan), first_at, last_at);
    place_tensors(g, config, plan, workspace, program);
    for (size_t t = 0; t < g.tensors.size(); ++t)
        if (workspace.takes[t] >= 0 || workspace.reused[t]) {
            program.complete_after_block.resize(g.tensors.size(), -1);
            program.complete_after_block[t] = arch::Program::kNotWritten;
        }
    // The lowerings see L1 without the on-chip tensors' region, and with
    // several blocks per cluster (MAX_PARALLEL above chip.clusters) one
    // slot's share of it and of L0 (arch::Program::slot_l1_bytes).
    arch::Config usable = config;
    usable.l1_kib -= int64_t(plan.region / 1024);
    usable.vector_buffer_kib -= int64_t(plan.ub_region / 1024);
    const int64_t slots = arch::blocks_per_cluster(program, config);
    if (slots > 1) {
        usable.l1_kib /= slots;
        usable.l0_kib /= slots;
        usable.l0a_kib /= slots, usable.l0b_kib /= slots, usable.l0c_kib /= slots;
        if (usable.l0_split()) usable.l0_kib = usable.l0a_kib + usable.l0b_kib + usable.l0c_kib;
        if (usable.l1_kib == 0 || usable.l0_kib == 0 ||
            (config.l0_split() && (!usable.l0a_kib || !usable.l0b_kib || !usable.l0c_kib)))
            throw CompileError(g.max_parallel_loc,
                               "pypo.config.MAX_PARALLEL = " + std::to_string(g.max_parallel) + " puts " +
                                   std::to_string(slots) + " blocks on each of the " + std::to_string(config.clusters) +
                                   " clusters at once, and a block's share of L1 (" + std::to_string(config.l1_kib) +
                                   " KiB) or L0 (" + std::to_string(config.l0_kib) + " KiB) would be under 1 KiB");
        program.slot_l1_bytes = uint64_t(usable.l1_bytes());
        program.slot_l0_bytes = uint64_t(usable.l0_bytes());
    }
    ClusterPlacement placement(g, plan, int32_t(arch::clusters_in_use(program, config)));
    LowerContext ctx(g, usable, program, plan, options);
    ctx.placement = &placement;
    // A buffer matmuls read as A: in how many bands of rows (dsl/lower/row_bands.h).
    for (OnChipTensor& t : plan.tensors)
        if (t.replicated)
            t.bands = choose_row_bands(g, usable, t.tensor, placement.clusters(), [&](const OpNode& op) {
                GemmShape s = matmul_shape(ctx, op);
                s.max_parallel = g.max_parallel;
                return s;
            });
    // Per on-chip tensor, the blocks that read or wrote it: a tensor placed
    // where an earlier one was (its scope over) is written only after them.
    std::vector<std::vector<uint32_t>> touched(g.tensors.size());
    // The same for the tensors kept in the Unified Buffers.
    std::vector<std::vector<uint32_t>> touched_ub(g.tensors.size());
    // Per buffer of a strand's DDR workspace (by its first holder), the
    // blocks that read or wrote it since a holder's writer last wrote all
    // of it (which waited for every earlier user of the bytes it wrote).
    std::vector<std::vector<uint32_t>> buffer_users(g.tensors.size());
    // Blocks of op i, so a consumer can wait for its producers.
    std::vector<std::vector<uint32_t>> op_blocks(g.ops.size());
    size_t next_log = 0;
    // Every operation is listed first: a fusion group's cube operation tags
    // commands with the operations of its epilogue.
    for (const OpNode& op : g.ops) {
        arch::ProgramOp info{g.tensors[size_t(op.output)].name,
                             op_kind_name(op.kind),
                             op.task >= 0 ? g.tasks[size_t(op.task)].name : "",
                             {}};
        for (int in : op.inputs)
            if (int producer = g.tensors[size_t(in)].producer; producer >= 0) info.inputs.push_back(producer);
        // An update also comes after the readers of what it overwrites.
        if (op.kind == OpKind::Update)
            for (int r : update_readers(g, int(&op - g.ops.data()))) info.inputs.push_back(r);
        program.ops.push_back(std::move(info));
    }
    std::vector<bool> fused(g.ops.size(), false);  // a cube operation that ran its epilogue
    std::vector<bool> lowered(g.ops.size(), false);
    const std::vector<int> order = lowering_order(g);
    for (size_t step = 0; step < order.size(); ++step) {
        const size_t i = size_t(order[step]);
        lowered[i] = true;
        const OpNode& op = g.ops[i];
        // An operation of a fused epilogue ran with its cube operation.
        if (op.fused_into >= 0 && fused[size_t(op.fused_into)]) {
            if (options.explain) {
                OpExplanation x;
                x.op = int(i), x.fused = true;
                options.explain->ops.push_back(x);
            }
            op_blocks[i] = op_blocks[size_t(op.fused_into)];
            program.ops[i].fused_into = op.fused_into;
            continue;
        }
        // print(...) is a synchronisation point: everything before it drains
        // before anything after it starts. pypo.log(...) is asynchronous.
        for (; next_log < g.logs.size() && g.logs[next_log].after_op < int(i); ++next_log)
            if (g.logs[next_log].synchronous) ctx.drain = ctx.blocks_emitted();
        ctx.deps.clear();
        ctx.data_deps.clear();
        ctx.ub_deps.clear();
        ctx.reuse_deps.clear();
        // A fusion group waits for what any of its operations reads: of the
        // blocks that wrote an operand in DDR, for those that wrote bytes a
        // block reads (or writes: an update's slice), of an on-chip one for
        // all (where they ran is its placement's business).
        std::vector<int> reads = op.inputs;
        for (int k : op.epilogue)
            reads.insert(reads.end(), g.ops[size_t(k)].inputs.begin(), g.ops[size_t(k)].inputs.end());
        for (int in : reads) {
            const int producer = g.tensors[size_t(in)].producer;
            // The group's own results are computed in its blocks.
            if (producer < 0 || producer == int(i) || g.ops[size_t(producer)].fused_into == int(i)) continue;
            if (!lowered[size_t(producer)])
                throw std::logic_error("operation " + std::to_string(i) + " lowered before its operand's producer " +
                                       std::to_string(producer));
            // Of the blocks that wrote a tensor kept in the Unified Buffers,
            // for those on the block's cluster (which wrote its rows there).
            std::vector<uint32_t>& wait = plan.in_ub(in)                ? ctx.ub_deps
                                          : in_ddr_storage(g, plan, in) ? ctx.data_deps
                                                                        : ctx.deps;
            for (int t = in;;) {
                const int p = g.tensors[size_t(t)].producer;
                if (p < 0) break;
                wait.insert(wait.end(), op_blocks[size_t(p)].begin(), op_blocks[size_t(p)].end());
                // An update wrote only its slice: the rest of the bytes are
                // the version it updated.
                if (g.ops[size_t(p)].kind != OpKind::Update) break;
                t = g.ops[size_t(p)].inputs[0];
            }
        }
        // The tensors kept in the Unified Buffers it (with its group) reads
        // or writes: its streams take their rows in the units' bands, and a
        // tensor placed where an earlier one was is written only after the
        // blocks that used that one.
        ctx.ub_tensors.clear();
        ctx.ub_rows = 0;
        ctx.ub_followed.clear();
        {
            std::vector<int> writes{op.output};
            for (int k : op.epilogue) writes.push_back(g.ops[size_t(k)].output);
            std::vector<int> uses = reads;
            uses.insert(uses.end(), writes.begin(), writes.end());
            for (int t : uses)
                if (plan.in_ub(t) && std::find(ctx.ub_tensors.begin(), ctx.ub_tensors.end(), t) == ctx.ub_tensors.end())
                    ctx.ub_tensors.push_back(t);
            for (int t : ctx.ub_tensors) {
                const int64_t rows = tensor_rows(g.tensors[size_t(t)]);
                if (ctx.ub_rows > 0 && rows != ctx.ub_rows)
                    throw PlacementMismatch{t, std::string(op_kind_name(op.kind)) + " '" +
                                                   g.tensors[size_t(op.output)].name + "' reads or writes it beside '" +
                                                   g.tensors[size_t(ctx.ub_tensors.front())].name +
                                                   "', whose rows differ in number"};
                ctx.ub_rows = rows;
            }
            // The tensors that held a written one's bytes last before it
            // (the plan keeps lifetimes apart); those held them before
            // these were waited for by these tensors' writers.
            for (int t : writes) {
                // The same in a strand's DDR workspace.
                if (workspace.previous[size_t(t)] >= 0) {
                    const std::vector<uint32_t>& users = buffer_users[size_t(workspace.buffer[size_t(t)])];
                    ctx.reuse_deps.insert(ctx.reuse_deps.end(), users.begin(), users.end());
                }
                if (!plan.in_ub(t)) continue;
                for (int u : plan.ub_of(t).previous)
                    ctx.ub_deps.insert(ctx.ub_deps.end(), touched_ub[size_t(u)].begin(), touched_ub[size_t(u)].end());
            }
        }
        // An update overwrites bytes that earlier blocks may read: of any
        // version of the tensor, through a view, a copy kept in DDR or a
        // matmul dequantising its weights. Its blocks wait for each block
        // that read (or wrote) what they write, found by the bytes.
        ctx.overwrites = op.kind == OpKind::Update;
        // Each block of an operation on on-chip tensors runs where what it
        // reads is held (dsl/lower/cluster_placement.h).
        ctx.pinned = uses_on_chip(g, plan, op);
        if (ctx.pinned) placement.start_op(int(i));
        // An operation of one strand alone runs on its clusters (the
        // kept tensors' streams are placed by their bands).
        ctx.strand_clusters = 0, ctx.strand_blocks = 0;
        if (!ctx.pinned && ctx.ub_tensors.empty() && strands.share < strands.clusters) {
            std::vector<int> of;
            for (int t : reads) of.push_back(strands.of[size_t(t)]);
            of.push_back(strands.of[size_t(op.output)]);
            for (int k : op.epilogue) of.push_back(strands.of[size_t(g.ops[size_t(k)].output)]);
            of.erase(std::remove(of.begin(), of.end(), -1), of.end());
            if (!of.empty() && std::all_of(of.begin(), of.end(), [&](int s) { return s == of.front(); }))
                ctx.strand_first = strands.first_cluster(of.front()), ctx.strand_clusters = strands.share;
        }
        if (plan.on_chip(op.output)) {
            const OnChipTensor& o = plan.of(op.output);
            for (const OnChipTensor& u : plan.tensors)
                if (u.last_op < int(i) && u.offset < o.offset + o.bytes && o.offset < u.offset + u.bytes)
                    ctx.deps.insert(ctx.deps.end(), touched[size_t(u.tensor)].begin(), touched[size_t(u.tensor)].end());
        }
        for (std::vector<uint32_t>* d : {&ctx.deps, &ctx.data_deps, &ctx.ub_deps, &ctx.reuse_deps}) {
            std::sort(d->begin(), d->end());
            d->erase(std::unique(d->begin(), d->end()), d->end());
        }
        const uint32_t first = ctx.blocks_emitted();
        ctx.program_op = int32_t(i);
        ctx.epilogue_fused = false;
        ctx.epilogue_unfused.clear();
        ctx.buffering_used = 0;
        OpExplanation explained;
        explained.op = int(i), explained.pinned = ctx.pinned;
        explained.strand_first = ctx.strand_first, explained.strand_clusters = ctx.strand_clusters;
        explained.result_on_chip = plan.on_chip(op.output);
        if (const int u = workspace.previous[size_t(op.output)]; u >= 0)
            explained.takes_bytes_of = g.tensors[size_t(u)].name;
        ctx.explaining = options.explain ? &explained : nullptr;
        try {
            lower_on_parts(ctx, op);
            fused[i] = ctx.epilogue_fused && !op.epilogue.empty();
            if (!op.epilogue.empty() && !fused[i]) {
                program.notes.push_back(unfused_group_note(g, op, ctx.epilogue_unfused));
                explained.unfused = ctx.epilogue_unfused;
            }
        } catch (const CompileError& e) {
            // Say where the rest of L1 and L0 went when an operation does not
            // fit them (an error that gives their capacity in bytes): to
            // on-chip tensors (kept in DDR instead, below) or to other slots.
            if (e.capacity() == CompileError::Capacity::None) throw;
            // The same for the region kept in every vector unit's UB for the
            // tensors kept there.
            if (e.capacity() == CompileError::Capacity::UB) {
                if (plan.ub_region == 0) throw;
                throw PlacementMismatch{region_top(plan.ub_tensors),
                                        "the " + std::to_string(plan.ub_region) +
                                            " bytes of each Unified Buffer kept for tensors leave too "
                                            "little for " +
                                            op_kind_name(op.kind) + " '" + g.tensors[size_t(op.output)].name + "' (" +
                                            std::to_string(op.loc.line) + ":" + std::to_string(op.loc.col) +
                                            "): " + e.message()};
            }
            const std::string& m = e.message();
            // The region kept for on-chip tensors is taken from every
            // operation's L1: where that leaves too little, the tensor at
            // the region's top is kept in DDR instead (which lowers it), and
            // the program is lowered again (dsl/lower/placement_mismatch.h).
            if (plan.region > 0 && e.capacity() == CompileError::Capacity::L1) {
                throw PlacementMismatch{region_top(plan.tensors),
                                        "the " + std::to_string(plan.region) +
                                            " bytes of L1 kept for on-chip tensors leave too little for " +
                                            op_kind_name(op.kind) + " '" + g.tensors[size_t(op.output)].name + "' (" +
                                            std::to_string(op.loc.line) + ":" + std::to_string(op.loc.col) + "): " + m,
                                        true};
            }
            if (slots == 1) throw;
            throw CompileError(e.loc(),
                               m + " (one of " + std::to_string(slots) +
                                   " blocks per cluster, pypo.config.MAX_PARALLEL = " + std::to_string(g.max_parallel) +
                                   ")",
                               e.capacity());
        }
        for (uint32_t b = first; b < ctx.blocks_emitted(); ++b) op_blocks[i].push_back(b);
        // A lowering that read or wrote a tensor kept in the Unified Buffers
        // other than in place (in DDR, where it is not) is found out here.
        // (A group that ran unfused: its head's own tensors; its members
        // are lowered, and checked, on their own.)
        for (int t : ctx.ub_tensors) {
            if (!op.epilogue.empty() && !fused[i] && t != op.output &&
                std::find(op.inputs.begin(), op.inputs.end(), t) == op.inputs.end())
                continue;
            if (std::find(ctx.ub_followed.begin(), ctx.ub_followed.end(), t) == ctx.ub_followed.end())
                throw PlacementMismatch{t, std::string(op_kind_name(op.kind)) + " '" +
                                               g.tensors[size_t(op.output)].name +
                                               "' is not lowered to read or write it where it is kept"};
            touched_ub[size_t(t)].insert(touched_ub[size_t(t)].end(), op_blocks[i].begin(), op_blocks[i].end());
        }
        // What used the buffers of a strand's workspace, and when the
        // values of a tensor sharing its bytes are complete.
        if (!program.complete_after_block.empty() && first < ctx.blocks_emitted()) {
            std::vector<int> writes{op.output};
            if (fused[i])
                for (int k : op.epilogue) writes.push_back(g.ops[size_t(k)].output);
            for (int t : writes) {
                const int b = workspace.buffer[size_t(t)];
                if (b < 0) continue;
                // (A result computed inside the group and never stored
                // keeps kNotWritten: nothing reads its values.)
                const arch::TensorPlacement& at = program.tensors[size_t(t)];
                const Written w = written(ctx, op_blocks[i], at.ddr_addr, at.bytes);
                if (w != Written::None) program.complete_after_block[size_t(t)] = int64_t(ctx.blocks_emitted() - 1);
                if (w == Written::All) buffer_users[size_t(b)].clear();
            }
            std::vector<int> uses = reads;
            uses.insert(uses.end(), writes.begin(), writes.end());
            std::sort(uses.begin(), uses.end());
            uses.erase(std::unique(uses.begin(), uses.end()), uses.end());
            for (int t : uses)
                if (const int b = workspace.buffer[size_t(t)]; b >= 0)
                    buffer_users[size_t(b)].insert(buffer_users[size_t(b)].end(), op_blocks[i].begin(),
                                                   op_blocks[i].end());
        }
        if (ctx.pinned) {
            std::vector<int> uses = op.inputs;
            uses.push_back(op.output);
            for (int t : uses)
                if (plan.on_chip(t))
                    touched[size_t(t)].insert(touched[size_t(t)].end(), op_blocks[i].begin(), op_blocks[i].end());
        }
        if (options.explain) {
            explained.blocks = int64_t(ctx.blocks_emitted() - first);
            explained.buffering = ctx.buffering_used;
            options.explain->ops.push_back(std::move(explained));
        }
        ctx.explaining = nullptr;
        // An operation without commands (a view) stands for what it waited on.
        if (first == ctx.blocks_emitted()) {
            op_blocks[i] = ctx.deps;
            op_blocks[i].insert(op_blocks[i].end(), ctx.data_deps.begin(), ctx.data_deps.end());
        }
    }
    note_ub_tensors(g, plan, program.notes);
    // An input updated in place is also an output, in the input's bytes.
    for (const TensorNode& t : g.tensors) {
        if (t.role != TensorRole::Output || t.producer < 0 || g.ops[size_t(t.producer)].kind != OpKind::Update)
            continue;
        const TensorNode& storage = g.tensors[size_t(ddr_view(g, int(&t - g.tensors.data())).storage)];
        if (storage.role != TensorRole::Input) continue;
        program.notes.push_back("input '" + storage.name + "' is updated in place (last at " +
                                std::to_string(t.loc.line) + ":" + std::to_string(t.loc.col) + "): output '" + t.name +
                                "' is its new contents, written back into the input's bytes");
    }
    return program;
}

}  // namespace

arch::Program lower(const PassedGraph& passed, const arch::Config& config, const std::string& source,
                    const LowerOptions& options) {
    const TaskGraph& g = passed.graph();
    std::vector<bool> in_ddr(g.tensors.size(), false), in_ub(g.tensors.size(), false);
    std::vector<std::string> notes;
    keep_vector_operands(g, config, in_ddr, in_ub, notes);
    // A program with on-chip tensors may be lowered again (below), so its
    // blocks go to the sink only once it is complete. Meanwhile they are
    // kept encoded (arch::encode_block, about 26 bytes a command, not the
    // 368 of a Command), and the Blocks' storage is reused as for any sink.
    bool on_chip = false;
    for (const TensorNode& t : g.tensors) on_chip = on_chip || t.placement != Placement::DDR;
    LowerOptions held = options;
    std::string encoded;
    std::vector<size_t> ends;  // block b is encoded[ends[b - 1], ends[b])
    if (on_chip && options.block_sink)
        held.block_sink = [&encoded, &ends](const arch::Program&, size_t, const arch::Block& block) {
            arch::encode_block(block, encoded);
            ends.push_back(encoded.size());
        };
    // 0: results whole; else in bands of a multiple of this many rows
    // (from 16, the cube's fractal rows, doubled while blocks cross bands).
    int64_t band_granule = 0;
    for (;;) {
        encoded.clear();
        ends.clear();
        try {
            arch::Program p = lower_once(g, config, source, held, in_ddr, in_ub, band_granule);
            p.notes.insert(p.notes.begin(), notes.begin(), notes.end());
            if (on_chip && options.block_sink) {
                arch::Block block;
                for (size_t b = 0, begin = 0; b < ends.size(); begin = ends[b++]) {
                    arch::decode_block_into(encoded.data() + begin, ends[b] - begin, block);
                    options.block_sink(p, b, block);
                }
            }
            return p;
        } catch (const PlacementMismatch& m) {
            // Kept in DDR instead, said in a note; each retry moves one more
            // tensor to DDR, so this ends.
            const TensorNode& t = g.tensors[size_t(m.tensor)];
            // Short of L1 with whole results: first try them in bands of
            // rows, one per cluster (dsl/lower/buffer_plan.h).
            if (m.capacity && !band_granule) {
                band_granule = 16;
                notes.push_back("on-chip results kept in bands of rows, one band per cluster: whole, tensor '" +
                                t.name + "' did not fit (" + m.why + ")");
                continue;
            }
            // An operation's blocks cross bands: larger bands, up to the
            // tensor's rows, before giving the tensor up.
            if (m.band_crossed && band_granule > 0 && band_granule < tensor_rows(t)) {
                band_granule *= 2;
                continue;
            }
            if (in_ddr[size_t(m.tensor)]) throw std::logic_error("placement mismatch on a tensor in DDR: " + m.why);
            in_ddr[size_t(m.tensor)] = true;
            in_ub[size_t(m.tensor)] = false;
            notes.push_back("tensor '" + t.name + "' (" + placement_name(t.placement) + ") kept in DDR: " + m.why);
        }
    }
}

}  // namespace dsl
