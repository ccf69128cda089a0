// `t[...] = v` (OpKind::Update): v's bytes into the slice of t's bytes,
// staged through L1 as every DDR-to-DDR copy is (a DDR -> L1 load of v,
// an L1 -> DDR store into the slice, dsl/lower/movement/lower_data_movement.h).
// The slice is written as rows: its innermost run of elements when that
// axis is contiguous (else one element), `rows` of them a fixed stride
// apart, repeated over the outer axes; so `cache[:, :, pos:pos + 1] = k`
// of a (32, 128, T) cache is one store of 4,096 rows of one element, T
// elements apart. Nothing else of t moves: the update's result is t's next
// version in the same bytes (dsl/lower/lower_views.h).
#include "dsl/ir/strided_view.h"
#include "dsl/lower/lower_views.h"
#include "dsl/lower/movement/lower_data_movement.h"

namespace dsl {

void lower_update_op(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& v = ctx.tensor(op.inputs[1]);
    const SliceSpec spec = slice_spec(op);
    const StridedLayout dst = collapsed(slice_layout(row_major_layout(x.shape), spec));
    const int64_t e = arch::dtype_bytes(x.dtype), max_bytes = staged_piece_bytes(ctx.config);
    std::vector<int64_t> shape = dst.shape, strides = dst.strides;
    if (shape.empty()) shape = {1}, strides = {1};
    int64_t run = 1;
    if (strides.back() == 1) {
        run = shape.back();
        shape.pop_back(), strides.pop_back();
    }
    int64_t rows = 1, row_stride = run;
    if (!shape.empty()) {
        rows = shape.back(), row_stride = strides.back();
        shape.pop_back(), strides.pop_back();
    }
    int64_t outer = 1;
    for (int64_t n : shape) outer *= n;
    const std::string storage = ctx.tensor(ddr_view(ctx.graph, op.inputs[0]).storage).name;
    const std::string where = storage + slice_text(spec, x.shape);
    const uint64_t src = ctx.ddr_addr(op.inputs[1]), base = ctx.ddr_addr(op.output);
    std::vector<CopyPiece> pieces;
    for (int64_t o = 0; o < outer; ++o) {
        int64_t at = dst.offset;
        for (int64_t rest = o, k = int64_t(shape.size()) - 1; k >= 0; --k) {
            at += (rest % shape[size_t(k)]) * strides[size_t(k)];
            rest /= shape[size_t(k)];
        }
        add_copy_pieces(pieces, src + uint64_t(o * rows * run * e), uint64_t(run * e), base + uint64_t(at * e),
                        uint64_t(row_stride * e), rows, run * e, max_bytes, v.name + " -> L1",
                        where + " -> DDR (in place)");
    }
    lower_staged_copies(ctx, where, pieces);
}

}  // namespace dsl
