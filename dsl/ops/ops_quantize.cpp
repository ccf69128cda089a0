// Symmetric quantisation: quantize(x, scale, dtype='int8') and
// dequantize(q, scale, dtype='float16'). The scale is per channel along the
// last axis, shape (C,) for x (..., C), or one scale for every element,
// shape (1,); a float tensor either way (it is a model's calibrated
// parameter, not a number of the program). quantize makes int8 alone (the
// only integer dtype narrower than the int32 accumulator; an int32 quantum
// of a float is not a deployment format) and dequantize gives any float
// dtype.
#include "dsl/ops/op_rules.h"
#include "dsl/ops/ops_operands.h"
#include "dsl/sema/arg_checks.h"

namespace dsl {

namespace {

// The scale's shape rule shared by both: (C,) or (1,) for an input (..., C).
Operand scale_operand(const OpCall& c, const Operand& x) {
    Operand s = c.tensor("scale", "scale");
    if (arch::dtype_is_int(s.dtype)) c.fail_at(s.loc, "scale must be a float tensor: " + s.text());
    const std::vector<int64_t> per_channel{x.shape.empty() ? 1 : x.shape.back()};
    if (s.shape != per_channel && s.shape != std::vector<int64_t>{1})
        c.fail_at(s.loc, "scale must have shape " + shape_text(per_channel) +
                             " (one per channel, the last axis of the input) or (1,): " + s.text() + ", " + x.text());
    return s;
}

}  // namespace

Value rule_quantize(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("quantize", {"x", "scale", "dtype", "layout"}, 2, {}, 3));
    Operand x = c.tensor("x", "x");
    if (arch::dtype_is_int(x.dtype)) c.fail_at(x.loc, "x must be a float tensor: " + x.text());
    Operand s = scale_operand(c, x);
    const arch::DType t = c.dtype_or(arch::DType::Int8);
    if (t != arch::DType::Int8)
        c.fail_at(c.get("dtype")->loc, std::string("dtype must be int8, got ") + arch::dtype_name(t));
    return c.record({x.tensor, s.tensor}, x.shape, t, {}, x.layout);
}

Value rule_dequantize(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("dequantize", {"q", "scale", "dtype", "layout"}, 2, {}, 3));
    Operand q = c.tensor("q", "q");
    if (q.dtype != arch::DType::Int8) c.fail_at(q.loc, "q must be an int8 tensor: " + q.text());
    Operand s = scale_operand(c, q);
    const arch::DType t = c.dtype_or(arch::DType::Float16);
    if (arch::dtype_is_int(t))
        c.fail_at(c.get("dtype")->loc, std::string("dtype must be a float dtype, got ") + arch::dtype_name(t));
    return c.record({q.tensor, s.tensor}, q.shape, t, {}, q.layout);
}

}  // namespace dsl
