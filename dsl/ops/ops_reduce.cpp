// reduce_sum, reduce_mean, reduce_max over one axis or a tuple of axes, and
// argmax over one. The axes are stored normalised (non-negative,
// ascending). Reducing every axis without keepdims leaves shape (1,): a
// tensor has at least one dimension.
#include <algorithm>

#include "dsl/ops/op_rules.h"
#include "dsl/ops/ops_operands.h"
#include "dsl/sema/arg_checks.h"

namespace dsl {

namespace {

// `shape` without the axes `axes` (sorted), or with them as 1 under
// keepdims; (1,) when nothing is left (a tensor has at least one dimension).
std::vector<int64_t> reduced_shape(const std::vector<int64_t>& shape, const std::vector<size_t>& axes, bool keepdims) {
    std::vector<int64_t> out;
    for (size_t k = 0; k < shape.size(); ++k) {
        if (!std::binary_search(axes.begin(), axes.end(), k)) out.push_back(shape[k]);
        else if (keepdims) out.push_back(1);
    }
    if (out.empty()) out.push_back(1);
    return out;
}

}  // namespace

Value rule_reduce(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature(op_name(call), {"x", "axis", "keepdims", "dtype", "layout"}, 2, {}, 2));
    Operand x = c.tensor("x", "x");
    const Arg& axis_arg = *c.get("axis");
    std::vector<size_t> axes;
    if (axis_arg.value.is(Value::Kind::Int)) {
        axes.push_back(c.axis(axis_arg.value.i, x, axis_arg.loc));
    } else {
        if (!axis_arg.value.is_sequence())
            c.fail_at(axis_arg.loc, "axis must be an integer or a tuple of integers, got " + type_name(axis_arg.value));
        std::vector<int64_t> given = int_list_arg(c.op(), axis_arg, "axis");
        if (given.empty()) c.fail_at(axis_arg.loc, "axis must name at least one axis");
        for (size_t k = 0; k < given.size(); ++k) {
            size_t a = c.axis(given[k], x, element_loc(axis_arg, k));
            if (std::find(axes.begin(), axes.end(), a) != axes.end())
                c.fail_at(element_loc(axis_arg, k), "axis " + std::to_string(a) + " is repeated");
            axes.push_back(a);
        }
    }
    std::sort(axes.begin(), axes.end());
    bool keepdims = false;
    if (const Arg* k = c.get("keepdims")) keepdims = bool_arg(c.op(), *k, "keepdims");

    std::vector<int64_t> shape = reduced_shape(x.shape, axes, keepdims);
    std::vector<int64_t> axis_attr(axes.begin(), axes.end());
    std::map<std::string, Attr> attrs{{"axis", Attr::list(axis_attr)}, {"keepdims", Attr::boolean(keepdims)}};
    // Only with keepdims do the output's axes still mean what the input's did.
    return c.record({x.tensor}, std::move(shape), c.dtype_or(x.dtype), std::move(attrs), keepdims ? x.layout : "");
}

// argmax(x, axis=-1, keepdims=False): the int32 index of the first largest
// element along one axis (NumPy's argmax: a NaN counts as the largest).
// Greedy sampling's last step: argmax(logits) over the vocabulary.
Value rule_argmax(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("argmax", {"x", "axis", "keepdims", "layout"}, 1, {}, 2));
    Operand x = c.tensor("x", "x");
    size_t axis = x.rank() - 1;
    if (const Arg* a = c.get("axis")) {
        if (!a->value.is(Value::Kind::Int)) c.fail_at(a->loc, "axis must be an integer, got " + type_name(a->value));
        axis = c.axis(a->value.i, x, a->loc);
    }
    bool keepdims = false;
    if (const Arg* k = c.get("keepdims")) keepdims = bool_arg(c.op(), *k, "keepdims");
    return c.record({x.tensor}, reduced_shape(x.shape, {axis}, keepdims), arch::DType::Int32,
                    {{"axis", Attr::integer(int64_t(axis))}, {"keepdims", Attr::boolean(keepdims)}},
                    keepdims ? x.layout : "");
}

}  // namespace dsl
