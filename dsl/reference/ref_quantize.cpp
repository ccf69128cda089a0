// quantize and dequantize with a scale per channel (the last axis) or one
// scale, shape (1,).
//   quantize:   q = saturate_int8(round_half_even(float32(x / scale)))
//   dequantize: y = q * scale
// quantize's quotient is rounded to float32 before it is rounded to an
// integer, as the vector unit divides (lower_vector_chain.cpp): the int8
// result is compared exactly, and a float64 quotient that lies within
// float32's rounding of a half-integer tie would round the other way. That
// needs x or the scale in float32: a quotient of normal float16 / bfloat16
// numbers that is not a tie lies at least 2^-12 from one, and float32
// rounds a quotient below 128 by at most 2^-18. Dividing in double and rounding
// the double to float32 gives float32's correctly rounded quotient (53 >=
// 2 * 24 + 2 bits), the same as the vector unit's float32 division.
#include <algorithm>
#include <cmath>

#include "dsl/reference/kernels.h"

namespace dsl {

namespace {

// The scale of element i of a tensor whose last axis has `c` elements.
double scale_of(const RefValues& s, int64_t c, size_t i) { return s.size() == 1 ? s[0] : s[i % size_t(c)]; }

int64_t channels(const TaskGraph& g, const OpNode& op) {
    const std::vector<int64_t>& shape = g.tensors[size_t(op.inputs[0])].shape;
    return shape.empty() ? 1 : shape.back();
}

}  // namespace

void ref_quantize(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const RefValues& x = *in[0];
    const RefValues& s = *in[1];
    const int64_t c = channels(g, op);
    for (size_t i = 0; i < x.size(); ++i) {
        const float quotient = float(x[i] / scale_of(s, c, i));
        y[i] = std::isnan(quotient) ? 0.0 : std::clamp(std::nearbyint(double(quotient)), -128.0, 127.0);
    }
}

void ref_dequantize(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const RefValues& q = *in[0];
    const RefValues& s = *in[1];
    const int64_t c = channels(g, op);
    for (size_t i = 0; i < q.size(); ++i) y[i] = q[i] * scale_of(s, c, i);
}

}  // namespace dsl
