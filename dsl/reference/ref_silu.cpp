// silu(x) = x * sigmoid(x) = x / (1 + exp(-x)), and SwiGLU's silu(gate) * up.
#include <cmath>

#include "dsl/reference/elementwise.h"

namespace dsl {

void ref_silu(const TaskGraph&, const OpNode&, const RefInputs& in, RefValues& y) {
    ref_each(in, y, [](double a) { return a / (1.0 + std::exp(-a)); });
}

// swiglu(gate, up) = silu(gate) * up (the shapes are equal).
void ref_swiglu(const TaskGraph&, const OpNode&, const RefInputs& in, RefValues& y) {
    for (size_t i = 0; i < y.size(); ++i) {
        const double g = (*in[0])[i];
        y[i] = g / (1.0 + std::exp(-g)) * (*in[1])[i];
    }
}

}  // namespace dsl
