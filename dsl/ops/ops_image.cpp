// Image-shaped data operations: slide (sliding-window patches),
// pixel_shuffle (super-resolution's depth-to-space) and upsample.
#include "dsl/ops/op_rules.h"
#include "dsl/ops/ops_operands.h"
#include "dsl/sema/arg_checks.h"

namespace dsl {

// slide(img, window=(kh, kw), stride=(sh, sw)): img is (H, W), (C, H, W) or
// (N, C, H, W) — the last two axes are H and W. The result views every
// window position without copying: (..., out_h, out_w, kh, kw) with
// out_h = (H - kh) // sh + 1 and out_w = (W - kw) // sw + 1, so
// patches[i, j] is the kh x kw window whose corner is (i * sh, j * sw).
Value rule_slide(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("slide", {"img", "window", "stride", "layout"}, 1, {}, 1));
    Operand img = c.tensor("img", "img");
    if (img.rank() < 2 || img.rank() > 4)
        c.fail_at(img.loc, img.name + " must be an image (H, W), (C, H, W) or (N, C, H, W), got " + img.described);
    std::vector<int64_t> window{3, 3}, stride{1, 1};
    if (const Arg* w = c.get("window")) window = int_pair_arg(c.op(), *w, "window", 1);
    if (const Arg* s = c.get("stride")) stride = int_pair_arg(c.op(), *s, "stride", 1);
    size_t h = img.rank() - 2, w = img.rank() - 1;
    int64_t oh = window_positions(c, img.shape[h], 0, window[0], stride[0]);
    int64_t ow = window_positions(c, img.shape[w], 0, window[1], stride[1]);
    if (oh == 0 || ow == 0) c.fail("the window " + shape_text(window) + " is larger than the image: " + img.text());
    std::vector<int64_t> shape(img.shape.begin(), img.shape.end() - 2);
    shape.insert(shape.end(), {oh, ow, window[0], window[1]});
    std::map<std::string, Attr> attrs{{"window", Attr::list(window)}, {"stride", Attr::list(stride)}};
    return c.record({img.tensor}, std::move(shape), img.dtype, std::move(attrs));
}

// (N, C * r * r, H, W) -> (N, C, H * r, W * r).
Value rule_pixel_shuffle(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("pixel_shuffle", {"x", "factor", "layout"}, 2, {}, 2));
    Operand x = c.tensor("x", "x");
    c.require_image(x);
    OpCall::ImageAxes ax = c.image_axes(x);
    int64_t r = int_arg(c.op(), *c.get("factor"), "factor", 1);
    int64_t r2 = c.mul(r, r);
    if (x.shape[ax.c] % r2 != 0)
        c.fail("channels are not a multiple of factor * factor = " + std::to_string(r2) + ": " + x.text());
    std::vector<int64_t> shape = x.shape;
    shape[ax.c] /= r2;
    shape[ax.h] = c.mul(shape[ax.h], r);
    shape[ax.w] = c.mul(shape[ax.w], r);
    return c.record({x.tensor}, std::move(shape), x.dtype, {{"factor", Attr::integer(r)}}, x.layout);
}

// (N, C, H, W) -> (N, C, H * fh, W * fw); factor is stored as (fh, fw).
Value rule_upsample(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("upsample", {"x", "factor", "mode", "dtype", "layout"}, 1, {}, 2));
    Operand x = c.tensor("x", "x");
    c.require_image(x);
    OpCall::ImageAxes ax = c.image_axes(x);
    std::vector<int64_t> factor{2, 2};
    if (const Arg* f = c.get("factor")) factor = int_pair_arg(c.op(), *f, "factor", 1);
    UpsampleMode mode = UpsampleMode::Nearest;
    if (const Arg* m = c.get("mode"))
        mode = choice_from_name<UpsampleMode>(choice_arg(c.op(), *m, "mode", choice_names<UpsampleMode>()));
    std::vector<int64_t> shape = x.shape;
    shape[ax.h] = c.mul(shape[ax.h], factor[0]);
    shape[ax.w] = c.mul(shape[ax.w], factor[1]);
    std::map<std::string, Attr> attrs{{"factor", Attr::list(factor)}, {"mode", Attr::choice(mode)}};
    return c.record({x.tensor}, std::move(shape), c.dtype_or(x.dtype), std::move(attrs), x.layout);
}

}  // namespace dsl
