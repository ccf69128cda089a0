// Window operations on the streamed vector pipeline: max_pool, avg_pool,
// reductions of a slide view over its window, and nearest-neighbour
// upsample. An image plane is (n, c) for NCHW (H x W elements) and n for
// NHWC (H x W x C).
//
// A window reduction combines, for every output, the kh * kw input elements
// under its window. The DMA loads the real input rows (whole planes when one
// fits L1, else bands of output rows with their halo); the vector unit then
// runs kh * kw - 1 element-wise commands over the chunk's outputs
// (maximum for max_pool, add otherwise; avg_pool then multiplies by
// 1 / window, padding counting as zeros): command j reads window position j
// of every output, a strided view of the loaded rows that starts j
// positions in. That is what vector units do, and it is cheaper in §8 than a
// reduce over expanded windows, whose per-row combining tree costs
// ceil(log2(window)) cycles for every output. A command names where its
// view starts (the input slot is sized so that every view's extent lies in
// it, for the program checker) and describes the view exactly as an
// arch::VectorSource window — the rows, stride, padding and window
// position — for the functional model; timing depends on neither.
// A reduction over the window axes of a slide view (slide's patches are
// never stored: dsl/lower/lower_views.h) is the same window reduction, over the
// image. A depthwise convolution is the same walk over the windows with a
// weight per window position and channel: position j multiplies its view
// by the channel's weight (a broadcast view of the weights, resident in L1)
// and adds the product to the sum; the bias, if any, is added last.
// Upsample is a copy that writes every output element from its
// source (a cast when the dtype changes); a unit is a plane.
#include <algorithm>
#include <limits>

#include "dsl/lower/lower_views.h"
#include "dsl/lower/vector/lower_vector.h"
#include "dsl/lower/vector/lower_vector_chain.h"
#include "dsl/lower/vector/lower_vector_inputs.h"
#include "dsl/lower/vector/lower_vector_stream.h"
#include "dsl/support/diagnostics.h"
#include "sim/arch/ceil_div.h"

namespace dsl {

namespace {

using arch::VectorOp;

struct Planes {
    int64_t count = 0;  // planes
    int64_t in = 0;     // input elements per plane
    int64_t out = 0;    // output elements per plane
};

Planes planes_of(const TensorNode& x, const TensorNode& y) {
    const bool nhwc = y.layout == "NHWC";
    Planes p;
    p.count = nhwc ? y.shape[0] : y.shape[0] * y.shape[1];
    p.in = element_count(x.shape) / p.count;
    p.out = element_count(y.shape) / p.count;
    return p;
}

// A reduction over every window of an image's planes. A row is W * depth
// elements (depth = C for NHWC, else 1).
struct WindowReduce {
    int image = -1;
    int64_t planes = 0, H = 0, W = 0, depth = 1, OH = 0, OW = 0;
    int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0;
    // A depthwise convolution's dilation: its taps dh rows and dw columns
    // apart, the window spanning (kh - 1) * dh + 1 rows.
    int64_t dh = 1, dw = 1;
    int64_t span_h() const { return (kh - 1) * dh + 1; }
    arch::VectorOp combine = arch::VectorOp::Maximum;  // or Add
    bool mean = false;
    // A depthwise convolution's (C, 1, kh, kw) weights and (C,) bias (-1:
    // none), channels = C; then combine is Add.
    int weights = -1, bias = -1;
    int64_t channels = 1;
};

// Units are bands of `band` output rows of one plane. A band of the whole
// plane (band = OH) loads the whole plane, so a chunk of several planes is
// one contiguous DMA; a shorter band loads the input rows its windows
// cover (the halo included, padding rows excluded) and is a chunk alone.
void lower_window_reduce(LowerContext& ctx, const OpNode& op, const WindowReduce& w) {
    const TensorNode& x = ctx.tensor(w.image);
    const TensorNode& y = ctx.tensor(op.output);
    const int64_t ex = arch::dtype_bytes(x.dtype), ey = arch::dtype_bytes(y.dtype);
    const bool cast = x.dtype != y.dtype;
    const int64_t in_row = w.W * w.depth, out_row = w.OW * w.depth, window = w.kh * w.kw;
    const bool weighted = w.weights >= 0;
    // Window position (i, j) starts i rows and j columns into the rows.
    auto view_offset = [in_row, depth = w.depth, kw = w.kw, dh = w.dh, dw = w.dw](int64_t j) {
        return j / kw * dh * in_row + j % kw * dw * depth;
    };
    const int64_t last_view = view_offset(window - 1);
    // A vector fusion group's members (dsl/passes/pass_fusion.h) run on
    // the pooled outputs in place, after the pooling (and its cast), their
    // operands resident or numbers (lower_vector_chain.h); after a cast
    // member the result is in a buffer of the chain's.
    std::vector<const OpNode*> members;
    for (int k : op.epilogue) members.push_back(&ctx.graph.ops[size_t(k)]);
    // Computes in the input's dtype, casting the result if asked for another.
    // With `chain`, buffer 4 on are the members' operands.
    auto stream = [&](int64_t band, bool chain, ElementwiseChain* links) {
        const int64_t rows_in = band == w.OH ? w.H : (band - 1) * w.sh + w.span_h();
        const int64_t outputs = band * out_row;
        VectorStream s;
        s.buffers = {
            {BufferKind::Streamed, std::max(rows_in * in_row, last_view + outputs) * ex, 0},  // 0: x, read by window
            {BufferKind::Scratch, cast ? outputs * ex : 0, 0},     // 1: pooled, before the cast
            {BufferKind::Resident, w.mean ? outputs * ex : 0, 0},  // 2: 1 / window
            {BufferKind::Streamed, outputs * ey, 0},               // 3: y
            // 4: weights, 5: a tap's products, 6: bias. Read broadcast, the
            // resident ones are sized for a command's extent past any tap's
            // first weight (the checker's view of a source).
            {BufferKind::Resident, weighted ? outputs * ex : 0, weighted ? w.channels * window * ex : 0},
            {BufferKind::Scratch, weighted ? outputs * ex : 0, 0},
            {BufferKind::Resident, w.bias >= 0 ? outputs * ex : 0, w.bias >= 0 ? w.channels * ex : 0}};
        if (chain) {
            links->head_result(3, y.dtype);
            int cur = op.output;
            for (const OpNode* m : members) {
                links->add(s, *m, cur, outputs, out_row);
                cur = m->output;
            }
            links->finish(s);
        }
        return s;
    };
    // The band that fits, the members' operands with it; without members
    // when not even one output row fits with them (they then run apart).
    bool fused = !members.empty();
    ElementwiseChain links(ctx, y.dtype, y.name);
    auto fits = [&](int64_t band) {
        ElementwiseChain trial(ctx, y.dtype, y.name);
        return max_chunk_units(ctx, stream(band, fused, &trial).buffers) > 0;
    };
    if (fused && !fits(1)) {
        fused = false;
        ctx.epilogue_unfused =
            std::string("not one output row of the group's buffers fits ") + vector_memory_name(ctx.config);
    }
    int64_t band = w.OH;
    while (band > 1 && !fits(band)) --band;
    if (band < w.OH) band = unit_extent(ctx, w.OH, w.planes, band);
    VectorStream s = stream(band, fused, &links);
    s.name = y.name;
    const int64_t bands = arch::ceil_div(w.OH, band);
    s.units = w.planes * bands;
    if (band < w.OH) s.max_chunk_units = 1;
    const uint64_t w_ddr = weighted ? ctx.ddr_addr(w.weights) : 0, b_ddr = w.bias >= 0 ? ctx.ddr_addr(w.bias) : 0;
    auto chain_prologue = fused ? links.prologue_fn() : nullptr;
    if (weighted)
        s.prologue = [chain_prologue, w, window, ex, w_ddr, b_ddr, wname = ctx.tensor(w.weights).name,
                      bname = w.bias >= 0 ? ctx.tensor(w.bias).name : std::string()](int64_t first, int64_t n,
                                                                                     const BufferAddrs& a) {
            ChunkCommands cc = chain_prologue ? chain_prologue(first, n, a) : ChunkCommands{};
            cc.loads.push_back({load_dma(w_ddr, a[4], uint64_t(w.channels * window * ex)), wname + " -> L1"});
            if (w.bias >= 0) cc.loads.push_back({load_dma(b_ddr, a[6], uint64_t(w.channels * ex)), bname + " -> L1"});
            return cc;
        };
    else if (fused) s.prologue = chain_prologue;
    const uint64_t x_ddr = ctx.ddr_addr(w.image);
    const int out = fused ? members.back()->output : op.output;
    const int32_t last = fused ? int32_t(op.epilogue.back()) : -1;
    s.chunk = [&ctx, w, band, bands, in_row, out_row, window, view_offset, ex, x_ddr, cast, out, last, fused, links,
               weighted, xname = x.name, yname = y.name, xt = x.dtype,
               yt = y.dtype](int64_t first, int64_t n, const BufferAddrs& a) {
        ChunkCommands cc;
        int64_t rows_out = 0;  // output rows of the chunk
        // The loaded rows as the window views see them (arch::VectorSource::Window).
        arch::VectorSource::Window rows;
        rows.width = uint32_t(w.W), rows.depth = uint32_t(w.depth);
        rows.stride_h = uint32_t(w.sh), rows.stride_w = uint32_t(w.sw), rows.pad_w = uint32_t(w.pw);
        // Max pooling ignores the padding (the lowest finite value never
        // wins: every window holds an input element); average pooling counts
        // it as zeros.
        rows.fill = w.combine == VectorOp::Maximum ? -double(std::numeric_limits<float>::max()) : 0.0;
        if (band == w.OH) {
            rows.height = uint32_t(w.H), rows.out_h = uint32_t(w.OH), rows.pad_h = uint32_t(w.ph);
            cc.loads.push_back(
                {load_dma(x_ddr + uint64_t(first * w.H * in_row * ex), a[0], uint64_t(n * w.H * in_row * ex)),
                 xname + " -> L1"});
            rows_out = n * w.OH;
        } else {
            const int64_t plane = first / bands, o0 = first % bands * band, nb = std::min(band, w.OH - o0);
            const int64_t lo = std::max<int64_t>(0, o0 * w.sh - w.ph);
            const int64_t hi = std::min(w.H, (o0 + nb - 1) * w.sh - w.ph + w.span_h());
            cc.loads.push_back(
                {load_dma(x_ddr + uint64_t((plane * w.H + lo) * in_row * ex), a[0], uint64_t((hi - lo) * in_row * ex)),
                 xname + " rows -> L1"});
            rows_out = nb;
            rows.height = uint32_t(hi - lo), rows.out_h = uint32_t(nb), rows.pad_h = uint32_t(lo - (o0 * w.sh - w.ph));
        }
        const uint64_t pooled = cast ? a[1] : a[3];
        auto view = [&](int64_t j) { return a[0] + uint64_t(view_offset(j) * ex); };
        auto window_at = [&](int64_t j) {
            arch::VectorSource v;
            v.kind = arch::VectorSource::Kind::Window;
            v.window = rows;
            v.window.ki = uint32_t(j / w.kw * w.dh), v.window.kj = uint32_t(j % w.kw * w.dw);
            v.window.origin = -view_offset(j);
            return v;
        };
        // Output element i of the chunk is channel i % depth (NHWC) or of
        // plane first_plane + i / (OH * OW) (NCHW): per-channel values are
        // read broadcast with that pattern (value c at c * step).
        const int64_t first_plane = band == w.OH ? first : first / bands;
        const int64_t plane_offset = band == w.OH ? 0 : first % bands * band * w.OW;
        auto per_channel = [&](int64_t step) {
            if (w.depth > 1)
                return strided_source(0, {uint32_t(rows_out), uint32_t(w.OW), uint32_t(w.depth)}, {0, 0, step});
            const int64_t plane = w.OH * w.OW;
            return strided_source(uint64_t(first_plane % w.channels * plane + plane_offset),
                                  {uint32_t(rows_out * w.OW / plane + 2), uint32_t(w.channels), uint32_t(plane)},
                                  {0, step, 0});
        };
        if (weighted) {
            // Tap j: its window view times the channel's weight j.
            for (int64_t j = 0; j < window; ++j) {
                const uint64_t product = j == 0 ? pooled : a[5];
                cc.compute.push_back({with_sources(vector_args(VectorOp::Mul, xt, rows_out, out_row, view(j),
                                                               a[4] + uint64_t(j * ex), product),
                                                   window_at(j), per_channel(window)),
                                      yname + ": tap"});
                if (j > 0)
                    cc.compute.push_back(
                        {vector_args(VectorOp::Add, xt, rows_out, out_row, pooled, a[5], pooled), yname + ": add"});
            }
            if (w.bias >= 0)
                cc.compute.push_back(
                    {with_sources(vector_args(VectorOp::Add, xt, rows_out, out_row, pooled, a[6], pooled), {},
                                  per_channel(1)),
                     yname + ": bias"});
        }
        if (weighted) {
        } else if (window == 1)
            cc.compute.push_back(
                {with_sources(vector_args(VectorOp::Copy, xt, rows_out, out_row, view(0), arch::kNoAddress, pooled),
                              window_at(0)),
                 yname + ": copy"});
        for (int64_t j = 1; j < window && !weighted; ++j)
            cc.compute.push_back(
                {with_sources(vector_args(w.combine, xt, rows_out, out_row, j == 1 ? view(0) : pooled, view(j), pooled),
                              j == 1 ? window_at(0) : arch::VectorSource{}, window_at(j)),
                 yname + ": " + arch::vector_op_name(w.combine)});
        if (w.mean)
            cc.compute.push_back({with_sources(vector_args(VectorOp::Mul, xt, rows_out, out_row, pooled, a[2], pooled),
                                               {}, scalar_source(1.0 / double(window))),
                                  yname + ": mul"});
        if (cast) cc.compute.push_back({cast_args(xt, yt, rows_out, out_row, pooled, a[3]), yname + ": cast"});
        // Output bands are contiguous: plane-major, rows in order.
        const int64_t first_row = band == w.OH ? first * w.OH : first / bands * w.OH + first % bands * band;
        const uint64_t result = fused ? a[size_t(links.result_buffer())] : a[3];
        if (fused) links.compute(cc, a, first, result, rows_out, out_row, first_row * out_row);
        store_units(cc, ctx, out, out_row, first_row, rows_out, result, last);
        return cc;
    };
    lower_vector_stream(ctx, op, s);
    ctx.epilogue_fused = fused;
}

// The window walk over an NCHW or NHWC image operation's first input: its
// planes, sizes, output sizes, stride and padding (the window is the
// caller's: a pooling window, a depthwise kernel).
WindowReduce image_window(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    const bool nhwc = y.layout == "NHWC";
    const size_t h = nhwc ? 1 : 2, wd = nhwc ? 2 : 3;
    WindowReduce w;
    w.image = op.inputs[0];
    w.planes = nhwc ? x.shape[0] : x.shape[0] * x.shape[1];
    w.depth = nhwc ? x.shape[3] : 1;
    w.H = x.shape[h], w.W = x.shape[wd], w.OH = y.shape[h], w.OW = y.shape[wd];
    const auto& stride = op.attrs.at("stride").ints;
    const auto& pad = op.attrs.at("padding").ints;
    w.sh = stride[0], w.sw = stride[1], w.ph = pad[0], w.pw = pad[1];
    return w;
}

}  // namespace

void lower_pool(LowerContext& ctx, const OpNode& op) {
    WindowReduce w = image_window(ctx, op);
    const auto& win = op.attrs.at("window").ints;
    w.kh = win[0], w.kw = win[1];
    w.combine = op.kind == OpKind::MaxPool ? VectorOp::Maximum : VectorOp::Add;
    w.mean = op.kind == OpKind::AvgPool;
    lower_window_reduce(ctx, op, w);
}

void lower_depthwise_conv2d(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    WindowReduce w = image_window(ctx, op);
    w.weights = op.inputs[1];
    w.bias = op.inputs.size() > 2 ? op.inputs[2] : -1;
    w.channels = ctx.tensor(op.output).layout == "NHWC" ? x.shape[3] : x.shape[1];
    const TensorNode& wt = ctx.tensor(op.inputs[1]);
    w.kh = wt.shape[2], w.kw = wt.shape[3];
    if (const auto d = op.attrs.find("dilation"); d != op.attrs.end())
        w.dh = d->second.ints[0], w.dw = d->second.ints[1];
    // A window entirely in the padding would read no input row at all.
    if (w.ph >= w.span_h() || w.pw >= (w.kw - 1) * w.dw + 1)
        throw CompileError(op.loc, "conv2d: padding " + attr_text(op.attrs.at("padding")) +
                                       " as large as the kernel is not lowered yet");
    w.combine = VectorOp::Add;
    lower_window_reduce(ctx, op, w);
}

bool lower_slide_reduce(LowerContext& ctx, const OpNode& op) {
    auto view = slide_view(ctx.graph, op.inputs[0]);
    if (!view) return false;
    const TensorNode& patches = ctx.tensor(op.inputs[0]);
    const size_t r = patches.shape.size();
    const std::vector<int64_t> window_axes{int64_t(r - 2), int64_t(r - 1)};
    if (op.attrs.at("axis").ints != window_axes)
        throw CompileError(op.loc, std::string(op_kind_name(op.kind)) +
                                       " of a slide view is lowered only over its window axes (-2, -1)");
    const TensorNode& img = ctx.tensor(view->image);
    WindowReduce w;
    w.image = view->image;
    w.H = img.shape[img.shape.size() - 2], w.W = img.shape.back();
    w.planes = element_count(img.shape) / (w.H * w.W);
    w.OH = patches.shape[r - 4], w.OW = patches.shape[r - 3];
    w.kh = view->window[0], w.kw = view->window[1], w.sh = view->stride[0], w.sw = view->stride[1];
    w.combine = op.kind == OpKind::ReduceMax ? VectorOp::Maximum : VectorOp::Add;
    w.mean = op.kind == OpKind::ReduceMean;
    lower_window_reduce(ctx, op, w);
    return true;
}

namespace {

// Nearest upsample whose output plane does not fit L1: a unit is a band
// of nb input rows of one plane (as many as fit, spread over the
// clusters), loaded contiguously; the copy writes its nb * fh output rows,
// which are contiguous in the plane, reading the band through the same
// replicating view as a whole plane.
void lower_upsample_bands(LowerContext& ctx, const OpNode& op, int64_t H, int64_t W, int64_t C, int64_t fh, int64_t fw,
                          std::vector<uint32_t> dims, const std::vector<int64_t>& strides) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    const int64_t planes = element_count(x.shape) / (H * W * C);
    const int64_t ex = arch::dtype_bytes(x.dtype), ey = arch::dtype_bytes(y.dtype);
    const int64_t RW = W * C, out_row = W * fw * C;
    const VectorOp vop = x.dtype == y.dtype ? VectorOp::Copy : VectorOp::Cast;
    // Per input row: the row, read replicated (sized for the copy's extent), and its fh output rows.
    const std::vector<BufferSpec> per_row{{BufferKind::Streamed, std::max(RW * ex, fh * out_row * ex), 0},
                                          {BufferKind::Streamed, fh * out_row * ey, 0}};
    VectorStream s;
    const int64_t nb = band_stream(ctx, s, y.name, H, planes, per_row);
    const int64_t bands = arch::ceil_div(H, nb);
    const uint64_t x_ddr = ctx.ddr_addr(op.inputs[0]), y_ddr = ctx.ddr_addr(op.output);
    s.chunk = [=, xname = x.name, yname = y.name, xt = x.dtype, yt = y.dtype](int64_t u, int64_t,
                                                                              const BufferAddrs& a) {
        const int64_t pl = u / bands, h0 = u % bands * nb, n = std::min(nb, H - h0);
        ChunkCommands cc;
        cc.loads.push_back(
            {load_dma(x_ddr + uint64_t((pl * H + h0) * RW * ex), a[0], uint64_t(n * RW * ex)), xname + " rows -> L1"});
        std::vector<uint32_t> band_dims = dims;
        band_dims[0] = 1, band_dims[1] = uint32_t(n);
        cc.compute.push_back(
            {with_sources(cast_args(xt, yt, n * fh, out_row, a[0], a[1]), strided_source(0, band_dims, strides)),
             yname + ": " + arch::vector_op_name(vop)});
        cc.stores.push_back(
            {store_dma(a[1], y_ddr + uint64_t((pl * H + h0) * fh * out_row * ey), uint64_t(n * fh * out_row * ey)),
             yname + " -> DDR"});
        return cc;
    };
    lower_vector_stream(ctx, op, s);
}

}  // namespace

void lower_upsample(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    if (op.attrs.at("mode").as<UpsampleMode>() == UpsampleMode::Bilinear) return lower_upsample_bilinear(ctx, op);
    const Planes p = planes_of(x, y);
    const int64_t ex = arch::dtype_bytes(x.dtype), ey = arch::dtype_bytes(y.dtype);
    const uint64_t x_ddr = ctx.ddr_addr(op.inputs[0]);
    const int out = op.output;
    const VectorOp vop = x.dtype == y.dtype ? VectorOp::Copy : VectorOp::Cast;
    // The copy writes output rows: W*fw elements (times C for NHWC).
    const int64_t cols = y.layout == "NHWC" ? y.shape[2] * y.shape[3] : y.shape[3];
    VectorStream s;
    s.name = y.name;
    s.units = p.count;
    s.buffers.push_back({BufferKind::Streamed, std::max(p.in * ex, p.out * ex), 0});  // x, read replicated
    s.buffers.push_back({BufferKind::Streamed, p.out * ey, 0});                       // y
    // Output (oy, ox) of a plane reads input (oy / fh, ox / fw): the plane
    // viewed as (H, fh, W, fw[, C]) with stride 0 on the factors.
    const bool nhwc = y.layout == "NHWC";
    const std::vector<int64_t>& f = op.attrs.at("factor").ints;
    const int64_t H = nhwc ? x.shape[1] : x.shape[2], W = nhwc ? x.shape[2] : x.shape[3], C = nhwc ? x.shape[3] : 1;
    std::vector<uint32_t> dims{0, uint32_t(H), uint32_t(f[0]), uint32_t(W), uint32_t(f[1])};
    std::vector<int64_t> strides{H * W * C, W * C, 0, C, 0};
    if (nhwc) dims.push_back(uint32_t(C)), strides.push_back(1);
    if (max_chunk_units(ctx, s.buffers) == 0 && !ctx.in_place(out))
        return lower_upsample_bands(ctx, op, H, W, C, f[0], f[1], dims, strides);
    s.chunk = [&ctx, p, ex, x_ddr, vop, cols, out, dims, strides, xname = x.name, yname = y.name, xt = x.dtype,
               yt = y.dtype](int64_t first, int64_t n, const BufferAddrs& a) {
        ChunkCommands cc;
        cc.loads.push_back(
            {load_dma(x_ddr + uint64_t(first * p.in * ex), a[0], uint64_t(n * p.in * ex)), xname + " -> L1"});
        std::vector<uint32_t> chunk_dims = dims;
        chunk_dims[0] = uint32_t(n);
        cc.compute.push_back({with_sources(cast_args(xt, yt, n * p.out / cols, cols, a[0], a[1]),
                                           strided_source(0, chunk_dims, strides)),
                              yname + ": " + arch::vector_op_name(vop)});
        store_units(cc, ctx, out, p.out, first, n, a[1]);
        return cc;
    };
    lower_vector_stream(ctx, op, s);
}

}  // namespace dsl
