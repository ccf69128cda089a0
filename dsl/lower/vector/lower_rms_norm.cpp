// rms_norm over the last D elements of each row on the streamed vector
// pipeline: layer_norm's lowering (lower_vector_rows.cpp) without the mean,
// seven commands per chunk of n rows:
//   x * x -> q; reduce_sum(q) -> ms; ms * (1/D); ms + eps; sqrt(ms)   (n x 1)
//   x / sqrt(ms) -> y   (broadcast per row); y * weight   (D values, resident)
// q borrows the output slot, which the division then overwrites. The
// vector unit has no reciprocal square root: sqrt and a divide, as
// layer_norm does.
#include "dsl/lower/vector/lower_vector.h"
#include "dsl/lower/vector/lower_vector_inputs.h"
#include "dsl/lower/vector/lower_vector_stream.h"

namespace dsl {

void lower_rms_norm(LowerContext& ctx, const OpNode& op) {
    using arch::VectorOp;
    const TensorNode& y = ctx.tensor(op.output);
    const int64_t D = y.shape.back(), ec = arch::dtype_bytes(y.dtype), rows = element_count(y.shape) / D;
    const int out = op.output;
    VectorStream s;
    s.name = y.name;
    s.units = rows;
    VectorInputs in(ctx, y.dtype, y.name);
    const int xs = in.streamed(s, op.inputs[0], D);
    // weight: one value per column of every row.
    const int weight = in.resident(s, op.inputs[1], D, {uint32_t(rows), uint32_t(D)}, {0, 1});
    const int inv_d = in.constant(s, 1, 1.0 / double(D)), eps = in.constant(s, 1, op.attrs.at("eps").f);
    const size_t ms = s.buffers.size();  // one value per row, read broadcast
    s.buffers.push_back({BufferKind::Scratch, D * ec, 0});
    const size_t yb = s.buffers.size();
    s.buffers.push_back({BufferKind::Streamed, D * ec, 0});
    s.prologue = in.prologue_fn();
    s.chunk = [&ctx, in, xs, weight, inv_d, eps, ms, yb, D, out](int64_t first, int64_t n, const BufferAddrs& a) {
        ChunkCommands cc;
        in.chunk(cc, first, n, a);
        const arch::DType t = in.compute();
        auto add = [&](VectorOp o, int64_t cols, uint64_t s0, uint64_t s1, uint64_t d, arch::VectorSource in1 = {}) {
            cc.compute.push_back({with_sources(vector_args(o, t, n, cols, s0, s1, d), {}, in1), in.label(o)});
        };
        const uint64_t x = in.addr(xs, a), y_ = a[yb];
        add(VectorOp::Mul, D, x, x, y_);
        add(VectorOp::ReduceSum, D, y_, arch::kNoAddress, a[ms]);
        add(VectorOp::Mul, 1, a[ms], in.addr(inv_d, a), a[ms], in.source(inv_d, 0));
        add(VectorOp::Add, 1, a[ms], in.addr(eps, a), a[ms], in.source(eps, 0));
        add(VectorOp::Sqrt, 1, a[ms], arch::kNoAddress, a[ms]);
        add(VectorOp::Div, D, x, a[ms], y_, per_row_source(n, D));
        add(VectorOp::Mul, D, y_, in.addr(weight, a), y_, in.source(weight, first * D));
        store_units(cc, ctx, out, D, first, n, y_);
        return cc;
    };
    lower_vector_stream(ctx, op, s);
}

}  // namespace dsl
