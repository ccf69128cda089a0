// bfloat16 <-> binary32 conversion, round to nearest even. bfloat16 is the
// upper half of a float32 (its sign, its 8-bit exponent and 7 of its 23
// significand bits), so it keeps float32's range with 8 bits of precision;
// no subnormal or overflow special cases arise beyond float32's own. The
// functional simulation (sim/func/) stores bfloat16 tensors as these bit
// patterns and rounds every bfloat16 result through float_to_bfloat16, as
// the hardware's conversions do (docs/functional.md §3).
#pragma once

#include <cstdint>
#include <cstring>

namespace arch {

inline float bfloat16_to_float(uint16_t b) {
    const uint32_t bits = uint32_t(b) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

inline uint16_t float_to_bfloat16(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    // NaN stays NaN (quiet): rounding could carry its payload into infinity.
    if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t((x >> 16) | 0x0040u);
    // Round to nearest even on the 16 bits dropped; a carry into the
    // exponent is the right result (up to infinity for the largest values).
    const uint32_t r = x + 0x7fffu + ((x >> 16) & 1u);
    return uint16_t(r >> 16);
}

// `v` rounded to bfloat16 precision and back.
inline float round_to_bfloat16(float v) { return bfloat16_to_float(float_to_bfloat16(v)); }

}  // namespace arch
