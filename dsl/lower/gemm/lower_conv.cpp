#include "dsl/lower/gemm/lower_conv.h"

#include <algorithm>

#include "dsl/lower/gemm/lower_fold_major.h"
#include "dsl/lower/gemm/lower_gemm.h"
#include "dsl/lower/gemm/lower_matmul.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

using arch::Space;

struct ConvGeometry {
    int64_t C = 0, H = 0, W = 0, O = 0;
    int64_t kh = 0, kw = 0, sh = 1, sw = 1, ph = 0, pw = 0;
    int64_t dh = 1, dw = 1;  // dilation: input rows (columns) between taps
    int64_t OH = 0, OW = 0;
    int64_t e = 2;
    bool nhwc = false;  // the input's layout (the output is always NHWC)
    int64_t patch() const { return kh * kw; }
    // The input rows (columns) one window spans.
    int64_t span_h() const { return (kh - 1) * dh + 1; }
    int64_t span_w() const { return (kw - 1) * dw + 1; }
};

// The input rows [y0, y1) that output rows [oh_a, oh_b] read, clipped to
// the image: the rows above and below are padding, generated, not loaded.
struct Band {
    int64_t oh_a = 0, oh_b = 0, y0 = 0, y1 = 0;
    int64_t rows() const { return y1 - y0; }
};

// The A operand of one image: the im2col matrix of x[n], addressed through
// its input rows.
class ConvA : public GemmA {
public:
    ConvA(const ConvGeometry& g, uint64_t image_addr) : g_(g), image_(image_addr) {}

    // The most input rows a block of block_rows consecutive output pixels
    // can need: it spans at most 1 + ceil((block_rows - 1) / OW) output rows.
    int64_t max_slab_rows(const MatmulTiling& t) const {
        int64_t spanned = std::min(g_.OH, 1 + (t.block_rows() - 1 + g_.OW - 1) / g_.OW);
        // A band that starts past the input (rounding='ceil') starts one
        // output row earlier (band()).
        if (g_.OH - 1 > last_inside()) spanned = std::min(g_.OH, spanned + 1);
        return std::min(g_.H, (spanned - 1) * g_.sh + g_.span_h());
    }

    int64_t panel_bytes(const MatmulTiling& t) const override {
        return t.kb / g_.patch() * max_slab_rows(t) * g_.W * g_.e;
    }

    arch::DmaArgs load_panel(const GemmPanel& p, const MatmulTiling&) const override {
        const Band b = band(p);
        const int64_t c0 = p.k0 / g_.patch(), channels = p.kb / g_.patch();
        const int64_t slab = b.rows() * g_.W * g_.e;
        // NHWC: one row per input pixel, its panel channels (contiguous when
        // the panel has all of them).
        if (g_.nhwc)
            return copy2d(Space::DDR, image_ + uint64_t((b.y0 * g_.W * g_.C + c0) * g_.e), uint64_t(g_.C * g_.e),
                          Space::L1, p.l1, uint64_t(channels * g_.e), b.rows() * g_.W, channels * g_.e);
        // NCHW: one row per channel: the channel's input rows are contiguous.
        return copy2d(Space::DDR, image_ + uint64_t(((c0 * g_.H + b.y0) * g_.W) * g_.e), uint64_t(g_.H * g_.W * g_.e),
                      Space::L1, p.l1, uint64_t(slab), channels, slab);
    }

    arch::DmaArgs load_tile(const GemmPanel& p, const MatmulTiling&, int64_t r, int64_t m, int64_t kk, int64_t kt,
                            uint64_t l0) const override {
        const Band b = band(p);
        arch::DmaArgs d = copy2d(Space::L1, p.l1, 0, Space::L0, l0, uint64_t(kt * g_.e), m, kt * g_.e);
        arch::Im2col i;
        i.channels = uint32_t(p.kb / g_.patch()), i.height = uint32_t(b.rows()), i.width = uint32_t(g_.W);
        i.kh = uint32_t(g_.kh), i.kw = uint32_t(g_.kw);
        i.stride_h = uint32_t(g_.sh), i.stride_w = uint32_t(g_.sw);
        i.dilation_h = uint32_t(g_.dh), i.dilation_w = uint32_t(g_.dw);
        // Padding above the slab: only where the band starts above the image.
        i.pad_h = uint32_t(b.y0 - (b.oh_a * g_.sh - g_.ph));
        i.pad_w = uint32_t(g_.pw);
        i.out_w = uint32_t(g_.OW);
        i.pixel0 = uint32_t(p.row0 - b.oh_a * g_.OW + r);
        i.k0 = uint32_t(kk);
        i.element_bytes = uint32_t(g_.e);
        i.channels_last = g_.nhwc;
        d.im2col = i;
        return d;
    }

private:
    // The last output row whose window starts inside the input. Under
    // rounding='ceil' the rows after it read only zeros (below the image):
    // a band of them alone would load no input row.
    int64_t last_inside() const { return (g_.H - 1 + g_.ph) / g_.sh; }

    Band band(const GemmPanel& p) const {
        Band b;
        b.oh_a = std::min(p.row0 / g_.OW, last_inside()), b.oh_b = (p.row0 + p.rows - 1) / g_.OW;
        b.y0 = std::max<int64_t>(0, b.oh_a * g_.sh - g_.ph);
        b.y1 = std::min(g_.H, b.oh_b * g_.sh - g_.ph + g_.span_h());
        return b;
    }

    ConvGeometry g_;
    uint64_t image_;
};

}  // namespace

void lower_conv2d_op(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& w = ctx.tensor(op.inputs[1]);
    const TensorNode& y = ctx.tensor(op.output);
    // The layout pass (dsl/passes/pass_layout.h) gives the input's layout and makes
    // the output NHWC, the GEMM's (pixels x filters) order.
    ConvGeometry g;
    g.nhwc = op.attrs.at("input_layout").as<ImageLayout>() == ImageLayout::NHWC;
    if (y.layout != "NHWC") throw std::logic_error("conv2d: the layout pass did not make the output NHWC");
    if (g.nhwc) g.H = x.shape[1], g.W = x.shape[2], g.C = x.shape[3];
    else g.C = x.shape[1], g.H = x.shape[2], g.W = x.shape[3];
    g.O = w.shape[0];
    g.kh = w.shape[2], g.kw = w.shape[3];
    const std::vector<int64_t>& stride = op.attrs.at("stride").ints;
    const std::vector<int64_t>& padding = op.attrs.at("padding").ints;
    g.sh = stride[0], g.sw = stride[1], g.ph = padding[0], g.pw = padding[1];
    if (const auto d = op.attrs.find("dilation"); d != op.attrs.end())
        g.dh = d->second.ints[0], g.dw = d->second.ints[1];
    g.OH = y.shape[1], g.OW = y.shape[2];
    // With one output row (column) the stride is never used: one that large
    // (2^32, say) would not fit the im2col descriptor's 32 bits and wrap.
    if (g.OH == 1) g.sh = 1;
    if (g.OW == 1) g.sw = 1;
    g.e = arch::dtype_bytes(x.dtype);
    // A window entirely in the padding would read no input row at all.
    if (g.ph >= g.span_h() || g.pw >= g.span_w())
        throw CompileError(op.loc, "conv2d: padding " + attr_text(op.attrs.at("padding")) +
                                       " as large as the kernel is not lowered yet");

    GemmShape shape;
    shape.M = g.OH * g.OW, shape.K = g.C * g.patch(), shape.N = g.O;
    shape.in = x.dtype, shape.out = y.dtype;
    shape.k_granule = g.patch();
    const ConvA geometry_only(g, 0);
    shape.a_panel_bytes = [&](const MatmulTiling& t) { return geometry_only.panel_bytes(t); };
    apply_gemm_attrs(op, shape);
    const int64_t images = x.shape[0];
    shape.items = images;
    const bool fold_major = fold_major_applies(ctx.config, shape);
    // The fusion group's epilogue runs on the k-stepped schedule's C tiles.
    int out = op.output;
    const std::string blocked = gemm_epilogue_blocked(ctx.config, fold_major, false);
    const GemmEpilogue epilogue = blocked.empty() ? build_epilogue(ctx, op, out) : GemmEpilogue{};
    if (!blocked.empty()) out = op.output;
    epilogue.describe(shape);
    ctx.epilogue_fused = !epilogue.empty();
    if (!op.epilogue.empty() && !ctx.epilogue_fused)
        ctx.epilogue_unfused = blocked.empty() ? kOnChipResultUnfused : blocked;
    const FoldPlan plan = fold_major ? plan_fold_major(ctx, op, shape) : FoldPlan{};
    if (fold_major && ctx.explaining) ctx.explaining->gemm = GemmExplanation{}, ctx.explaining->gemm->fold_major = true;
    const MatmulTiling t = fold_major ? MatmulTiling{} : gemm_tiling_or_fail(ctx, op, shape);

    for (int64_t n = 0; n < images; ++n) {
        const ConvA a(g, ctx.ddr_addr(op.inputs[0]) + uint64_t(n * g.C * g.H * g.W * g.e));
        GemmOperands gemm;
        gemm.M = shape.M, gemm.K = shape.K, gemm.N = shape.N, gemm.in = shape.in, gemm.out = shape.out;
        gemm.a = &a;
        gemm.b_addr = ctx.ddr_addr(op.inputs[1]);
        gemm.b_transposed = true;
        // The group's result, in its own dtype (a fused cast's).
        const uint64_t image_elems = uint64_t(n * shape.M * shape.N);
        gemm.c_addr = ctx.ddr_addr(out) + image_elems * uint64_t(arch::dtype_bytes(ctx.tensor(out).dtype));
        gemm.epilogue = &epilogue, gemm.epilogue_offset = image_elems;
        gemm.a_name = x.name, gemm.b_name = w.name, gemm.c_name = ctx.tensor(out).name;
        gemm.unroll = gemm_unroll(op);  // conv2d takes no unroll=: 1, loop control every k-step
        if (images > 1) gemm.block_name = gemm.c_name + "[" + std::to_string(n) + "]";
        gemm.last_item = n == images - 1;
        if (fold_major) lower_fold_major(ctx, plan, shape, gemm, n, gemm.last_item);
        else lower_gemm(ctx, t, gemm);
    }
}

}  // namespace dsl
