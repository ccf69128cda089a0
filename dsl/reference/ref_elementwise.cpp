// Reference kernels of the element-wise operations: one function per
// element, binary ones with NumPy broadcasting or a number operand.
#include <algorithm>
#include <cmath>

#include "dsl/reference/elementwise.h"
#include "dsl/reference/indexing.h"
#include "dsl/reference/kernels.h"

namespace dsl {

void ref_relu(const TaskGraph&, const OpNode&, const RefInputs& in, RefValues& y) {
    ref_each(in, y, [](double a) { return a < 0 ? 0.0 : a; });
}
void ref_gelu(const TaskGraph&, const OpNode&, const RefInputs& in, RefValues& y) {
    ref_each(in, y, [](double a) { return 0.5 * a * (1.0 + std::erf(a / std::sqrt(2.0))); });
}
void ref_sigmoid(const TaskGraph&, const OpNode&, const RefInputs& in, RefValues& y) {
    ref_each(in, y, [](double a) { return 1.0 / (1.0 + std::exp(-a)); });
}
void ref_tanh(const TaskGraph&, const OpNode&, const RefInputs& in, RefValues& y) {
    ref_each(in, y, [](double a) { return std::tanh(a); });
}
void ref_exp(const TaskGraph&, const OpNode&, const RefInputs& in, RefValues& y) {
    ref_each(in, y, [](double a) { return std::exp(a); });
}
void ref_sqrt(const TaskGraph&, const OpNode&, const RefInputs& in, RefValues& y) {
    ref_each(in, y, [](double a) { return std::sqrt(a); });
}
// The reference computes in float64: a cast changes nothing.
// Into an integer dtype: round half to even and saturate, as the vector
// unit's conversion does (sim/func/numerics.h); a float result is left
// exact (the check's tolerance covers its rounding).
void ref_cast(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const arch::DType t = g.tensors[size_t(op.output)].dtype;
    if (!arch::dtype_is_int(t)) return ref_each(in, y, [](double a) { return a; });
    const double lo = t == arch::DType::Int8 ? -128.0 : -2147483648.0;
    const double hi = t == arch::DType::Int8 ? 127.0 : 2147483647.0;
    ref_each(in, y, [lo, hi](double a) { return std::isnan(a) ? 0.0 : std::clamp(std::nearbyint(a), lo, hi); });
}

void ref_add(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    ref_broadcast(g, op, in, y, [](double a, double b) { return a + b; });
}
void ref_sub(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    ref_broadcast(g, op, in, y, [](double a, double b) { return a - b; });
}
void ref_mul(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    ref_broadcast(g, op, in, y, [](double a, double b) { return a * b; });
}
void ref_div(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    ref_broadcast(g, op, in, y, [](double a, double b) { return a / b; });
}
void ref_maximum(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    ref_broadcast(g, op, in, y, nan_maximum);
}
void ref_minimum(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    ref_broadcast(g, op, in, y, nan_minimum);
}
// NumPy's where over three broadcast operands: a float condition is true
// unless zero (NaN is true).
void ref_where(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const std::vector<int64_t>& ys = g.tensors[size_t(op.output)].shape;
    std::vector<int64_t> idx;
    auto at = [&](size_t k) {
        return (*in[k])[size_t(broadcast_offset(idx, ys, g.tensors[size_t(op.inputs[k])].shape))];
    };
    for (int64_t i = 0; i < int64_t(y.size()); ++i) {
        unravel(i, ys, idx);
        y[size_t(i)] = at(0) != 0.0 ? at(1) : at(2);
    }
}
void ref_clip(const TaskGraph&, const OpNode& op, const RefInputs& in, RefValues& y) {
    const double lo = op.attrs.at("lo").f, hi = op.attrs.at("hi").f;
    ref_each(in, y, [lo, hi](double a) { return nan_minimum(nan_maximum(a, lo), hi); });
}

}  // namespace dsl
