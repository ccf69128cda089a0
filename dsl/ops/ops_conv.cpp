// conv2d: x (N, C, H, W) (or (N, H, W, C) under layout='NHWC') with
// weights (O, C, kh, kw) gives (N, O, (H + 2ph - kh) // sh + 1,
// (W + 2pw - kw) // sw + 1). stride and padding are stored as pairs.
// rounding='ceil' (SCALE-Sim's convention, for --op conv2d and --topology)
// rounds up instead: ceil((H + 2ph - kh) / sh) + 1; the windows past the
// input's last row or column read zeros.
#include <optional>

#include "dsl/ops/op_rules.h"
#include "dsl/ops/ops_operands.h"
#include "dsl/sema/arg_checks.h"

namespace dsl {

Value rule_conv2d(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call,
             Signature("conv2d",
                       {"x", "w", "stride", "padding", "groups", "bias", "dilation", "rounding", "dtype", "layout"}, 2,
                       {}, 2));
    Operand x = c.tensor("x", "input");
    Operand w = c.tensor("w", "weight");
    c.require_image(x);
    if (w.rank() != 4) c.fail_at(w.loc, w.name + " must be 4-D weights (O, C, kh, kw), got " + w.described);
    OpCall::ImageAxes ax = c.image_axes(x);
    std::string both = x.text() + ", " + w.text();
    int64_t groups = 1;
    if (const Arg* g = c.get("groups")) groups = int_arg(c.op(), *g, "groups", 1);
    const int64_t C = x.shape[ax.c], O = w.shape[0];
    if (groups == 1 && C != w.shape[1]) c.fail("channels differ: " + both);
    if (C % groups != 0) c.fail("groups=" + std::to_string(groups) + " does not divide the input's channels: " + both);
    if (O % groups != 0) c.fail("groups=" + std::to_string(groups) + " does not divide the filters: " + both);
    if (groups > 1 && w.shape[1] != C / groups)
        c.fail("with groups=" + std::to_string(groups) + " the weights must be (O, C/groups, kh, kw) with C/groups = " +
               std::to_string(C / groups) + ": " + both);
    const bool depthwise = groups > 1 && groups == C && O == C;
    if (groups > 1 && !depthwise)
        c.fail("groups=" + std::to_string(groups) +
               " is not lowered yet (only groups=1, and depthwise: groups = channels = filters): " + both);
    std::optional<Operand> bias;
    if (c.get("bias")) {
        bias = c.tensor("bias", "bias");
        if (bias->shape != std::vector<int64_t>{O})
            c.fail_at(bias->loc,
                      "bias must be (O,) = (" + std::to_string(O) + ",), one value per filter, got " + bias->described);
    }

    // dilation=(dh, dw) spreads the taps dh rows and dw columns apart: the
    // window spans (kh - 1) * dh + 1 rows, which is what the output size
    // and padding='same' see.
    std::vector<int64_t> dilation{1, 1};
    if (const Arg* d = c.get("dilation")) dilation = int_pair_arg(c.op(), *d, "dilation", 1);
    std::vector<int64_t> kernel{c.add(c.mul(w.shape[2] - 1, dilation[0]), 1),
                                c.add(c.mul(w.shape[3] - 1, dilation[1]), 1)};
    std::vector<int64_t> stride{1, 1}, padding{0, 0};
    if (const Arg* s = c.get("stride")) stride = int_pair_arg(c.op(), *s, "stride", 1);
    if (const Arg* p = c.get("padding"))
        padding = padding_arg(
            c, *p, kernel,
            dilation == std::vector<int64_t>{1, 1} ? "kernel: " + w.text() : "dilated kernel: " + shape_text(kernel));

    Rounding rounding = Rounding::Floor;
    if (const Arg* r = c.get("rounding"))
        rounding = choice_from_name<Rounding>(choice_arg(c.op(), *r, "rounding", choice_names<Rounding>()));
    int64_t oh = window_positions(c, x.shape[ax.h], padding[0], kernel[0], stride[0]);
    int64_t ow = window_positions(c, x.shape[ax.w], padding[1], kernel[1], stride[1]);
    // Rounding up adds the window that starts within the last stride.
    auto ceil_extra = [&](int64_t size, int64_t pad, int64_t window, int64_t s) {
        const int64_t span = c.add(size, c.mul(2, pad)) - window;
        return span >= 0 && span % s != 0 ? 1 : 0;
    };
    if (depthwise && rounding == Rounding::Ceil) c.fail("rounding='ceil' is not lowered for depthwise (groups > 1)");
    if (rounding == Rounding::Ceil) {
        oh += ceil_extra(x.shape[ax.h], padding[0], kernel[0], stride[0]);
        ow += ceil_extra(x.shape[ax.w], padding[1], kernel[1], stride[1]);
    }
    if (oh == 0 || ow == 0)
        c.fail("the kernel is larger than the padded input: " + both + ", padding " + shape_text(padding));

    std::vector<int64_t> shape = x.shape;
    shape[ax.c] = w.shape[0];
    shape[ax.h] = oh;
    shape[ax.w] = ow;
    std::map<std::string, Attr> attrs{{"stride", Attr::list(stride)}, {"padding", Attr::list(padding)}};
    if (rounding == Rounding::Ceil) attrs.emplace("rounding", Attr::choice(rounding));
    if (dilation != std::vector<int64_t>{1, 1}) attrs.emplace("dilation", Attr::list(dilation));
    // Mixed float dtypes promote to the wider one, as for matmul.
    arch::DType dtype = c.dtype_or(wider_dtype(x.dtype, w.dtype));
    if (depthwise) {
        attrs.emplace("groups", Attr::integer(groups));
        std::vector<int> inputs{x.tensor, w.tensor};
        if (bias) inputs.push_back(bias->tensor);
        Value out = c.record_as(OpKind::DepthwiseConv2d, std::move(inputs), std::move(shape), dtype, std::move(attrs),
                                x.layout);
        c.promote_operands(out);
        return out;
    }
    // The bias broadcast over the output's channel axis: (O,) in NHWC,
    // viewed as (O, 1, 1) in NCHW, the view made before the convolution so
    // that the fusion pass sees it ready when the GEMM starts.
    const Arg* layout_given = c.get("layout");
    const std::string layout = layout_given ? layout_arg(c.op(), *layout_given, shape) : x.layout;
    int b = bias ? bias->tensor : -1;
    if (bias && layout != "NHWC") b = c.lib().add_op(OpKind::Reshape, {b}, {O, 1, 1}, bias->dtype, {}, call.loc);
    Value out = c.record({x.tensor, w.tensor}, shape, dtype, std::move(attrs), x.layout);
    c.promote_operands(out);
    if (!bias) return out;
    const int sum = c.lib().add_op(OpKind::Add, {out.tensor, b}, shape, dtype, {}, call.loc);
    c.lib().mutable_tensor(sum).layout = layout;
    Value result = Value::tensor_ref(sum);
    c.promote_operands(result);
    return result;
}

}  // namespace dsl
