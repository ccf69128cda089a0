// Pooling over an image's H and W: max_pool and avg_pool slide a window
// (stride defaults to the window: non-overlapping); global_avg_pool
// averages each channel to (N, C, 1, 1).
#include "dsl/ops/op_rules.h"
#include "dsl/ops/ops_operands.h"
#include "dsl/sema/arg_checks.h"

namespace dsl {

Value rule_pool(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature(op_name(call), {"x", "window", "stride", "padding", "dtype", "layout"}, 1, {}, 2));
    Operand x = c.tensor("x", "x");
    c.require_image(x);
    OpCall::ImageAxes ax = c.image_axes(x);
    std::vector<int64_t> window{2, 2};
    if (const Arg* w = c.get("window")) window = int_pair_arg(c.op(), *w, "window", 1);
    std::vector<int64_t> stride = window;
    if (const Arg* s = c.get("stride"); s && !s->value.is(Value::Kind::None))
        stride = int_pair_arg(c.op(), *s, "stride", 1);
    std::vector<int64_t> padding{0, 0};
    if (const Arg* p = c.get("padding")) {
        padding = padding_arg(c, *p, window, "window, got " + shape_text(window));
        // A window over padding alone would pool nothing but padding.
        if (padding[0] > window[0] / 2 || padding[1] > window[1] / 2)
            c.fail_at(p->loc,
                      "padding " + shape_text(padding) + " must be at most half the window " + shape_text(window));
    }
    int64_t oh = window_positions(c, x.shape[ax.h], padding[0], window[0], stride[0]);
    int64_t ow = window_positions(c, x.shape[ax.w], padding[1], window[1], stride[1]);
    if (oh == 0 || ow == 0)
        c.fail("the window " + shape_text(window) + " is larger than the padded input: " + x.text() + ", padding " +
               shape_text(padding));
    std::vector<int64_t> shape = x.shape;
    shape[ax.h] = oh;
    shape[ax.w] = ow;
    std::map<std::string, Attr> attrs{
        {"window", Attr::list(window)}, {"stride", Attr::list(stride)}, {"padding", Attr::list(padding)}};
    return c.record({x.tensor}, std::move(shape), c.dtype_or(x.dtype), std::move(attrs), x.layout);
}

Value rule_global_avg_pool(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("global_avg_pool", {"x", "dtype", "layout"}, 1, {}, 1));
    Operand x = c.tensor("x", "x");
    c.require_image(x);
    OpCall::ImageAxes ax = c.image_axes(x);
    std::vector<int64_t> shape = x.shape;
    shape[ax.h] = 1;
    shape[ax.w] = 1;
    return c.record({x.tensor}, std::move(shape), c.dtype_or(x.dtype), {}, x.layout);
}

}  // namespace dsl
