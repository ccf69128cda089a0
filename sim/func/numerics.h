// The functional model's number handling: reading and writing float16 /
// bfloat16 / float32 elements as float, rounding results to the precision of the
// operation (docs/functional.md §3). Bulk helpers over runs of elements so
// the kernels never branch per element on the dtype.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sim/arch/bfloat16.h"
#include "sim/arch/half.h"
#include "sim/arch/program.h"

namespace func {

// The float value of every float16 bit pattern (256 KiB, built once).
const float* half_table();

// A float to an integer dtype as the vector unit's conversion does: round
// half to even, then saturate to the type's range ([-128, 127] for int8);
// NaN converts to 0. int32 values travel the functional datapath as float,
// exact up to 2^24 in magnitude (docs/functional.md §3).
inline int32_t float_to_int(float v, arch::DType t) {
    if (v != v) return 0;
    const double lo = t == arch::DType::Int8 ? -128.0 : -2147483648.0;
    const double hi = t == arch::DType::Int8 ? 127.0 : 2147483647.0;
    const double r = std::nearbyint(double(v));  // the default mode: to nearest, ties to even
    return int32_t(r < lo ? lo : r > hi ? hi : r);
}

inline float load_one(const uint8_t* p, arch::DType t) {
    if (t == arch::DType::Int8) return float(int8_t(*p));
    if (t == arch::DType::Int32) {
        int32_t i;
        std::memcpy(&i, p, 4);
        return float(i);
    }
    if (t == arch::DType::Float32) {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    uint16_t h;
    std::memcpy(&h, p, 2);
    return t == arch::DType::BFloat16 ? arch::bfloat16_to_float(h) : half_table()[h];
}

inline void store_one(uint8_t* p, arch::DType t, float v) {
    if (t == arch::DType::Int8) {
        *p = uint8_t(int8_t(float_to_int(v, t)));
        return;
    }
    if (t == arch::DType::Int32) {
        const int32_t i = float_to_int(v, t);
        std::memcpy(p, &i, 4);
        return;
    }
    if (t == arch::DType::Float32) {
        std::memcpy(p, &v, 4);
        return;
    }
    const uint16_t h = t == arch::DType::BFloat16 ? arch::float_to_bfloat16(v) : arch::float_to_half(v);
    std::memcpy(p, &h, 2);
}

// n contiguous elements of dtype `t` at `p` into out[0..n).
void load_run(const uint8_t* p, arch::DType t, size_t n, float* out);
// v[0..n) stored as dtype `t` at `p` (rounded to nearest even for the 2-byte
// types; for the integers float_to_int's rounding and saturation).
void store_run(uint8_t* p, arch::DType t, size_t n, const float* v);
// v[0..n) rounded to the precision of `t` in place (no-op for float32; the
// integers round and saturate as float_to_int).
void round_run(arch::DType t, size_t n, float* v);

}  // namespace func
