// causal_mask on the streamed vector pipeline. A unit is one row of the
// scores (Sk elements); per chunk of n rows:
//   y = copy(x)                                       (n x Sk, one pass)
//   y[r, i + offset + 1 : Sk] = -inf for each row r   (1 x tail, a fill)
// where i = the row's query position. The fill is a Copy whose source is
// the immediate -inf (arch::VectorSource::Scalar), the vector unit's
// broadcast of a scalar (Ascend's Duplicate with the row's tail as its
// count): it writes only the masked tail and reads nothing from L1, so the
// mask costs no DDR bytes and no L1 table. A select against a generated
// mask would need a second Sq x Sk operand (the mask, loaded or built per
// block) and a three-operand instruction the ISA does not have, for the
// same pass over the row. Rows with nothing masked (j > i + offset for no
// j < Sk) get no fill.
#include "dsl/lower/vector/lower_vector.h"
#include "dsl/lower/vector/lower_vector_inputs.h"
#include "dsl/lower/vector/lower_vector_stream.h"

#include <algorithm>
#include <limits>

namespace dsl {

void lower_causal_mask(LowerContext& ctx, const OpNode& op) {
    using arch::VectorOp;
    const TensorNode& y = ctx.tensor(op.output);
    const int64_t sk = y.shape.back(), sq = y.shape[y.shape.size() - 2], ec = arch::dtype_bytes(y.dtype);
    // Beyond these bounds every row is wholly masked or wholly kept (and
    // i + offset + 1 cannot overflow).
    const int64_t offset = std::clamp<int64_t>(op.attrs.at("offset").i, -sq - 1, sk);
    const int out = op.output;
    VectorStream s;
    s.name = y.name;
    s.units = element_count(y.shape) / sk;
    VectorInputs in(ctx, y.dtype, y.name);
    const int xs = in.streamed(s, op.inputs[0], sk);
    const size_t yb = s.buffers.size();
    s.buffers.push_back({BufferKind::Streamed, sk * ec, 0});
    s.prologue = in.prologue_fn();
    s.chunk = [&ctx, in, xs, yb, sk, sq, offset, out](int64_t first, int64_t n, const BufferAddrs& a) {
        ChunkCommands cc;
        in.chunk(cc, first, n, a);
        const arch::DType t = in.compute();
        const uint64_t e = uint64_t(arch::dtype_bytes(t)), y_ = a[yb];
        cc.compute.push_back(
            {vector_args(VectorOp::Copy, t, n, sk, in.addr(xs, a), arch::kNoAddress, y_), in.label(VectorOp::Copy)});
        const std::string fill = in.out_name() + ": fill -inf";
        for (int64_t r = 0; r < n; ++r) {
            const int64_t i = (first + r) % sq;
            // The first masked column, clamped to the row (offset may be
            // negative or reach past Sk).
            const int64_t c0 = std::clamp<int64_t>(i + offset + 1, 0, sk);
            if (c0 == sk) continue;
            const uint64_t at = y_ + uint64_t(r * sk + c0) * e;
            cc.compute.push_back({with_sources(vector_args(VectorOp::Copy, t, 1, sk - c0, at, arch::kNoAddress, at),
                                               scalar_source(-std::numeric_limits<double>::infinity())),
                                  fill});
        }
        store_units(cc, ctx, out, sk, first, n, y_);
        return cc;
    };
    lower_vector_stream(ctx, op, s);
}

}  // namespace dsl
