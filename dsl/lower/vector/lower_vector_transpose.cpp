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
#include <cmath>

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
    const size_t n = perm.size();
    // Any permutation is a sequence of block swaps: at the first position
    // i where the layout so far differs from perm, the run of axes that
    // belongs there (cur[p..q]) moves in front of cur[i..p): one pass
    // (B, A, C, D) -> (B, C, A, D) with A = axes [i, p), C = axes [p, q].
    // Swaps of two adjacent axes and rotations are one pass; (2, 1, 0) is
    // two. Every pass but the last writes a DDR scratch tensor.
    struct Pass {
        int64_t B = 1, A = 1, C = 1, D = 1;
    };
    std::vector<Pass> passes;
    std::vector<int64_t> cur(n);
    for (size_t k = 0; k < n; ++k) cur[k] = int64_t(k);
    for (size_t i = 0; i < n; ++i) {
        if (cur[i] == perm[i]) continue;
        size_t p = i;
        while (cur[p] != perm[i]) ++p;
        size_t q = p;
        while (q + 1 < n && i + (q + 1 - p) < n && cur[q + 1] == perm[i + (q + 1 - p)]) ++q;
        Pass ps;
        for (size_t k = 0; k < n; ++k) (k < i ? ps.B : k < p ? ps.A : k <= q ? ps.C : ps.D) *= x.shape[size_t(cur[k])];
        passes.push_back(ps);
        std::vector<int64_t> next(cur.begin(), cur.begin() + int64_t(i));
        next.insert(next.end(), cur.begin() + int64_t(p), cur.begin() + int64_t(q + 1));
        next.insert(next.end(), cur.begin() + int64_t(i), cur.begin() + int64_t(p));
        next.insert(next.end(), cur.begin() + int64_t(q + 1), cur.end());
        cur = next;
    }
    if (passes.empty()) {  // the identity: a copy of rows of the last axis
        lower_vector_swap(ctx, op, 1, element_count(x.shape) / x.shape.back(), 1, x.shape.back());
        return;
    }
    if (passes.size() == 1) {
        lower_vector_swap(ctx, op, passes[0].B, passes[0].A, passes[0].C, passes[0].D);
        return;
    }
    const TensorNode& y = ctx.tensor(op.output);
    const std::vector<uint32_t> outer_deps = ctx.deps;
    SwapEnds ends{ctx.ddr_addr(op.inputs[0]), 0, x.name, "", x.dtype};
    for (size_t k = 0; k < passes.size(); ++k) {
        const bool last = k + 1 == passes.size();
        ends.yname = last ? y.name : y.name + " pass " + std::to_string(k + 1);
        ends.y_ddr = last ? ctx.ddr_addr(op.output) : ctx.ddr_scratch(ends.yname, x.shape, x.dtype, op.loc);
        const uint32_t first = ctx.blocks_emitted();
        lower_vector_swap(ctx, op, passes[k].B, passes[k].A, passes[k].C, passes[k].D, ends);
        // The next pass reads what this one wrote.
        ctx.deps.clear();
        for (uint32_t b = first; b < ctx.blocks_emitted(); ++b) ctx.deps.push_back(b);
        ends.x_ddr = ends.y_ddr, ends.xname = ends.yname;
    }
    ctx.deps = outer_deps;
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
    lower_vector_swap(ctx, op, B, A, C, D,
                      {ctx.ddr_addr(op.inputs[0]), ctx.ddr_addr(op.output), ctx.tensor(op.inputs[0]).name,
                       ctx.tensor(op.output).name, ctx.tensor(op.inputs[0]).dtype});
}

}  // namespace

void lower_vector_swap(LowerContext& ctx, const OpNode& op, int64_t B, int64_t A, int64_t C, int64_t D,
                       const SwapEnds& ends) {
    const int64_t e = arch::dtype_bytes(ends.dtype);
    const arch::DType dt = ends.dtype;
    const uint64_t x_ddr = ends.x_ddr, y_ddr = ends.y_ddr;
    const std::string xname = ends.xname, yname = ends.yname;
    VectorStream s;
    s.name = yname;
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
        // A unit is a tile of ta a-values x tc c-values x nd elements of D,
        // with its input and output double-buffered: as many (a, c) rows of
        // D as fit; whole bands of a-values when one a-value's C rows fit,
        // else shared out so both the load's runs (tc * nd) and the
        // store's (ta * nd) are long. Only when one row of D does not fit
        // is D cut too (then ta = 1 and the copy moves single rows).
        auto tile_buffers = [&](int64_t elems) {
            return std::vector<BufferSpec>{{BufferKind::Streamed, elems * e, 0}, {BufferKind::Streamed, elems * e, 0}};
        };
        // Elements per tile; if not even one fits, the stream reports the capacity.
        const int64_t fit = std::max<int64_t>(1, max_chunk_units(ctx, tile_buffers(1)));
        const int64_t nd = std::min(D, fit), pairs = std::max<int64_t>(1, fit / nd);
        int64_t ta = 1, tc = 1;
        if (nd == D) {
            if (C <= pairs) {  // whole bands of a-values
                ta = std::min(A, pairs / C), tc = C;
            } else {
                ta = std::max<int64_t>(1, std::min(A, int64_t(std::sqrt(double(pairs)))));
                tc = std::min(C, pairs / ta);
                ta = std::min(A, pairs / tc);
            }
        }
        const int64_t ti = arch::ceil_div(A, ta), tj = arch::ceil_div(C, tc), tk = arch::ceil_div(D, nd);
        s.units = B * ti * tj * tk;
        s.buffers = tile_buffers(ta * tc * nd);
        s.chunk = [=](int64_t u, int64_t, const BufferAddrs& a) {
            const int64_t b = u / (ti * tj * tk), i = u / (tj * tk) % ti, j = u / tk % tj, k = u % tk;
            const int64_t a0 = i * ta, c0 = j * tc, d0 = k * nd;
            const int64_t na = std::min(ta, A - a0), nc = std::min(tc, C - c0), dd = std::min(nd, D - d0);
            ChunkCommands cc;
            // [na][nc][dd] in L1: na rows of nc * dd (one per a when the
            // tile covers D whole; nc rows of dd when D is cut, na = 1).
            const uint64_t src = x_ddr + uint64_t(((b * A + a0) * C + c0) * D + d0) * uint64_t(e);
            if (nc == C)  // contiguous
                cc.loads.push_back({load_dma(src, a[0], uint64_t(na * C * D * e)), xname + " -> L1"});
            else if (dd == D)
                cc.loads.push_back({copy2d(arch::Space::DDR, src, uint64_t(C * D * e), arch::Space::L1, a[0],
                                           uint64_t(nc * D * e), na, nc * D * e),
                                    xname + " -> L1"});
            else
                cc.loads.push_back({copy2d(arch::Space::DDR, src, uint64_t(D * e), arch::Space::L1, a[0],
                                           uint64_t(dd * e), nc, dd * e),
                                    xname + " -> L1"});
            // Row (c, a) of the result is row (a, c) of the tile.
            cc.compute.push_back(
                {with_sources(vector_args(VectorOp::Copy, dt, na * nc, dd, a[0], arch::kNoAddress, a[1]),
                              strided_source(0, {uint32_t(nc), uint32_t(na), uint32_t(dd)}, {dd, nc * dd, 1})),
                 yname + ": copy"});
            // nc runs of na * dd elements, one per output row block (when D
            // is cut, na = 1 and each run is dd elements of one row).
            const uint64_t dst = y_ddr + uint64_t(((b * C + c0) * A + a0) * D + d0) * uint64_t(e);
            cc.stores.push_back({copy2d(arch::Space::L1, a[1], uint64_t(na * dd * e), arch::Space::DDR, dst,
                                        uint64_t(A * D * e), nc, na * dd * e),
                                 yname + " -> DDR"});
            return cc;
        };
    }
    lower_vector_stream(ctx, op, s);
}

}  // namespace dsl
