// silu(x) = x * sigmoid(x) = x / (1 + exp(-x)).
#include <cmath>

#include "dsl/reference/elementwise.h"

namespace dsl {

void ref_silu(const TaskGraph&, const OpNode&, const RefInputs& in, RefValues& y) {
    ref_each(in, y, [](double a) { return a / (1.0 + std::exp(-a)); });
}

}  // namespace dsl
