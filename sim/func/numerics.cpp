#include "sim/func/numerics.h"

#include <vector>

namespace func {

const float* half_table() {
    static const std::vector<float> table = [] {
        std::vector<float> t(65536);
        for (uint32_t h = 0; h < 65536; ++h) t[h] = arch::half_to_float(uint16_t(h));
        return t;
    }();
    return table.data();
}

void load_run(const uint8_t* p, arch::DType t, size_t n, float* out) {
    if (arch::dtype_is_int(t)) {
        const size_t e = size_t(arch::dtype_bytes(t));
        for (size_t i = 0; i < n; ++i) out[i] = load_one(p + e * i, t);
        return;
    }
    if (t == arch::DType::Float32) {
        std::memcpy(out, p, n * 4);
        return;
    }
    if (t == arch::DType::BFloat16) {
        for (size_t i = 0; i < n; ++i) {
            uint16_t b;
            std::memcpy(&b, p + 2 * i, 2);
            out[i] = arch::bfloat16_to_float(b);
        }
        return;
    }
    const float* table = half_table();
    for (size_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, p + 2 * i, 2);
        out[i] = table[h];
    }
}

void store_run(uint8_t* p, arch::DType t, size_t n, const float* v) {
    if (arch::dtype_is_int(t)) {
        const size_t e = size_t(arch::dtype_bytes(t));
        for (size_t i = 0; i < n; ++i) store_one(p + e * i, t, v[i]);
        return;
    }
    if (t == arch::DType::Float32) {
        std::memcpy(p, v, n * 4);
        return;
    }
    if (t == arch::DType::BFloat16) {
        for (size_t i = 0; i < n; ++i) {
            const uint16_t b = arch::float_to_bfloat16(v[i]);
            std::memcpy(p + 2 * i, &b, 2);
        }
        return;
    }
    for (size_t i = 0; i < n; ++i) {
        const uint16_t h = arch::float_to_half(v[i]);
        std::memcpy(p + 2 * i, &h, 2);
    }
}

void round_run(arch::DType t, size_t n, float* v) {
    if (t == arch::DType::Float32) return;
    if (arch::dtype_is_int(t)) {
        for (size_t i = 0; i < n; ++i) v[i] = float(float_to_int(v[i], t));
        return;
    }
    if (t == arch::DType::BFloat16) {
        for (size_t i = 0; i < n; ++i) v[i] = arch::round_to_bfloat16(v[i]);
        return;
    }
    const float* table = half_table();
    for (size_t i = 0; i < n; ++i) v[i] = table[arch::float_to_half(v[i])];
}

}  // namespace func
