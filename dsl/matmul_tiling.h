// Tile shapes for one matmul on the configured hardware.
//
// Two levels: a cube tile (mt x kt of A, kt x nt of B, mt x nt of C) lives
// in a cube's L0 with A and B double-buffered and C as a float32
// accumulator; a block is the C region one cluster computes (its cubes in a
// rows x cols grid of cube tiles), for which L1 stages double-buffered
// panels of A (block rows x kb) and B (kb x block cols) plus the finished C
// region on its way back to DDR.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace dsl {

struct MatmulTiling {
    int64_t mt = 0, nt = 0, kt = 0;     // cube tile
    int64_t grid_rows = 0, grid_cols = 0;  // cubes of a cluster, as a grid
    int64_t kb = 0;                     // K extent of one L1 panel (multiple of kt)
    int64_t block_rows() const { return grid_rows * mt; }
    int64_t block_cols() const { return grid_cols * nt; }
};

// Bytes a tiling needs in L0 and L1 (for the capacity checks and the docs).
int64_t l0_bytes_needed(const MatmulTiling& t, arch::DType in, arch::DType out);
int64_t l1_bytes_needed(const MatmulTiling& t, arch::DType in, arch::DType out);

// Chooses the tiling for C[M x N] = A[M x K] * B[K x N]: the largest cube
// tile area (fewest bytes over L1 -> L0 per MAC) that fits L0, then the
// largest kt; then the largest power-of-two multiple of kt as kb that fits
// L1, moving to smaller tiles when no panel fits. Returns nullopt and sets
// `why` if even the smallest tiles do not fit.
std::optional<MatmulTiling> choose_matmul_tiling(const arch::Config& c, int64_t M, int64_t K, int64_t N,
                                                 arch::DType in, arch::DType out, std::string& why);

}  // namespace dsl
