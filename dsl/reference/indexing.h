// Index arithmetic the reference kernels share: element counts, row-major
// strides, NumPy broadcasting and the outer/mid/inner split around axes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dsl {

int64_t count(const std::vector<int64_t>& shape);
std::vector<int64_t> strides_of(const std::vector<int64_t>& shape);
// The offset in an operand of shape `in` (NumPy-broadcast to `out`) of the
// output element at multi-index `idx`.
int64_t broadcast_offset(const std::vector<int64_t>& idx, const std::vector<int64_t>& out,
                         const std::vector<int64_t>& in);
// The multi-index of row-major element `flat` of `shape`.
void unravel(int64_t flat, const std::vector<int64_t>& shape, std::vector<int64_t>& idx);

// (outer, mid, inner) around axis range [first, last].
struct Around {
    int64_t outer = 1, mid = 1, inner = 1;
};
Around around(const std::vector<int64_t>& shape, size_t first, size_t last);

// NumPy's maximum: NaN wins.
inline double nan_maximum(double a, double b) { return (a != a || a > b) ? a : b; }
inline double nan_minimum(double a, double b) { return (a != a || a < b) ? a : b; }

}  // namespace dsl
