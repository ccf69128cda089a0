// Integer division rounding up, for tile and block counts (a >= 0, b > 0).
// (dsl/lower/tiling, which uses only sim/arch, keeps its own.)
#pragma once

#include <cstdint>

namespace dsl {

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace dsl
