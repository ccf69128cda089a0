// Operations that work along rows on the streamed vector pipeline:
// reductions (reduce_sum/mean/max, global_avg_pool), softmax and
// layer_norm. A unit is one row: the values that reduce or normalise
// together.
//
// The vector unit reduces contiguous rows (§8). Reducing an axis that has
// data after it, (outer, R, inner) -> (outer, inner), first transposes each
// unit's R x inner matrix in L1 (one VECTOR transpose per unit), so the
// reduction again runs over contiguous rows of R; softmax over such an axis
// transposes back afterwards.
#include <algorithm>
#include <stdexcept>

#include "dsl/ir/fusion_groups.h"
#include "dsl/lower/placement_mismatch.h"
#include "dsl/lower/vector/lower_vector.h"
#include "dsl/lower/vector/lower_vector_inputs.h"
#include "dsl/lower/vector/lower_vector_passes.h"
#include "dsl/lower/vector/lower_vector_stream.h"
#include "dsl/support/diagnostics.h"
#include "sim/arch/ceil_div.h"

namespace dsl {

namespace {

using arch::VectorOp;
constexpr uint64_t kNone = arch::kNoAddress;

// (outer, mid, inner) around the axes [first, last] of `shape`.
struct AxisView {
    int64_t outer = 1, mid = 1, inner = 1;
};
AxisView view_around(const std::vector<int64_t>& shape, size_t first, size_t last) {
    AxisView v;
    for (size_t k = 0; k < shape.size(); ++k) (k < first ? v.outer : k <= last ? v.mid : v.inner) *= shape[k];
    return v;
}

// Transposes each unit's `rows x cols` matrix from `src` to `dst`.
void transpose_units(ChunkCommands& cc, const VectorInputs& in, int64_t n, int64_t rows, int64_t cols, uint64_t src,
                     uint64_t dst) {
    const uint64_t bytes = uint64_t(rows * cols * arch::dtype_bytes(in.compute()));
    for (int64_t u = 0; u < n; ++u)
        cc.compute.push_back({vector_args(VectorOp::Transpose, in.compute(), rows, cols, src + uint64_t(u) * bytes,
                                          kNone, dst + uint64_t(u) * bytes),
                              in.label(VectorOp::Transpose)});
}

// When one outer index's R x inner values do not fit L1, a unit is a block
// of `cols` of the inner columns: an R-row 2-D DMA (stride: a full row of
// inner), cast if needed, transposed to cols x R, so the R values of each
// column are a contiguous row. `tail(per)` gives the buffers after the
// first three (x, x cast, transposed), for `per` columns.
struct ColumnBlocks {
    AxisView v;
    int64_t cols = 1, blocks = 1, ex = 2, ec = 2;
    bool cast = false;
    arch::DType xt = arch::DType::Float16, t = arch::DType::Float16;
    uint64_t x_ddr = 0, y_ddr = 0;
    std::string xname, yname;

    struct Unit {
        int64_t o = 0, c0 = 0, nc = 0;  // outer index, first column, columns
    };
    // Unit u's load, cast and transpose into a[2].
    Unit load_transposed(ChunkCommands& cc, int64_t u, const BufferAddrs& a) const {
        Unit at{u / blocks, u % blocks * cols, 0};
        at.nc = std::min(cols, v.inner - at.c0);
        arch::DmaArgs d = load_dma(x_ddr + uint64_t((at.o * v.mid * v.inner + at.c0) * ex), a[0], uint64_t(at.nc * ex));
        d.rows = uint32_t(v.mid), d.src_stride = uint64_t(v.inner * ex);
        cc.loads.push_back({d, xname + " columns -> L1"});
        uint64_t src = a[0];
        if (cast) {
            cc.compute.push_back({cast_args(xt, t, v.mid, at.nc, a[0], a[1]), label() + "cast " + xname});
            src = a[1];
        }
        cc.compute.push_back(
            {vector_args(VectorOp::Transpose, t, v.mid, at.nc, src, kNone, a[2]), label() + "transpose"});
        return at;
    }
    std::string label() const { return yname + ": "; }
};

// The stream `s` of column blocks; false (s untouched) when not even one
// column fits, or for an on-chip input or output. At least one column: if
// that does not fit, the stream reports the capacity.
template <class Tail>
bool column_blocks(LowerContext& ctx, const OpNode& op, AxisView v, Tail tail, VectorStream& s, ColumnBlocks& c) {
    if (ctx.in_place(op.inputs[0]) || ctx.in_place(op.output)) return false;
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    c.v = v, c.ex = arch::dtype_bytes(x.dtype), c.ec = arch::dtype_bytes(y.dtype), c.cast = x.dtype != y.dtype;
    auto buffers = [&](int64_t per) {                                                         // per column of the block
        std::vector<BufferSpec> b{{BufferKind::Streamed, v.mid * c.ex * per, 0},              // 0: x
                                  {BufferKind::Scratch, c.cast ? v.mid * c.ec * per : 0, 0},  // 1: x cast
                                  {BufferKind::Scratch, v.mid * c.ec * per, 0}};              // 2: transposed
        for (const BufferSpec& t : tail(per)) b.push_back(t);
        return b;
    };
    if (max_chunk_units(ctx, buffers(1)) == 0) return false;
    c.cols = unit_extent(ctx, v.inner, v.outer, max_chunk_units(ctx, buffers(1)));
    c.blocks = arch::ceil_div(v.inner, c.cols);
    c.xt = x.dtype, c.t = y.dtype;
    c.x_ddr = ctx.ddr_addr(op.inputs[0]), c.y_ddr = ctx.ddr_addr(op.output);
    c.xname = x.name, c.yname = y.name;
    s.name = y.name;
    s.buffers = buffers(c.cols);
    s.units = v.outer * c.blocks;
    s.max_chunk_units = 1;
    return true;
}

// A reduction over column blocks: the transposed rows reduced, scaled by
// 1 / R for a mean, stored as nc outputs.
bool lower_reduction_columns(LowerContext& ctx, const OpNode& op, AxisView v, VectorOp red, bool mean) {
    const int64_t ec = arch::dtype_bytes(ctx.tensor(op.output).dtype);
    auto tail = [&](int64_t per) {
        return std::vector<BufferSpec>{{BufferKind::Resident, mean ? ec * per : 0, 0},  // 3: 1 / R
                                       {BufferKind::Streamed, ec * per, 0}};            // 4: y
    };
    VectorStream s;
    ColumnBlocks c;
    if (!column_blocks(ctx, op, v, tail, s, c)) return false;
    s.chunk = [c, red, mean](int64_t u, int64_t, const BufferAddrs& a) {
        ChunkCommands cc;
        const ColumnBlocks::Unit at = c.load_transposed(cc, u, a);
        cc.compute.push_back(
            {vector_args(red, c.t, at.nc, c.v.mid, a[2], kNone, a[4]), c.label() + arch::vector_op_name(red)});
        if (mean)
            cc.compute.push_back({with_sources(vector_args(VectorOp::Mul, c.t, at.nc, 1, a[4], a[3], a[4]), {},
                                               scalar_source(1.0 / double(c.v.mid))),
                                  c.label() + "mul"});
        cc.stores.push_back(
            {store_dma(a[4], c.y_ddr + uint64_t((at.o * c.v.inner + at.c0) * c.ec), uint64_t(at.nc * c.ec)),
             c.yname + " -> DDR"});
        return cc;
    };
    lower_vector_stream(ctx, op, s);
    return true;
}

// softmax over the middle axis of (outer, R, inner) in column blocks: the
// five softmax commands on the transposed rows, transposed back and stored
// with an R-row 2-D DMA.
bool lower_softmax_columns(LowerContext& ctx, const OpNode& op, AxisView v) {
    const int64_t ec = arch::dtype_bytes(ctx.tensor(op.output).dtype);
    auto tail = [&](int64_t per) {
        return std::vector<BufferSpec>{{BufferKind::Scratch, v.mid * ec * per, 0},    // 3: row max, sum
                                       {BufferKind::Streamed, v.mid * ec * per, 0}};  // 4: y
    };
    VectorStream s;
    ColumnBlocks c;
    if (!column_blocks(ctx, op, v, tail, s, c)) return false;
    s.chunk = [c](int64_t u, int64_t, const BufferAddrs& a) {
        ChunkCommands cc;
        const ColumnBlocks::Unit at = c.load_transposed(cc, u, a);
        const int64_t nc = at.nc, mid = c.v.mid;
        auto add = [&](VectorOp op_, uint64_t s0, uint64_t s1, uint64_t dst, arch::VectorSource in1 = {}) {
            cc.compute.push_back({with_sources(vector_args(op_, c.t, nc, mid, s0, s1, dst), {}, in1),
                                  c.label() + arch::vector_op_name(op_)});
        };
        add(VectorOp::ReduceMax, a[2], kNone, a[3]);
        add(VectorOp::Sub, a[2], a[3], a[2], per_row_source(nc, mid));
        add(VectorOp::Exp, a[2], kNone, a[2]);
        add(VectorOp::ReduceSum, a[2], kNone, a[3]);
        add(VectorOp::Div, a[2], a[3], a[2], per_row_source(nc, mid));
        cc.compute.push_back(
            {vector_args(VectorOp::Transpose, c.t, nc, mid, a[2], kNone, a[4]), c.label() + "transpose"});
        arch::DmaArgs st =
            store_dma(a[4], c.y_ddr + uint64_t((at.o * mid * c.v.inner + at.c0) * c.ec), uint64_t(nc * c.ec));
        st.rows = uint32_t(mid), st.dst_stride = uint64_t(c.v.inner * c.ec);
        cc.stores.push_back({st, c.yname + " columns -> DDR"});
        return cc;
    };
    lower_vector_stream(ctx, op, s);
    return true;
}

// The blocks emitted since `first` become what the next stage waits for.
void next_stage(LowerContext& ctx, uint32_t first) {
    ctx.deps.clear();
    for (uint32_t b = first; b < ctx.blocks_emitted(); ++b) ctx.deps.push_back(b);
}

// A row op over the middle axis of (outer, R, inner) when not even one
// column of R values fits L1 with the column form's buffers: the tensor is
// transposed to (outer, inner, R) into a DDR scratch tensor (a block swap),
// the rows of R are reduced in passes from there into `ends.dst`.
void reduce_transposed(LowerContext& ctx, const OpNode& op, AxisView v, VectorOp red, double scale,
                       const RowEnds& ends) {
    const std::vector<uint32_t> outer_deps = ctx.deps;
    const std::string tname = ends.dst_name + " transposed";
    const uint64_t t = ctx.ddr_scratch(tname, {v.outer, v.inner, v.mid}, ends.src_dtype, op.loc);
    const uint32_t first = ctx.blocks_emitted();
    lower_vector_swap(ctx, op, v.outer, v.mid, v.inner, 1, SwapEnds{ends.src, t, ends.src_name, tname, ends.src_dtype});
    next_stage(ctx, first);
    if (!lower_reduction_passes_at(ctx, op, v.outer * v.inner, v.mid, red, scale,
                                   {t, ends.dst, tname, ends.dst_name, ends.src_dtype}))
        throw std::logic_error("reduction pieces of one element do not fit: " + ends.dst_name);
    ctx.deps = outer_deps;
}

// softmax the same way: transposed into scratch, softmax of its rows in
// passes into a second scratch tensor, transposed back into the output.
void softmax_transposed(LowerContext& ctx, const OpNode& op, AxisView v) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    const std::vector<uint32_t> outer_deps = ctx.deps;
    const std::string t1 = y.name + " transposed", t2 = y.name + " rows";
    const uint64_t a1 = ctx.ddr_scratch(t1, {v.outer, v.inner, v.mid}, x.dtype, op.loc);
    const uint64_t a2 = ctx.ddr_scratch(t2, {v.outer, v.inner, v.mid}, y.dtype, op.loc);
    uint32_t first = ctx.blocks_emitted();
    lower_vector_swap(ctx, op, v.outer, v.mid, v.inner, 1,
                      SwapEnds{ctx.ddr_addr(op.inputs[0]), a1, x.name, t1, x.dtype});
    next_stage(ctx, first);
    first = ctx.blocks_emitted();
    if (!lower_softmax_passes_at(ctx, op, v.outer * v.inner, v.mid, {a1, a2, t1, t2, x.dtype}))
        throw std::logic_error("softmax pieces of one element do not fit: " + y.name);
    next_stage(ctx, first);
    lower_vector_swap(ctx, op, v.outer, v.inner, v.mid, 1, SwapEnds{a2, ctx.ddr_addr(op.output), t2, y.name, y.dtype});
    ctx.deps = outer_deps;
}

// (outer, R, inner) -> (outer, inner) by `red`, then * (1 / R) for a mean.
void lower_reduction(LowerContext& ctx, const OpNode& op, AxisView v, VectorOp red, bool mean) {
    const TensorNode& y = ctx.tensor(op.output);
    const int out = op.output;
    VectorStream s;
    s.name = y.name;
    // Over a part of an on-chip input (whole rows of it, dsl/lower/program/
    // lower.cpp): the part's rows.
    const LowerContext::Window w = ctx.window;
    s.units = w.active() ? w.rows : v.outer;
    VectorInputs in(ctx, y.dtype, y.name);
    const int64_t ec = arch::dtype_bytes(y.dtype);
    const int xs = in.streamed(s, op.inputs[0], v.mid * v.inner);
    const size_t tb = s.buffers.size();
    s.buffers.push_back({BufferKind::Scratch, v.inner > 1 ? v.mid * v.inner * ec : 0, 0});
    const int inv_n = mean ? in.constant(s, v.inner, 1.0 / double(v.mid)) : -1;
    // An on-chip result (a row reduction's, dsl/lower/program/lower.cpp) is
    // computed where it is kept: no buffer, no store.
    const bool kept = ctx.in_place(out);
    const size_t yb = s.buffers.size();
    s.buffers.push_back({BufferKind::Streamed, kept ? 0 : v.inner * ec, 0});
    s.chunk = [&ctx, in, xs, tb, inv_n, yb, v, red, out, w, ec, kept](int64_t first, int64_t n, const BufferAddrs& a) {
        ChunkCommands cc;
        in.chunk(cc, first, n, a);
        uint64_t src = in.addr_at(xs, a, first);
        if (v.inner > 1) {
            transpose_units(cc, in, n, v.mid, v.inner, src, a[tb]);
            src = a[tb];
        }
        const arch::DType t = in.compute();
        // The window is the input's rows: its row r gives output row r.
        const uint64_t dst =
            kept ? ctx.place_at(out, uint64_t(((w.active() ? w.r0 : 0) + first) * v.inner * ec)) : a[yb];
        cc.compute.push_back({vector_args(red, t, n * v.inner, v.mid, src, kNone, dst), in.label(red)});
        if (inv_n >= 0)
            cc.compute.push_back(
                {with_sources(vector_args(VectorOp::Mul, t, n * v.inner, 1, dst, in.addr(inv_n, a), dst), {},
                              in.source(inv_n, 0)),
                 in.label(VectorOp::Mul)});
        if (kept) return cc;
        if (w.active())
            cc.stores.push_back({store_dma(a[yb], ctx.ddr_addr(out) + uint64_t((w.r0 + first) * v.inner * ec),
                                           uint64_t(n * v.inner * ec)),
                                 ctx.tensor(out).name + " -> DDR"});
        else store_units(cc, ctx, out, v.inner, first, n, a[yb]);
        return cc;
    };
    if (max_chunk_units(ctx, s.buffers) == 0 && ctx.in_place(op.inputs[0]))
        throw PlacementMismatch{op.inputs[0], std::string(op_kind_name(op.kind)) + " '" + y.name +
                                                  "' reads rows of it too long for L1 beside its own buffers"};
    if (max_chunk_units(ctx, s.buffers) == 0 && kept)
        throw PlacementMismatch{out, std::string(op_kind_name(op.kind)) +
                                         " reduces rows too long for L1 beside its own buffers, in pieces "
                                         "through DDR"};
    if (max_chunk_units(ctx, s.buffers) == 0) {
        if (v.inner > 1) {
            if (lower_reduction_columns(ctx, op, v, red, mean)) return;
            if (!ctx.in_place(op.inputs[0]) && !ctx.in_place(op.output))
                return reduce_transposed(
                    ctx, op, v, red, mean ? 1.0 / double(v.mid) : 1.0,
                    {ctx.ddr_addr(op.inputs[0]), ctx.ddr_addr(op.output), ctx.tensor(op.inputs[0]).name,
                     ctx.tensor(op.output).name, ctx.tensor(op.inputs[0]).dtype});
        }
        // A row longer than L1 holds: in pieces.
        if (lower_reduction_passes(ctx, op, v.outer, v.mid, red, mean)) return;
    }
    lower_vector_stream(ctx, op, s);
}

// The input's axes of size > 1 merged into runs of reduced and of kept
// axes, outermost first.
struct AxisRun {
    int64_t size = 1;
    bool reduced = false;
};
std::vector<AxisRun> axis_runs(const TensorNode& x, const std::vector<int64_t>& axes) {
    std::vector<AxisRun> runs;
    for (size_t k = 0; k < x.shape.size(); ++k) {
        if (x.shape[k] == 1) continue;
        const bool reduced = std::find(axes.begin(), axes.end(), int64_t(k)) != axes.end();
        if (runs.empty() || runs.back().reduced != reduced) runs.push_back({1, reduced});
        runs.back().size *= x.shape[k];
    }
    return runs;
}

// (outer, mid, inner) around the one reduced run.
AxisView reduced_view(const TensorNode& x, const std::vector<AxisRun>& runs) {
    AxisView v;
    bool seen = false;
    for (const AxisRun& r : runs) (r.reduced ? (seen = true, v.mid) : seen ? v.inner : v.outer) *= r.size;
    if (!seen) v.outer = element_count(x.shape), v.mid = 1, v.inner = 1;  // only axes of size 1: a copy
    return v;
}

// The chunk's n units of (R, inner) at `x` with each R values contiguous:
// `x` itself when inner is 1, else each unit transposed into `scratch`
// (one VECTOR transpose per unit); returns where they are.
uint64_t rows_of_the_axis(ChunkCommands& cc, AxisView v, arch::DType t, int64_t n, uint64_t x, uint64_t scratch,
                          const std::string& label) {
    if (v.inner == 1) return x;
    const uint64_t bytes = uint64_t(v.mid * v.inner * arch::dtype_bytes(t));
    for (int64_t u = 0; u < n; ++u)
        cc.compute.push_back({vector_args(VectorOp::Transpose, t, v.mid, v.inner, x + uint64_t(u) * bytes, kNone,
                                          scratch + uint64_t(u) * bytes),
                              label + "transpose"});
    return scratch;
}

// One stage of a reduction over several runs of axes: (outer, R, inner)
// from `src` (of dtype `st`) to `dst` in the output's dtype, by `red`, then
// times `scale` when it is not 1. A unit is one outer index, as in
// lower_reduction (contiguous load, cast, transpose when inner > 1).
void lower_reduction_stage(LowerContext& ctx, const OpNode& op, AxisView v, VectorOp red, double scale, uint64_t src,
                           const std::string& src_name, arch::DType st, uint64_t dst, const std::string& dst_name) {
    const arch::DType t = ctx.tensor(op.output).dtype;
    const int64_t ex = arch::dtype_bytes(st), ec = arch::dtype_bytes(t), unit = v.mid * v.inner;
    const bool cast = st != t;
    VectorStream s;
    s.name = dst_name;
    s.units = v.outer;
    s.buffers = {{BufferKind::Streamed, unit * ex, 0},
                 {BufferKind::Scratch, cast ? unit * ec : 0, 0},
                 {BufferKind::Scratch, v.inner > 1 ? unit * ec : 0, 0},
                 {BufferKind::Streamed, v.inner * ec, 0}};
    s.chunk = [=](int64_t first, int64_t n, const BufferAddrs& a) {
        ChunkCommands cc;
        const std::string label = dst_name + ": ";
        cc.loads.push_back(
            {load_dma(src + uint64_t(first * unit * ex), a[0], uint64_t(n * unit * ex)), src_name + " -> L1"});
        uint64_t x = a[0];
        if (cast) {
            cc.compute.push_back({cast_args(st, t, n, unit, a[0], a[1]), label + "cast"});
            x = a[1];
        }
        x = rows_of_the_axis(cc, v, t, n, x, a[2], label);
        cc.compute.push_back(
            {vector_args(red, t, n * v.inner, v.mid, x, kNone, a[3]), label + arch::vector_op_name(red)});
        if (scale != 1.0)
            cc.compute.push_back({with_sources(vector_args(VectorOp::Mul, t, n * v.inner, 1, a[3], a[3], a[3]), {},
                                               scalar_source(scale)),
                                  label + "mul"});
        cc.stores.push_back(
            {store_dma(a[3], dst + uint64_t(first * v.inner * ec), uint64_t(n * v.inner * ec)), dst_name + " -> DDR"});
        return cc;
    };
    if (v.inner > 1 && max_chunk_units(ctx, s.buffers) == 0)
        return reduce_transposed(ctx, op, v, red, scale, {src, dst, src_name, dst_name, st});
    // A row longer than L1 holds: in pieces.
    if (v.inner == 1 && max_chunk_units(ctx, s.buffers) == 0 &&
        lower_reduction_passes_at(ctx, op, v.outer, v.mid, red, scale, {src, dst, src_name, dst_name, st}))
        return;
    lower_vector_stream(ctx, op, s);
}

// A reduction over runs of axes that are not adjacent: one stage per
// reduced run, innermost first, each reading what the previous wrote (a
// DDR scratch tensor) and removing its run; a mean scales by 1 / (all the
// reduced elements) in the last stage only.
void lower_reduction_runs(LowerContext& ctx, const OpNode& op, std::vector<AxisRun> runs, VectorOp red, bool mean) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    int64_t reduced = 1;
    for (const AxisRun& r : runs) reduced *= r.reduced ? r.size : 1;
    const std::vector<uint32_t> outer_deps = ctx.deps;
    uint64_t src = ctx.ddr_addr(op.inputs[0]);
    std::string src_name = x.name;
    arch::DType st = x.dtype;
    for (int stage = 1;; ++stage) {
        size_t last = runs.size();
        while (!runs[--last].reduced) {}
        AxisView v;
        for (size_t k = 0; k < runs.size(); ++k) (k < last ? v.outer : k == last ? v.mid : v.inner) *= runs[k].size;
        runs.erase(runs.begin() + int64_t(last));
        const bool final = std::none_of(runs.begin(), runs.end(), [](const AxisRun& r) { return r.reduced; });
        const std::string dst_name = final ? y.name : y.name + " stage " + std::to_string(stage);
        const uint64_t dst =
            final ? ctx.ddr_addr(op.output) : ctx.ddr_scratch(dst_name, {v.outer * v.inner}, y.dtype, op.loc);
        const uint32_t first = ctx.blocks_emitted();
        lower_reduction_stage(ctx, op, v, red, final && mean ? 1.0 / double(reduced) : 1.0, src, src_name, st, dst,
                              dst_name);
        if (final) break;
        // The next stage reads what this one wrote.
        ctx.deps.clear();
        for (uint32_t b = first; b < ctx.blocks_emitted(); ++b) ctx.deps.push_back(b);
        src = dst, src_name = dst_name, st = y.dtype;
    }
    ctx.deps = outer_deps;
}

}  // namespace

void lower_reduce(LowerContext& ctx, const OpNode& op) {
    if (heads_row_group(op) && lower_row_group(ctx, op)) return;
    if (lower_slide_reduce(ctx, op)) return;
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const std::vector<AxisRun> runs = axis_runs(x, op.attrs.at("axis").ints);
    const VectorOp red = op.kind == OpKind::ReduceMax ? VectorOp::ReduceMax : VectorOp::ReduceSum;
    const bool mean = op.kind == OpKind::ReduceMean;
    if (std::count_if(runs.begin(), runs.end(), [](const AxisRun& r) { return r.reduced; }) > 1) {
        // The stages read and write DDR; reductions are DdrOnly in
        // dsl/ir/op_table.def, so on-chip operands were refused before.
        for (int t : {op.inputs[0], op.output})
            if (ctx.plan.in_ub(t))
                throw PlacementMismatch{t, std::string(op_kind_name(op.kind)) + " '" + ctx.tensor(op.output).name +
                                               "' reduces separated axes, in stages through DDR"};
        if (ctx.on_chip(op.inputs[0]) || ctx.on_chip(op.output))
            throw std::logic_error("a reduction over separated axes of an on-chip tensor");
        return lower_reduction_runs(ctx, op, runs, red, mean);
    }
    lower_reduction(ctx, op, reduced_view(x, runs), red, mean);
}

// argmax along one axis, (outer, R, inner) -> (outer, inner) int32 indices:
// per chunk of n outer indices, a load, a transpose of each unit's R x
// inner matrix when inner > 1 (as a reduction's, so R is contiguous), one
// VECTOR argmax over the n x inner rows of R in the input's own dtype (no
// cast: comparing values needs no wider type) and a store of the indices.
// A row of R values that does not fit L1 with its chunk's buffers is
// refused: argmax cannot be combined from pieces the way a maximum can
// without a second, index-carrying pass.
void lower_argmax(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const size_t axis = size_t(op.attrs.at("axis").i);
    const AxisView v = view_around(x.shape, axis, axis);
    const arch::DType t = x.dtype;
    const int64_t ex = arch::dtype_bytes(t), unit = v.mid * v.inner;
    const uint64_t src = ctx.ddr_addr(op.inputs[0]), dst = ctx.ddr_addr(op.output);
    const std::string src_name = x.name, dst_name = ctx.tensor(op.output).name;
    VectorStream s;
    s.name = dst_name;
    s.units = v.outer;
    s.buffers = {{BufferKind::Streamed, unit * ex, 0},
                 {BufferKind::Scratch, v.inner > 1 ? unit * ex : 0, 0},
                 {BufferKind::Streamed, v.inner * 4, 0}};
    s.chunk = [=](int64_t first, int64_t n, const BufferAddrs& a) {
        ChunkCommands cc;
        const std::string label = dst_name + ": ";
        cc.loads.push_back(
            {load_dma(src + uint64_t(first * unit * ex), a[0], uint64_t(n * unit * ex)), src_name + " -> L1"});
        const uint64_t in = rows_of_the_axis(cc, v, t, n, a[0], a[1], label);
        cc.compute.push_back({vector_args(VectorOp::Argmax, t, n * v.inner, v.mid, in, kNone, a[2]), label + "argmax"});
        cc.stores.push_back(
            {store_dma(a[2], dst + uint64_t(first * v.inner * 4), uint64_t(n * v.inner * 4)), dst_name + " -> DDR"});
        return cc;
    };
    lower_vector_stream(ctx, op, s);
}

// The mean over H and W: (N, C, H*W) for NCHW, (N, H*W, C) for NHWC.
void lower_global_avg_pool(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const bool nhwc = ctx.tensor(op.output).layout == "NHWC";
    const AxisView v = nhwc ? view_around(x.shape, 1, 2) : view_around(x.shape, 2, 3);
    lower_reduction(ctx, op, v, VectorOp::ReduceSum, true);
}

// softmax(x) = exp(x - max) / sum(exp(x - max)) along the axis, as five
// commands per chunk: reduce_max, sub (the row's max, broadcast), exp,
// reduce_sum, div (the row's sum, broadcast). Subtracting the max keeps exp
// in range, as every practical softmax does.
void lower_softmax(LowerContext& ctx, const OpNode& op) {
    const TensorNode& y = ctx.tensor(op.output);
    const size_t axis = size_t(op.attrs.at("axis").i);
    const AxisView v = view_around(y.shape, axis, axis);
    const int out = op.output;
    const int64_t ec = arch::dtype_bytes(y.dtype), row = v.mid * v.inner;
    VectorStream s;
    s.name = y.name;
    s.units = v.outer;
    VectorInputs in(ctx, y.dtype, y.name);
    const int xs = in.streamed(s, op.inputs[0], row);
    const size_t tb = s.buffers.size();  // the transposed unit (only when the axis has data after it)
    s.buffers.push_back({BufferKind::Scratch, v.inner > 1 ? row * ec : 0, 0});
    const size_t stat = s.buffers.size();  // one value per row, read broadcast over the row
    s.buffers.push_back({BufferKind::Scratch, row * ec, 0});
    const size_t yb = s.buffers.size();
    s.buffers.push_back({BufferKind::Streamed, row * ec, 0});
    s.chunk = [&ctx, in, xs, tb, stat, yb, v, row, out](int64_t first, int64_t n, const BufferAddrs& a) {
        ChunkCommands cc;
        in.chunk(cc, first, n, a);
        const arch::DType t = in.compute();
        uint64_t src = in.addr(xs, a), work = a[yb];
        if (v.inner > 1) {
            transpose_units(cc, in, n, v.mid, v.inner, src, a[tb]);
            src = work = a[tb];
        }
        const int64_t rows = n * v.inner, cols = v.mid;
        auto add = [&](VectorOp o, uint64_t s0, uint64_t s1, uint64_t d, arch::VectorSource in1 = {}) {
            cc.compute.push_back({with_sources(vector_args(o, t, rows, cols, s0, s1, d), {}, in1), in.label(o)});
        };
        // The row's max and sum are one value per row, read broadcast.
        add(VectorOp::ReduceMax, src, kNone, a[stat]);
        add(VectorOp::Sub, src, a[stat], work, per_row_source(rows, cols));
        add(VectorOp::Exp, work, kNone, work);
        add(VectorOp::ReduceSum, work, kNone, a[stat]);
        add(VectorOp::Div, work, a[stat], work, per_row_source(rows, cols));
        if (v.inner > 1) transpose_units(cc, in, n, v.inner, v.mid, work, a[yb]);
        store_units(cc, ctx, out, row, first, n, a[yb]);
        return cc;
    };
    if (max_chunk_units(ctx, s.buffers) == 0) {
        if (v.inner > 1 && lower_softmax_columns(ctx, op, v)) return;
        if (v.inner > 1 && !ctx.in_place(op.inputs[0]) && !ctx.in_place(op.output))
            return softmax_transposed(ctx, op, v);
        if (v.inner == 1 && lower_softmax_passes(ctx, op, v.outer, v.mid)) return;
    }
    lower_vector_stream(ctx, op, s);
}

// layer_norm over the last D elements of each row, eleven commands per
// chunk (n rows):
//   reduce_sum(x) -> mean; mean * (1/D)          (n x 1)
//   x - mean -> d                                 (broadcast per row)
//   d * d -> q; reduce_sum(q) -> var; var * (1/D); var + eps; sqrt(var)
//   d / sqrt(var) -> y; y * scale; y + shift      (scale, shift: D values, resident)
// q borrows the output slot, which the division then overwrites.
void lower_layer_norm(LowerContext& ctx, const OpNode& op) {
    const TensorNode& y = ctx.tensor(op.output);
    const size_t axis = size_t(op.attrs.at("axis").i);
    const AxisView v = view_around(y.shape, axis, y.shape.size() - 1);
    const int64_t D = v.mid, ec = arch::dtype_bytes(y.dtype);
    const int out = op.output;
    VectorStream s;
    s.name = y.name;
    s.units = v.outer;
    VectorInputs in(ctx, y.dtype, y.name);
    const int xs = in.streamed(s, op.inputs[0], D);
    // scale and shift: one value per column of every row.
    const int scale = in.resident(s, op.inputs[1], D, {uint32_t(v.outer), uint32_t(D)}, {0, 1});
    const int shift = in.resident(s, op.inputs[2], D, {uint32_t(v.outer), uint32_t(D)}, {0, 1});
    const int inv_d = in.constant(s, 1, 1.0 / double(D)), eps = in.constant(s, 1, op.attrs.at("eps").f);
    const size_t db = s.buffers.size();
    s.buffers.push_back({BufferKind::Scratch, D * ec, 0});
    const size_t mean = s.buffers.size(), var = mean + 1;  // one value per row, read broadcast
    s.buffers.push_back({BufferKind::Scratch, D * ec, 0});
    s.buffers.push_back({BufferKind::Scratch, D * ec, 0});
    const size_t yb = s.buffers.size();
    s.buffers.push_back({BufferKind::Streamed, D * ec, 0});
    s.prologue = in.prologue_fn();
    s.chunk = [&ctx, in, xs, scale, shift, inv_d, eps, db, mean, var, yb, D, out](int64_t first, int64_t n,
                                                                                  const BufferAddrs& a) {
        ChunkCommands cc;
        in.chunk(cc, first, n, a);
        const arch::DType t = in.compute();
        auto add = [&](VectorOp o, int64_t cols, uint64_t s0, uint64_t s1, uint64_t d, arch::VectorSource in1 = {}) {
            cc.compute.push_back({with_sources(vector_args(o, t, n, cols, s0, s1, d), {}, in1), in.label(o)});
        };
        const uint64_t x = in.addr(xs, a), y_ = a[yb];
        const int64_t at = first * D;  // the chunk's first element, for the resident views
        add(VectorOp::ReduceSum, D, x, kNone, a[mean]);
        add(VectorOp::Mul, 1, a[mean], in.addr(inv_d, a), a[mean], in.source(inv_d, 0));
        add(VectorOp::Sub, D, x, a[mean], a[db], per_row_source(n, D));
        add(VectorOp::Mul, D, a[db], a[db], y_);
        add(VectorOp::ReduceSum, D, y_, kNone, a[var]);
        add(VectorOp::Mul, 1, a[var], in.addr(inv_d, a), a[var], in.source(inv_d, 0));
        add(VectorOp::Add, 1, a[var], in.addr(eps, a), a[var], in.source(eps, 0));
        add(VectorOp::Sqrt, 1, a[var], kNone, a[var]);
        add(VectorOp::Div, D, a[db], a[var], y_, per_row_source(n, D));
        add(VectorOp::Mul, D, y_, in.addr(scale, a), y_, in.source(scale, at));
        add(VectorOp::Add, D, y_, in.addr(shift, a), y_, in.source(shift, at));
        store_units(cc, ctx, out, D, first, n, y_);
        return cc;
    };
    if (max_chunk_units(ctx, s.buffers) == 0 && lower_layer_norm_passes(ctx, op, v.outer, D)) return;
    lower_vector_stream(ctx, op, s);
}

}  // namespace dsl
