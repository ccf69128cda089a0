// IEEE 754 binary16 ("float16") <-> binary32 conversion, round to nearest
// even, with infinities, NaNs and subnormals. The functional simulation
// (sim/func/) stores float16 tensors as these bit patterns and rounds every
// float16 result through float_to_half, so its numerics are the hardware's
// (docs/functional.md §3). Plain functions, no tables to initialise: the
// decoding table that speeds up bulk reads lives in sim/func/numerics.h.
#pragma once

#include <cstdint>
#include <cstring>

namespace arch {

inline float half_to_float(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu, bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (mant << 13);  // inf, NaN (payload kept)
    } else if (exp != 0) {
        bits = sign | ((exp + 112) << 23) | (mant << 13);
    } else if (mant == 0) {
        bits = sign;
    } else {
        // Subnormal: normalise the mantissa.
        exp = 113;
        while (!(mant & 0x400u)) mant <<= 1, --exp;
        bits = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

inline uint16_t float_to_half(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint16_t sign = uint16_t((x >> 16) & 0x8000u);
    const uint32_t abs = x & 0x7fffffffu;
    if (abs >= 0x7f800000u) return uint16_t(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));  // inf / quiet NaN
    if (abs >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // rounds to >= 65520: overflow to inf
    if (abs >= 0x38800000u) {
        // Normal: drop 13 mantissa bits, round to nearest even (a carry into
        // the exponent is the right result).
        const uint32_t r = abs + 0xfffu + ((abs >> 13) & 1u);
        return uint16_t(sign | ((r - 0x38000000u) >> 13));
    }
    if (abs < 0x33000001u) return sign;  // below half the smallest subnormal (2^-25): zero
    // Subnormal: shift the full mantissa right, round to nearest even.
    const uint32_t e = abs >> 23, m = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126 - e;  // 14..24
    uint32_t q = m >> shift;
    const uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u))) ++q;
    return uint16_t(sign | q);
}

// `v` rounded to float16 precision and back.
inline float round_to_half(float v) { return half_to_float(float_to_half(v)); }

}  // namespace arch
