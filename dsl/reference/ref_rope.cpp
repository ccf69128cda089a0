// rope: y = x * cos + rotate_half(x) * sin over the last axis, in float64;
// rotate_half(x) = concat(-x[..., HD/2:], x[..., :HD/2]), cos and sin (S, HD)
// broadcast over x's leading axes.
#include "dsl/reference/kernels.h"

namespace dsl {

void ref_rope(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const RefValues& x = *in[0];
    const RefValues& cos = *in[1];
    const RefValues& sin = *in[2];
    const std::vector<int64_t>& shape = g.tensors[size_t(op.inputs[0])].shape;
    const int64_t D = shape.back(), H = D / 2, S = shape[shape.size() - 2];
    for (int64_t o = 0; o * D < int64_t(x.size()); ++o) {
        const double* r = x.data() + o * D;
        const int64_t t = (o % S) * D;
        for (int64_t m = 0; m < D; ++m) {
            const double rotated = m < H ? -r[m + H] : r[m - H];
            y[size_t(o * D + m)] = r[m] * cos[size_t(t + m)] + rotated * sin[size_t(t + m)];
        }
    }
}

}  // namespace dsl
