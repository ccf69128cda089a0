// Resize (opsets 11 to 17) as the language's upsample: mode 'nearest'
// copies input row o / f (floor), mode 'bilinear' is ONNX's 'linear' with
// half-pixel coordinates (docs/language.md, upsample), both by integer
// factors of H and W. A Resize is mapped only where ONNX's definition gives
// exactly those values; every other form is refused with the reason.
#include <string>
#include <vector>

#include "dsl/import/onnx_names.h"
#include "dsl/import/onnx_ops.h"

namespace dsl::onnx_ops {

namespace {

int64_t floor_div(int64_t p, int64_t q) {  // q > 0
    return p / q - ((p % q != 0) && (p < 0));
}

// The input index ONNX's nearest mode picks for output index o = r (0 <= r
// < f) of an axis scaled by integer factor f, computed exactly: the source
// coordinate is the fraction p / q, then rounded as `rounding` says. For
// these coordinate transformations output o = k * f + r maps to k plus
// what r maps to, so the Resize is the language's copy of row o / f exactly
// when every r in [0, f) maps to 0. f is at most kMaxDim (2^28), so the
// arithmetic below stays far inside int64.
int64_t nearest_index(const std::string& transform, const std::string& rounding, int64_t r, int64_t f) {
    int64_t p, q;
    if (transform == "asymmetric") p = r, q = f;                             // o / f
    else if (transform == "tf_half_pixel_for_nn") p = 2 * r + 1, q = 2 * f;  // (o + 0.5) / f
    else p = 2 * r + 1 - f, q = 2 * f;  // half_pixel, pytorch_half_pixel: (o + 0.5) / f - 0.5
    if (rounding == "floor") return floor_div(p, q);
    if (rounding == "ceil") return -floor_div(-p, q);
    if (rounding == "round_prefer_ceil") return floor_div(2 * p + q, 2 * q);  // floor(x + 0.5)
    return -floor_div(-(2 * p - q), 2 * q);                                   // round_prefer_floor: ceil(x - 0.5)
}

}  // namespace

void resize(OnnxTranslator& t, const onnx::NodeProto& n) {
    if (t.opset() < 11)
        t.fail(n, "opset " + std::to_string(t.opset()) +
                      " Resize is not mapped: it does not say how output coordinates map to input ones "
                      "(coordinate_transformation_mode came with opset 11); export with opset 11 or later");
    t.only_attrs(n, {"coordinate_transformation_mode", "cubic_coeff_a", "exclude_outside", "extrapolation_value",
                     "mode", "nearest_mode"});
    // cubic_coeff_a and exclude_outside act in mode 'cubic' only, extrapolation_value and roi
    // (input 1) with 'tf_crop_and_resize' only: both are refused below.
    const std::string mode = t.attr_string(n, "mode", "nearest");
    const std::string transform = t.attr_string(n, "coordinate_transformation_mode", "half_pixel");
    const std::string rounding = t.attr_string(n, "nearest_mode", "round_prefer_floor");
    if (mode != "nearest" && mode != "linear")
        t.fail(n, "mode '" + comment_text(mode) +
                      "' is not mapped: the language's upsample is nearest or bilinear (ONNX's 'linear')");
    const bool half_pixel = transform == "half_pixel" || transform == "pytorch_half_pixel";
    if (!half_pixel && (mode == "linear" || (transform != "asymmetric" && transform != "tf_half_pixel_for_nn")))
        t.fail(n, "mode '" + mode + "' with coordinate_transformation_mode '" + comment_text(transform) +
                      "' is not mapped: the language's upsample reads input row o / f (nearest) or blends "
                      "around (o + 0.5) / f - 0.5 (bilinear, ONNX's half_pixel), whatever the image's size");
    if (mode == "nearest" && rounding != "round_prefer_floor" && rounding != "round_prefer_ceil" &&
        rounding != "floor" && rounding != "ceil")
        t.fail(n, "nearest_mode '" + comment_text(rounding) +
                      "' is not one of ONNX's (round_prefer_floor, round_prefer_ceil, floor, ceil)");

    const OnnxValue& x = t.tensor_input(n, 0);
    if (x.dims.size() != 4)
        t.fail(n, "its input has rank " + std::to_string(x.dims.size()) +
                      "; only 2-D images (N, C, H, W) are mapped (the language's upsample)");
    // scales (input 2) or sizes (input 3), exactly one: opsets 11 and 12
    // give an empty scales tensor with sizes.
    const bool has_scales = t.has_input(n, 2) && t.const_input(n, 2, "scales").count() > 0;
    const bool has_sizes = t.has_input(n, 3);
    if (has_scales == has_sizes)
        t.fail(n, has_scales ? "both scales and sizes are given; ONNX takes one" : "neither scales nor sizes is given");
    std::vector<int64_t> factor(4, 1);
    if (has_scales) {
        const ConstTensor& s = t.const_input(n, 2, "scales");
        if (s.count() != 4 || !s.is_float())
            t.fail(n, "scales must be 4 floats, one per axis of the input, got " + std::to_string(s.count()) + " " +
                          onnx_type_name(s.elem_type));
        for (size_t a = 0; a < 4; ++a) {
            const double v = s.values[a];
            const bool whole = v >= 1 && v <= double(kMaxDim) && v == double(int64_t(v));
            if (!whole || (a < 2 && v != 1))
                t.fail(n, "scales " + OnnxTranslator::number(s.values[0]) + ", " + OnnxTranslator::number(s.values[1]) +
                              ", " + OnnxTranslator::number(s.values[2]) + ", " + OnnxTranslator::number(s.values[3]) +
                              " are not mapped: the language's upsample scales H and W by integer factors (N and C "
                              "by 1)");
            factor[a] = int64_t(v);
        }
    } else {
        const std::vector<std::string> sizes = t.int_exprs(n, 3, "sizes");
        if (sizes.size() != 4)
            t.fail(n, "sizes must have 4 values, one per axis of the input, got " + std::to_string(sizes.size()));
        for (size_t a = 0; a < 4; ++a) {
            int64_t out;
            const bool known = OnnxTranslator::known_int(sizes[a], out);
            if (a < 2) {
                // N and C kept: the same number, or the same dimension of the input.
                if (known ? out != x.dims[a] : sizes[a] != OnnxTranslator::dim_text(x, a))
                    t.fail(n, "sizes change axis " + std::to_string(a) + " (" + sizes[a] + " from " +
                                  OnnxTranslator::dim_text(x, a) + "): the language's upsample scales H and W only");
                continue;
            }
            if (!known || x.dims[a] < 0)
                t.fail(n, "sizes " + sizes[a] + " of axis " + std::to_string(a) + " over the input's " +
                              OnnxTranslator::dim_text(x, a) +
                              " is not a factor known at import: the language's upsample takes integer factors");
            if (out < x.dims[a] || out % x.dims[a] != 0 || out / x.dims[a] > kMaxDim)
                t.fail(n, "sizes " + std::to_string(out) + " of axis " + std::to_string(a) + " over the input's " +
                              std::to_string(x.dims[a]) + " is not a whole factor (1 to " + std::to_string(kMaxDim) +
                              "): the language's upsample scales H and W by integer factors");
            factor[a] = out / x.dims[a];
        }
    }
    // The coordinate grows with r and every rounding is monotone: r = 0 and
    // r = f - 1 both reading 0 is every r reading 0.
    if (mode == "nearest")
        for (size_t a = 2; a < 4; ++a)
            for (const int64_t r : {int64_t(0), factor[a] - 1})
                if (const int64_t i = nearest_index(transform, rounding, r, factor[a]); i != 0)
                    t.fail(n, "nearest_mode '" + rounding + "' with coordinate_transformation_mode '" + transform +
                                  "' and factor " + std::to_string(factor[a]) + " reads input index " +
                                  std::to_string(i) + " for output index " + std::to_string(r) +
                                  ", where the language's nearest upsample copies index o / f (0): not mapped");

    std::vector<int64_t> dims = x.dims;
    for (size_t a = 2; a < 4; ++a)
        if (dims[a] >= 0) dims[a] *= factor[a];
    std::string call =
        "pypo.op.upsample(" + x.var + ", factor=" + OnnxTranslator::tuple(std::vector<int64_t>{factor[2], factor[3]});
    if (mode == "linear") call += ", mode=\"bilinear\"";
    t.emit(n, call + ")", dims, x.dtype);
}

}  // namespace dsl::onnx_ops
