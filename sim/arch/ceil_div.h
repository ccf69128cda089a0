// Integer division rounding up: tile, block, fold and burst counts, and
// cycles for a number of bytes at a rate (a >= 0, b > 0). One definition
// for the compiler (dsl/, which may use sim/arch) and the model (sim/hw,
// sim/trace); tests/oracle keeps its own, being independent of the model.
// Both operands have one type, named at the call when they differ, so a
// signed and an unsigned operand never meet in the division.
#pragma once

#include <type_traits>

namespace arch {

template <typename T>
constexpr T ceil_div(T a, T b) {
    static_assert(std::is_integral_v<T>, "ceil_div is for integers");
    return (a + b - 1) / b;
}

}  // namespace arch
