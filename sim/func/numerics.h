// The functional model's number handling: reading and writing float16 /
// bfloat16 / float32 elements as float, rounding results to the precision of the
// operation (docs/functional.md §3). Bulk helpers over runs of elements so
// the kernels never branch per element on the dtype.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sim/arch/bfloat16.h"
#include "sim/arch/half.h"
#include "sim/arch/program.h"

namespace func {

// The float value of every float16 bit pattern (256 KiB, built once).
const float* half_table();

inline float load_one(const uint8_t* p, arch::DType t) {
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
    if (t == arch::DType::Float32) {
        std::memcpy(p, &v, 4);
        return;
    }
    const uint16_t h = t == arch::DType::BFloat16 ? arch::float_to_bfloat16(v) : arch::float_to_half(v);
    std::memcpy(p, &h, 2);
}

// n contiguous elements of dtype `t` at `p` into out[0..n).
void load_run(const uint8_t* p, arch::DType t, size_t n, float* out);
// v[0..n) stored as dtype `t` at `p` (rounded to nearest even for the 2-byte types).
void store_run(uint8_t* p, arch::DType t, size_t n, const float* v);
// v[0..n) rounded to the precision of `t` in place (no-op for float32).
void round_run(arch::DType t, size_t n, float* v);

}  // namespace func
