// rms_norm: y = x / sqrt(mean(x^2) + eps) * weight over the last axis, in
// float64.
#include <cmath>

#include "dsl/reference/kernels.h"

namespace dsl {

void ref_rms_norm(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const RefValues& x = *in[0];
    const RefValues& w = *in[1];
    const int64_t D = g.tensors[size_t(op.inputs[0])].shape.back();
    const double eps = op.attrs.at("eps").f;
    for (int64_t o = 0; o * D < int64_t(x.size()); ++o) {
        const double* r = x.data() + o * D;
        double sq = 0;
        for (int64_t m = 0; m < D; ++m) sq += r[m] * r[m];
        const double inv = 1.0 / std::sqrt(sq / double(D) + eps);
        for (int64_t m = 0; m < D; ++m) y[size_t(o * D + m)] = r[m] * inv * w[size_t(m)];
    }
}

}  // namespace dsl
