// Reference kernels of the operations on images: conv2d, batch_norm,
// pooling, slide, pixel_shuffle and upsample, on (N, C, H, W) or, for a
// tensor labelled NHWC, (N, H, W, C) — the axes the program's shapes use.
#include <algorithm>
#include <cmath>
#include <limits>

#include "dsl/reference/kernels.h"

namespace dsl {

namespace {

// Element (n, c, h, w) of an image of shape `s` in either order.
struct Image {
    int64_t N, C, H, W;
    bool nhwc;
    Image(const std::vector<int64_t>& s, bool channels_last)
        : N(s[0]),
          C(channels_last ? s[3] : s[1]),
          H(channels_last ? s[1] : s[2]),
          W(channels_last ? s[2] : s[3]),
          nhwc(channels_last) {}
    size_t at(int64_t n, int64_t c, int64_t h, int64_t w) const {
        return size_t(nhwc ? ((n * H + h) * W + w) * C + c : ((n * C + c) * H + h) * W + w);
    }
};

bool nhwc(const TensorNode& t) { return t.layout == "NHWC"; }

// groups=G: filter o reads the C/G channels of its group; a bias (of a
// depthwise_conv2d) starts each output channel's sum.
void conv2d(const TaskGraph& g, const OpNode& op, const RefValues& x, const RefValues& wt, const RefValues* bias,
            RefValues& y) {
    const TensorNode& xt = g.tensors[size_t(op.inputs[0])];
    const TensorNode& yt = g.tensors[size_t(op.output)];
    // As the front end reads the axes: the call's layout= (the output's
    // label), else the input's.
    const bool channels_last = yt.layout == "NHWC" || (yt.layout != "NCHW" && xt.layout == "NHWC");
    const Image X(xt.shape, channels_last), Y(yt.shape, channels_last);
    const auto& ws = g.tensors[size_t(op.inputs[1])].shape;  // (O, C, kh, kw)
    const int64_t kh = ws[2], kw = ws[3];
    const auto& st = op.attrs.at("stride").ints;
    const auto& pd = op.attrs.at("padding").ints;
    const auto dilation_at = op.attrs.find("dilation");
    const int64_t dh = dilation_at == op.attrs.end() ? 1 : dilation_at->second.ints[0];
    const int64_t dw = dilation_at == op.attrs.end() ? 1 : dilation_at->second.ints[1];
    const auto groups_at = op.attrs.find("groups");
    const int64_t groups = groups_at == op.attrs.end() ? 1 : groups_at->second.i;
    const int64_t per_group = X.C / groups, filters_per_group = Y.C / groups;
    for (int64_t n = 0; n < Y.N; ++n)
        for (int64_t o = 0; o < Y.C; ++o)
            for (int64_t oy = 0; oy < Y.H; ++oy)
                for (int64_t ox = 0; ox < Y.W; ++ox) {
                    double acc = bias ? (*bias)[size_t(o)] : 0.0;
                    const int64_t c0 = o / filters_per_group * per_group;
                    for (int64_t c = c0; c < c0 + per_group; ++c)
                        for (int64_t ky = 0; ky < kh; ++ky) {
                            const int64_t iy = oy * st[0] - pd[0] + ky * dh;
                            if (iy < 0 || iy >= X.H) continue;
                            for (int64_t kx = 0; kx < kw; ++kx) {
                                const int64_t ix = ox * st[1] - pd[1] + kx * dw;
                                if (ix < 0 || ix >= X.W) continue;
                                acc +=
                                    x[X.at(n, c, iy, ix)] * wt[size_t(((o * per_group + c - c0) * kh + ky) * kw + kx)];
                            }
                        }
                    y[Y.at(n, o, oy, ox)] = acc;
                }
}

void pool(const TaskGraph& g, const OpNode& op, const RefValues& x, RefValues& y) {
    const TensorNode& yt = g.tensors[size_t(op.output)];
    const Image X(g.tensors[size_t(op.inputs[0])].shape, nhwc(yt)), Y(yt.shape, nhwc(yt));
    const auto& win = op.attrs.at("window").ints;
    const auto& st = op.attrs.at("stride").ints;
    const auto& pd = op.attrs.at("padding").ints;
    const bool max = op.kind == OpKind::MaxPool;
    for (int64_t n = 0; n < Y.N; ++n)
        for (int64_t c = 0; c < Y.C; ++c)
            for (int64_t oy = 0; oy < Y.H; ++oy)
                for (int64_t ox = 0; ox < Y.W; ++ox) {
                    // Max ignores the padding; the average counts it as zeros.
                    double acc = max ? -std::numeric_limits<double>::infinity() : 0.0;
                    for (int64_t ky = 0; ky < win[0]; ++ky)
                        for (int64_t kx = 0; kx < win[1]; ++kx) {
                            const int64_t iy = oy * st[0] - pd[0] + ky, ix = ox * st[1] - pd[1] + kx;
                            if (iy < 0 || ix < 0 || iy >= X.H || ix >= X.W) continue;
                            const double v = x[X.at(n, c, iy, ix)];
                            acc = max ? ((std::isnan(v) || v > acc) ? v : acc) : acc + v;
                        }
                    y[Y.at(n, c, oy, ox)] = max ? acc : acc / double(win[0] * win[1]);
                }
}

}  // namespace

void ref_conv2d(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    conv2d(g, op, *in[0], *in[1], in.size() > 2 ? in[2] : nullptr, y);
}

// max_pool and avg_pool.
void ref_pool(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) { pool(g, op, *in[0], y); }

void ref_batch_norm(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const TensorNode& xt = g.tensors[size_t(op.inputs[0])];
    const TensorNode& yt = g.tensors[size_t(op.output)];
    const RefValues& x = *in[0];
    // Inference: y = x * scale + shift per channel (the statistics folded in).
    const size_t channel = xt.shape.size() == 4 && nhwc(yt) ? 3 : 1;
    int64_t inner = 1;
    for (size_t k = channel + 1; k < xt.shape.size(); ++k) inner *= xt.shape[k];
    const int64_t C = xt.shape[channel];
    for (size_t i = 0; i < y.size(); ++i) {
        const size_t c = size_t(int64_t(i) / inner % C);
        y[i] = x[i] * (*in[1])[c] + (*in[2])[c];
    }
}

void ref_global_avg_pool(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const TensorNode& xt = g.tensors[size_t(op.inputs[0])];
    const TensorNode& yt = g.tensors[size_t(op.output)];
    const RefValues& x = *in[0];
    const Image X(xt.shape, nhwc(yt));
    for (int64_t n = 0; n < X.N; ++n)
        for (int64_t c = 0; c < X.C; ++c) {
            double s = 0;
            for (int64_t h = 0; h < X.H; ++h)
                for (int64_t w = 0; w < X.W; ++w) s += x[X.at(n, c, h, w)];
            y[size_t(n * X.C + c)] = s / double(X.H * X.W);
        }
}

void ref_slide(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const TensorNode& xt = g.tensors[size_t(op.inputs[0])];
    const TensorNode& yt = g.tensors[size_t(op.output)];
    const RefValues& x = *in[0];
    // (..., H, W) -> (..., OH, OW, kh, kw)
    const size_t r = yt.shape.size();
    const int64_t OH = yt.shape[r - 4], OW = yt.shape[r - 3], kh = yt.shape[r - 2], kw = yt.shape[r - 1];
    const int64_t H = xt.shape[xt.shape.size() - 2], W = xt.shape.back();
    const auto& st = op.attrs.at("stride").ints;
    const int64_t planes = int64_t(x.size()) / (H * W);
    size_t o = 0;
    for (int64_t p = 0; p < planes; ++p)
        for (int64_t i = 0; i < OH; ++i)
            for (int64_t j = 0; j < OW; ++j)
                for (int64_t a = 0; a < kh; ++a)
                    for (int64_t b = 0; b < kw; ++b) y[o++] = x[size_t((p * H + i * st[0] + a) * W + j * st[1] + b)];
}

void ref_pixel_shuffle(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const TensorNode& xt = g.tensors[size_t(op.inputs[0])];
    const TensorNode& yt = g.tensors[size_t(op.output)];
    const RefValues& x = *in[0];
    const int64_t f = op.attrs.at("factor").i;
    const Image X(xt.shape, nhwc(yt)), Y(yt.shape, nhwc(yt));
    for (int64_t n = 0; n < Y.N; ++n)
        for (int64_t c = 0; c < Y.C; ++c)
            for (int64_t h = 0; h < Y.H; ++h)
                for (int64_t w = 0; w < Y.W; ++w)
                    y[Y.at(n, c, h, w)] = x[X.at(n, (c * f + h % f) * f + w % f, h / f, w / f)];
}

void ref_upsample(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const TensorNode& xt = g.tensors[size_t(op.inputs[0])];
    const TensorNode& yt = g.tensors[size_t(op.output)];
    const RefValues& x = *in[0];
    const auto& f = op.attrs.at("factor").ints;
    const Image X(xt.shape, nhwc(yt)), Y(yt.shape, nhwc(yt));
    if (op.attrs.at("mode").as<UpsampleMode>() == UpsampleMode::Bilinear) {
        // ONNX Resize, linear, half_pixel: source coordinate (o + 0.5) / f
        // - 0.5 between its two neighbours, indices clamped to the edge.
        struct Tap {
            int64_t i0, i1;
            double w1;
        };
        auto taps = [](int64_t o, int64_t f, int64_t n) {
            const double s = (double(o) + 0.5) / double(f) - 0.5, fl = std::floor(s);
            const int64_t i = int64_t(fl);
            return Tap{std::clamp<int64_t>(i, 0, n - 1), std::clamp<int64_t>(i + 1, 0, n - 1), s - fl};
        };
        for (int64_t n = 0; n < Y.N; ++n)
            for (int64_t c = 0; c < Y.C; ++c)
                for (int64_t h = 0; h < Y.H; ++h) {
                    const Tap ty = taps(h, f[0], X.H);
                    for (int64_t w = 0; w < Y.W; ++w) {
                        const Tap tx = taps(w, f[1], X.W);
                        auto at = [&](int64_t yy, int64_t xx) { return double(x[X.at(n, c, yy, xx)]); };
                        const double top = at(ty.i0, tx.i0) * (1 - tx.w1) + at(ty.i0, tx.i1) * tx.w1;
                        const double bottom = at(ty.i1, tx.i0) * (1 - tx.w1) + at(ty.i1, tx.i1) * tx.w1;
                        y[Y.at(n, c, h, w)] = top * (1 - ty.w1) + bottom * ty.w1;
                    }
                }
        return;
    }
    for (int64_t n = 0; n < Y.N; ++n)
        for (int64_t c = 0; c < Y.C; ++c)
            for (int64_t h = 0; h < Y.H; ++h)
                for (int64_t w = 0; w < Y.W; ++w) y[Y.at(n, c, h, w)] = x[X.at(n, c, h / f[0], w / f[1])];
}

}  // namespace dsl
