// transpose(x, perm) on the vector unit, for perms that swap two adjacent
// axes (the matrix transpose of the last two, batched, and moving heads
// past the sequence, (S, H, D) -> (H, S, D)). The tensor is viewed as
// (B, A, C, D) -> (B, C, A, D):
//  * D = 1: a batched matrix transpose. A unit is a T x T tile (the largest
//    power of two that fits L1 double-buffered both ways); dma0 loads it
//    (a 2-D DMA: T rows of T elements), the vector unit transposes it, and
//    the store writes its T rows into the output's columns.
//  * D > 1: rows of D elements change places. A unit is a band of a-values
//    within one b: loaded contiguously, rearranged in L1 by a VECTOR copy,
//    stored as C runs of (band x D) elements, one per output row block.
// The layout pass's format_convert (NHWC -> NCHW) is the D = 1 case with
// B = N, A = H * W, C = channels.
#include <algorithm>

#include "dsl/lower/vector/lower_vector.h"
#include "dsl/lower/vector/lower_vector_inputs.h"
#include "dsl/lower/vector/lower_vector_stream.h"
#include "dsl/support/diagnostics.h"
#include "sim/arch/ceil_div.h"

namespace dsl {

using arch::VectorOp;

namespace {

// (B, A, C, D) -> (B, C, A, D) of op's input into its output.
void lower_vector_swap(LowerContext& ctx, const OpNode& op, int64_t B, int64_t A, int64_t C, int64_t D);

}  // namespace

void lower_vector_transpose(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const std::vector<int64_t>& perm = op.attrs.at("perm").ints;
    size_t swap = 0;
    while (swap < perm.size() && perm[swap] == int64_t(swap)) ++swap;
    int64_t B = 1, A = 1, C = 1, D = 1;
    if (swap == perm.size()) {  // the identity: a copy of rows of the last axis
        A = element_count(x.shape) / x.shape.back();
        D = x.shape.back();
    } else {
        bool adjacent = swap + 1 < perm.size() && perm[swap] == int64_t(swap + 1) && perm[swap + 1] == int64_t(swap);
        for (size_t k = swap + 2; adjacent && k < perm.size(); ++k) adjacent = perm[k] == int64_t(k);
        if (!adjacent)
            throw CompileError(op.loc, "transpose(perm=" + attr_text(op.attrs.at("perm")) +
                                           ") is not lowered yet: the vector unit swaps two adjacent axes");
        for (size_t k = 0; k < x.shape.size(); ++k)
            (k < swap ? B : k == swap ? A : k == swap + 1 ? C : D) *= x.shape[k];
    }
    lower_vector_swap(ctx, op, B, A, C, D);
}

// NHWC (N, H, W, C) -> NCHW: per image, the (H*W) x C matrix transposed.
void lower_format_convert(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    if (op.attrs.at("from").as<ImageLayout>() != ImageLayout::NHWC ||
        op.attrs.at("to").as<ImageLayout>() != ImageLayout::NCHW || x.shape.size() != 4)
        throw std::logic_error("format_convert: only NHWC -> NCHW of an image is inserted");
    lower_vector_swap(ctx, op, x.shape[0], x.shape[1] * x.shape[2], x.shape[3], 1);
}

namespace {

void lower_vector_swap(LowerContext& ctx, const OpNode& op, int64_t B, int64_t A, int64_t C, int64_t D) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    const int64_t e = arch::dtype_bytes(x.dtype);
    const arch::DType dt = x.dtype;
    const uint64_t x_ddr = ctx.ddr_addr(op.inputs[0]), y_ddr = ctx.ddr_addr(op.output);
    const std::string xname = x.name, yname = y.name;
    VectorStream s;
    s.name = y.name;
    s.max_chunk_units = 1;

    if (D == 1) {
        // The largest power-of-two tile (capped by the matrix) that fits.
        int64_t T = 1;
        auto tile_buffers = [&](int64_t t) {
            const int64_t bytes = std::min(t, A) * std::min(t, C) * e;
            return std::vector<BufferSpec>{{BufferKind::Streamed, bytes, 0}, {BufferKind::Streamed, bytes, 0}};
        };
        while ((T < A || T < C) && max_chunk_units(ctx, tile_buffers(2 * T)) > 0) T *= 2;
        const int64_t tr = std::min(T, A), tc = std::min(T, C);
        const int64_t ti = arch::ceil_div(A, tr), tj = arch::ceil_div(C, tc);
        s.units = B * ti * tj;
        s.buffers = tile_buffers(T);
        s.chunk = [=](int64_t u, int64_t, const BufferAddrs& a) {
            const int64_t b = u / (ti * tj), i = u / tj % ti, j = u % tj;
            const int64_t i0 = i * tr, j0 = j * tc, r = std::min(tr, A - i0), c = std::min(tc, C - j0);
            ChunkCommands cc;
            cc.loads.push_back({copy2d(arch::Space::DDR, x_ddr + uint64_t(((b * A + i0) * C + j0) * e), uint64_t(C * e),
                                       arch::Space::L1, a[0], uint64_t(c * e), r, c * e),
                                xname + " tile -> L1"});
            cc.compute.push_back(
                {vector_args(VectorOp::Transpose, dt, r, c, a[0], arch::kNoAddress, a[1]), yname + ": transpose"});
            cc.stores.push_back({copy2d(arch::Space::L1, a[1], uint64_t(r * e), arch::Space::DDR,
                                        y_ddr + uint64_t(((b * C + j0) * A + i0) * e), uint64_t(A * e), c, r * e),
                                 yname + " tile -> DDR"});
            return cc;
        };
    } else {
        const int64_t row = C * D * e;  // bytes per a-value
        const int64_t band =
            std::min(A, max_chunk_units(ctx, {{BufferKind::Streamed, row, 0}, {BufferKind::Streamed, row, 0}}));
        if (band == 0)
            throw CompileError(
                op.loc,
                "transpose does not fit the hardware: one chunk needs " + std::to_string(2 * stream_depth(ctx) * row) +
                    " bytes of L1" +
                    (stream_depth(ctx) != 2 ? " with pypo.config.BUFFERS = " + std::to_string(stream_depth(ctx))
                                            : std::string()) +
                    ", a cluster has " + std::to_string(ctx.config.l1_bytes()),
                CompileError::Capacity::L1);
        const int64_t bands = arch::ceil_div(A, band);
        s.units = B * bands;
        s.buffers = {{BufferKind::Streamed, band * row, 0}, {BufferKind::Streamed, band * row, 0}};
        s.chunk = [=](int64_t u, int64_t, const BufferAddrs& a) {
            const int64_t b = u / bands, a0 = u % bands * band, na = std::min(band, A - a0);
            ChunkCommands cc;
            cc.loads.push_back(
                {load_dma(x_ddr + uint64_t((b * A + a0) * C * D * e), a[0], uint64_t(na * row)), xname + " -> L1"});
            // Row (c, a) of the result is row (a, c) of the band.
            cc.compute.push_back(
                {with_sources(vector_args(VectorOp::Copy, dt, na * C, D, a[0], arch::kNoAddress, a[1]),
                              strided_source(0, {uint32_t(C), uint32_t(na), uint32_t(D)}, {D, C * D, 1})),
                 yname + ": copy"});
            cc.stores.push_back({copy2d(arch::Space::L1, a[1], uint64_t(na * D * e), arch::Space::DDR,
                                        y_ddr + uint64_t((b * C * A + a0) * D * e), uint64_t(A * D * e), C, na * D * e),
                                 yname + " -> DDR"});
            return cc;
        };
    }
    lower_vector_stream(ctx, op, s);
}

}  // namespace

}  // namespace dsl
