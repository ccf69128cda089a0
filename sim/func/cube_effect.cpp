// The MAC array: C[m x n] (+)= A[m x k] * B[k x n] in float32 (int8: in
// int32, exactly), the way the
// cube accumulates (float16 products are exact in float32; the sum is
// rounded after every addition, k in order). A blocked i-k-j loop over
// float rows the compiler vectorises; no per-element calls.
#include <algorithm>
#include <cstring>
#include <vector>

#include "sim/func/effects.h"
#include "sim/func/numerics.h"

namespace func {

namespace {

// int8 x int8 -> int32: exact integer products and sums (the cube's integer
// MACs do not round); C is int32 (m x n, the same 4 bytes an element as
// float32's accumulator). A sum past int32's range wraps as two's-complement
// adders do (K > 133,152 at the extremes: no lowering makes such a C).
void int8_matmul(const uint8_t* a, const uint8_t* b, uint8_t* c, const arch::MatmulArgs& mm) {
    const size_t M = mm.m, K = mm.k, N = mm.n;
    thread_local std::vector<int32_t> ic;
    ic.resize(M * N);
    if (mm.accumulate) std::memcpy(ic.data(), c, M * N * 4);
    else std::fill(ic.begin(), ic.end(), 0);
    const auto* ai = reinterpret_cast<const int8_t*>(a);
    const auto* bi = reinterpret_cast<const int8_t*>(b);
    for (size_t i = 0; i < M; ++i)
        for (size_t p = 0; p < K; ++p) {
            const int32_t av = ai[i * K + p];
            int32_t* __restrict crow = ic.data() + i * N;
            if (mm.b_transposed)
                for (size_t j = 0; j < N; ++j) crow[j] = int32_t(uint32_t(crow[j]) + uint32_t(av * bi[j * K + p]));
            else
                for (size_t j = 0; j < N; ++j) crow[j] = int32_t(uint32_t(crow[j]) + uint32_t(av * bi[p * N + j]));
        }
    std::memcpy(c, ic.data(), M * N * 4);
}

}  // namespace

void apply_matmul(Memory& m, int cube, const arch::MatmulArgs& mm) {
    const size_t M = mm.m, K = mm.k, N = mm.n, e = size_t(arch::dtype_bytes(mm.dtype));
    const uint8_t* a = m.span(arch::Space::L0, cube, mm.a_addr, M * K * e, "MATMUL operand A");
    const uint8_t* b = m.span(arch::Space::L0, cube, mm.b_addr, K * N * e, "MATMUL operand B");
    uint8_t* c = m.span(arch::Space::L0, cube, mm.c_addr, M * N * 4, "MATMUL accumulator C");
    if (mm.dtype == arch::DType::Int8) return int8_matmul(a, b, c, mm);
    thread_local std::vector<float> fa, fb, fc;
    fa.resize(M * K), fb.resize(K * N), fc.resize(M * N);
    load_run(a, mm.dtype, M * K, fa.data());
    if (mm.b_transposed) {
        // Stored n x k: row j of the stored matrix is column j of B.
        thread_local std::vector<float> row;
        row.resize(K);
        for (size_t j = 0; j < N; ++j) {
            load_run(b + j * K * e, mm.dtype, K, row.data());
            for (size_t p = 0; p < K; ++p) fb[p * N + j] = row[p];
        }
    } else {
        load_run(b, mm.dtype, K * N, fb.data());
    }
    if (mm.accumulate) std::memcpy(fc.data(), c, M * N * 4);
    else std::fill(fc.begin(), fc.end(), 0.0f);
    // Four rows of C at a time share each row of B (register blocking);
    // every C element still sums its k products in order.
    size_t i = 0;
    for (; i + 4 <= M; i += 4) {
        float* __restrict c0 = fc.data() + i * N;
        float* __restrict c1 = c0 + N;
        float* __restrict c2 = c1 + N;
        float* __restrict c3 = c2 + N;
        const float* a0 = fa.data() + i * K;
        for (size_t p = 0; p < K; ++p) {
            const float v0 = a0[p], v1 = a0[K + p], v2 = a0[2 * K + p], v3 = a0[3 * K + p];
            const float* __restrict brow = fb.data() + p * N;
            for (size_t j = 0; j < N; ++j) {
                const float bv = brow[j];
                c0[j] += v0 * bv;
                c1[j] += v1 * bv;
                c2[j] += v2 * bv;
                c3[j] += v3 * bv;
            }
        }
    }
    for (; i < M; ++i) {
        float* __restrict crow = fc.data() + i * N;
        const float* arow = fa.data() + i * K;
        for (size_t p = 0; p < K; ++p) {
            const float av = arow[p];
            const float* __restrict brow = fb.data() + p * N;
            for (size_t j = 0; j < N; ++j) crow[j] += av * brow[j];
        }
    }
    std::memcpy(c, fc.data(), M * N * 4);
}

}  // namespace func
