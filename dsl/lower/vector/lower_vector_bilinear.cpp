// upsample(mode='bilinear') on the vector unit: ONNX Resize, mode 'linear',
// coordinate_transformation_mode 'half_pixel' (PyTorch's
// align_corners=False): output row oy reads input row
// sy = (oy + 0.5) / fh - 0.5 between rows floor(sy) and floor(sy) + 1,
// rows outside the image replaced by the edge row; columns alike.
//
// For an integer factor f, output index q * f + p (phase p) has the same
// fraction t_p = (p + 0.5) / f - 0.5 for every q: t_p < 0 blends input
// q - 1 and q with weights (-t_p, 1 + t_p), t_p > 0 blends q and q + 1
// with (1 - t_p, t_p), t_p = 0 copies q. So each phase is two `mul` by an
// immediate and an `add` over whole shifted rows, with the edge rows
// replicated into a halo so that no command needs a special case.
//
// A unit is a band of nb input rows of one plane (NCHW: a (c) plane of
// H x W; NHWC: an image of H x W x C, D = C values per pixel), chosen as
// large as fits L1 and split so every cluster has bands to pipeline:
//  * dma0 loads rows h0 - 1 .. h0 + nb of the plane into nb + 2 halo'd
//    rows; at the image's top and bottom edge the missing halo row is a
//    second load of the edge row. (A cast follows if the dtype differs.)
//  * vertical pass, per row phase: `mul`, `mul`, `add` (nb x W*D) into
//    V[phase] (a `copy` for t = 0);
//  * a `copy` through a strided view turns V into columns-major UT
//    [W + 2][D][nb * fh] (columns w, then the edge columns replicated by two
//    more `copy` commands), so that the horizontal neighbours are whole
//    rows of UT;
//  * horizontal pass, per column phase: `mul`, `mul`, `add` (W x D*nb*fh)
//    into H[phase];
//  * a `copy` through a strided view interleaves the phases into the output
//    rows, which the last DMA engine stores (nb * fh rows, contiguous).
#include <algorithm>

#include "dsl/lower/vector/lower_vector.h"
#include "dsl/lower/vector/lower_vector_inputs.h"
#include "dsl/lower/vector/lower_vector_stream.h"
#include "sim/arch/ceil_div.h"

namespace dsl {

namespace {

using arch::VectorOp;
constexpr uint64_t kNone = arch::kNoAddress;

// The blend of phase p of factor f: weights on the lower and upper
// neighbour, and whether the lower one is the previous (t < 0) or the
// same index (t > 0). t == 0 is a copy (lo = 1, hi = 0, same index).
struct Phase {
    double lo = 1.0, hi = 0.0;
    bool previous = false;
    bool copy() const { return hi == 0.0; }
};
Phase phase(int64_t p, int64_t f) {
    const double t = (double(p) + 0.5) / double(f) - 0.5;
    Phase ph;
    if (t < 0) ph.lo = -t, ph.hi = 1.0 + t, ph.previous = true;
    if (t > 0) ph.lo = 1.0 - t, ph.hi = t;
    return ph;
}

}  // namespace

void lower_upsample_bilinear(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    const bool nhwc = y.layout == "NHWC";
    const int64_t planes = nhwc ? x.shape[0] : x.shape[0] * x.shape[1];
    const int64_t H = nhwc ? x.shape[1] : x.shape[2], W = nhwc ? x.shape[2] : x.shape[3];
    const int64_t D = nhwc ? x.shape[3] : 1;
    const int64_t fh = op.attrs.at("factor").ints[0], fw = op.attrs.at("factor").ints[1];
    const int64_t RW = W * D, OW = W * fw;  // input row, output row in pixels
    const arch::DType xt = x.dtype, t = y.dtype;
    const int64_t ex = arch::dtype_bytes(xt), ec = arch::dtype_bytes(t);
    const bool cast = xt != t;
    // Bytes per input row of a band, and per band (the halo rows): 0 Xb,
    // 1 Xc, 2 temp, 3 V, 4 UT, 5 Hz, 6 y.
    const std::vector<BufferSpec> specs{{BufferKind::Streamed, RW * ex, 2 * RW * ex},
                                        {BufferKind::Scratch, cast ? RW * ec : 0, cast ? 2 * RW * ec : 0},
                                        {BufferKind::Scratch, RW * fh * ec, 0},
                                        {BufferKind::Scratch, fh * RW * ec, 0},
                                        {BufferKind::Scratch, (W + 2) * D * fh * ec, 0},
                                        {BufferKind::Scratch, fw * RW * fh * ec, 0},
                                        {BufferKind::Streamed, fh * OW * D * ec, 0}};
    VectorStream s;
    const int64_t nb = band_stream(ctx, s, y.name, H, planes, specs);
    const int64_t bands = arch::ceil_div(H, nb);
    const uint64_t x_ddr = ctx.ddr_addr(op.inputs[0]), y_ddr = ctx.ddr_addr(op.output);
    const std::string xname = x.name, yname = y.name;
    s.chunk = [=](int64_t u, int64_t, const BufferAddrs& a) {
        const int64_t pl = u / bands, h0 = u % bands * nb, n = std::min(nb, H - h0), OHb = n * fh;
        const int64_t L = D * OHb;  // a row of UT and of the horizontal phases
        ChunkCommands cc;
        auto add = [&](VectorOp o, int64_t rows, int64_t cols, uint64_t s0, uint64_t s1, uint64_t d,
                       arch::VectorSource in0 = {}, arch::VectorSource in1 = {}) {
            cc.compute.push_back({with_sources(vector_args(o, t, rows, cols, s0, s1, d), in0, in1),
                                  yname + ": " + arch::vector_op_name(o)});
        };
        auto row_at = [&](uint64_t base, int64_t row, int64_t row_elems, int64_t e) {
            return base + uint64_t(row * row_elems * e);
        };
        // Rows h0 - 1 .. h0 + n (halo), the edge row standing in outside.
        const uint64_t plane = x_ddr + uint64_t(pl * H * RW * ex);
        const int64_t lo = std::max<int64_t>(h0 - 1, 0), hi = std::min(h0 + n + 1, H);
        cc.loads.push_back({load_dma(plane + uint64_t(lo * RW * ex), row_at(a[0], lo - (h0 - 1), RW, ex),
                                     uint64_t((hi - lo) * RW * ex)),
                            xname + " rows -> L1"});
        if (h0 == 0) cc.loads.push_back({load_dma(plane, a[0], uint64_t(RW * ex)), xname + " edge row -> L1"});
        if (h0 + n == H)
            cc.loads.push_back(
                {load_dma(plane + uint64_t((H - 1) * RW * ex), row_at(a[0], n + 1, RW, ex), uint64_t(RW * ex)),
                 xname + " edge row -> L1"});
        uint64_t xb = a[0];
        if (cast) {
            cc.compute.push_back({cast_args(xt, t, n + 2, RW, a[0], a[1]), yname + ": cast " + xname});
            xb = a[1];
        }
        // One phase of a pass: `rows` rows of `cols` from the halo'd rows at
        // `src` (row r of the result reads rows r and r + 1 or r + 1 and r + 2).
        auto blend = [&](const Phase& ph, int64_t rows, int64_t cols, uint64_t src, uint64_t dst) {
            const uint64_t same = src + uint64_t(cols * ec);
            if (ph.copy()) return add(VectorOp::Copy, rows, cols, same, kNone, dst);
            const uint64_t low = ph.previous ? src : same, high = low + uint64_t(cols * ec);
            add(VectorOp::Mul, rows, cols, low, a[2], a[2], {}, scalar_source(ph.lo));
            add(VectorOp::Mul, rows, cols, high, dst, dst, {}, scalar_source(ph.hi));
            add(VectorOp::Add, rows, cols, dst, a[2], dst);
        };
        const int64_t band = n * RW;  // elements of one vertical phase
        for (int64_t p = 0; p < fh; ++p) blend(phase(p, fh), n, RW, xb, a[3] + uint64_t(p * band * ec));
        // UT[1 + w][d][i * fh + p] = V[p][i][w * D + d]; UT[0] and UT[W + 1]
        // repeat columns 0 and W - 1.
        const std::vector<int64_t> col_strides{1, RW, band};
        const std::vector<uint32_t> col_dims{uint32_t(D), uint32_t(n), uint32_t(fh)};
        add(VectorOp::Copy, W * D, OHb, a[3], kNone, a[4] + uint64_t(L * ec),
            strided_source(0, {uint32_t(W), uint32_t(D), uint32_t(n), uint32_t(fh)}, {D, 1, RW, band}));
        add(VectorOp::Copy, D, OHb, a[3], kNone, a[4], strided_source(0, col_dims, col_strides));
        add(VectorOp::Copy, D, OHb, a[3] + uint64_t((W - 1) * D * ec), kNone, a[4] + uint64_t((W + 1) * L * ec),
            strided_source(0, col_dims, col_strides));
        for (int64_t p = 0; p < fw; ++p) blend(phase(p, fw), W, L, a[4], a[5] + uint64_t(p * W * L * ec));
        // y[oy][w * fw + p][d] = Hz[p][w][d][oy].
        add(VectorOp::Copy, OHb, OW * D, a[5], kNone, a[6],
            strided_source(0, {uint32_t(OHb), uint32_t(W), uint32_t(fw), uint32_t(D)}, {1, L, W * L, OHb}));
        const int64_t out_row = OW * D;
        cc.stores.push_back(
            {store_dma(a[6], y_ddr + uint64_t((pl * H * fh + h0 * fh) * out_row * ec), uint64_t(OHb * out_row * ec)),
             yname + " -> DDR"});
        return cc;
    };
    lower_vector_stream(ctx, op, s);
}

}  // namespace dsl
