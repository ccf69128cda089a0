// The MAC array: C[m x n] (+)= A[m x k] * B[k x n] in float32, the way the
// cube accumulates (float16 products are exact in float32; the sum is
// rounded after every addition, k in order). A blocked i-k-j loop over
// float rows the compiler vectorises; no per-element calls.
#include <algorithm>
#include <cstring>
#include <vector>

#include "sim/func/effects.h"
#include "sim/func/numerics.h"

namespace func {

void apply_matmul(Memory& m, int cube, const arch::MatmulArgs& mm) {
    const size_t M = mm.m, K = mm.k, N = mm.n, e = size_t(arch::dtype_bytes(mm.dtype));
    const uint8_t* a = m.span(arch::Space::L0, cube, mm.a_addr, M * K * e, "MATMUL operand A");
    const uint8_t* b = m.span(arch::Space::L0, cube, mm.b_addr, K * N * e, "MATMUL operand B");
    uint8_t* c = m.span(arch::Space::L0, cube, mm.c_addr, M * N * 4, "MATMUL accumulator C");
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
