// Tile shapes for one GEMM (a matmul, or a convolution as an implicit GEMM)
// on the configured hardware.
//
// Two levels: a cube tile (mt x kt of A, kt x nt of B, mt x nt of C) lives
// in a cube's L0 with A and B in `l0_buffers` buffers (double by default) and C as a float32
// accumulator; a block is the C region one cluster computes (its cubes in a
// rows x cols grid of cube tiles), for which L1 stages `buffers` panels of A
// (block rows x kb) and of B (kb x block cols) plus the finished C region on
// its way back to DDR.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace dsl {

struct MatmulTiling {
    int64_t mt = 0, nt = 0, kt = 0;        // cube tile
    int64_t grid_rows = 0, grid_cols = 0;  // cubes of a cluster, as a grid
    int64_t kb = 0;                        // K extent of one L1 panel
    int64_t buffers = 2;                   // L1 panel buffers: 1 single, 2 double, 3 prefetch one more
    int64_t l0_buffers = 2;                // L0 A/B tile buffers per cube: 1, 2 or 3
    int64_t block_rows() const { return grid_rows * mt; }
    int64_t block_cols() const { return grid_cols * nt; }
};

// What the tiling search needs to know about a GEMM C[M x N] = A[M x K] *
// B[K x N] beyond its sizes.
struct GemmShape {
    int64_t M = 0, K = 0, N = 0;
    arch::DType in = arch::DType::Float16, out = arch::DType::Float16;
    // Panels are power-of-two multiples of this many K elements (a
    // convolution's kh * kw, so a panel holds whole input channels), or of
    // kt when 0 (a matmul).
    int64_t k_granule = 0;
    // L1 bytes of one A panel buffer; empty = block_rows x kb elements (a
    // row-major A). A convolution's panel is the input rows with halo.
    std::function<int64_t(const MatmulTiling&)> a_panel_bytes;
    int64_t buffers = 2;     // L1 panel buffers
    int64_t l0_buffers = 2;  // L0 tile buffers
    // B or C kept on chip (dsl/lower/buffer_plan.h): no L1 panels for B, no L1
    // staging for C. (A on chip: a_panel_bytes gives 0, and a_on_chip
    // tells the cost estimate that no A panel is loaded.)
    bool a_on_chip = false, b_on_chip = false, c_on_chip = false;
    // B stored int8 and dequantised in L1 (dsl/lower/weight_dequant.h):
    // its panels cross DDR at one byte an element, and L1 holds a raw int8
    // panel beside each dequantised one, and the block's column scales.
    bool b_int8 = false;
    // A fused epilogue (dsl/lower/gemm/gemm_epilogue.h) keeps more copies
    // of the C block in L1 (a cast's result, silu's sigmoid, streamed
    // operands, a transposed result; `epilogue_block_bytes` per element of
    // the block, each copy in its dtype) and vectors of the block's columns
    // (batch_norm's scale and shift; `epilogue_column_bytes` per column).
    // It loads its streamed operands from DDR (`epilogue_streamed_bytes` per
    // element of C) and the column vectors (per column), runs
    // `epilogue_vector` on each C tile (the VECTOR commands in order, as
    // §8 times them: op and source dtype), and stores its result in
    // `epilogue_result` (a cast's dtype) instead of `out`.
    struct VectorStep {
        arch::VectorOp op = arch::VectorOp::Copy;
        arch::DType dtype = arch::DType::Float16;
    };
    int64_t epilogue_block_bytes = 0, epilogue_column_bytes = 0, epilogue_streamed_bytes = 0;
    std::vector<VectorStep> epilogue_vector;
    std::optional<arch::DType> epilogue_result;
    // matmul's unroll=: k-steps per iteration of each engine's k-loop, whose
    // first command pays cluster.loop_overhead_cycles (timing model §5).
    int64_t unroll = 1;
    // tile=(m, n) or (m, n, k) as the program gave it; empty = search.
    std::vector<int64_t> tile;
    // For the cost of a tiling (dsl/lower/tiling/gemm_cost.h): how many GEMMs of this
    // shape are lowered one after another (batch items, images), and
    // pypo.config.MAX_PARALLEL (0 = every cluster runs blocks).
    int64_t items = 1;
    int64_t max_parallel = 0;
};

// On an output-stationary systolic array (docs/timing-model.md §7.2), whether
// tiling `t` leaves every fold's temporal dimension K whole: a tile of one
// fold (mt x nt = the array) whose k-steps continue the fold, or k-steps
// (kt, and the panel depth kb once chosen) as deep as K. Any other tiling
// would pay a fold's fill once per k-step.
// True for every tiling of the other dataflows.
bool keeps_folds_whole(const arch::Config& c, const GemmShape& g, const MatmulTiling& t);

// The cluster DMA engines (dma0, dma1, ...) a GEMM's commands take
// (docs/timing-model.md §10): with three or more, A panels, B panels and
// the write-backs each have a queue of their own, so that one never waits
// behind another; with two, the loads share the first and the write-backs
// take the second, a load pipe and a store pipe (an Ascend cube core's MTE2
// and MTE3, configs/README.md); with one, everything queues on it.
struct GemmQueues {
    int load_a = 0, load_b = 0, store = 0;
    bool loads_shared() const { return load_a == load_b; }
};
GemmQueues gemm_queues(const arch::Config& c);

// "single", "double" or "triple": how a depth of 1, 2 or 3 buffers reads.
std::string buffering_name(int64_t buffers);

// Bytes a tiling needs in L0 and L1 (for the capacity checks and the docs).
int64_t l0_bytes_needed(const MatmulTiling& t, arch::DType in);
int64_t l1_bytes_needed(const MatmulTiling& t, const GemmShape& g);
// Whether the tiling's L0 buffers fit the cube: all in one L0, or with a
// split L0 (arch::Config::l0_split) the A tiles in L0A, B in L0B, C in L0C;
// and, for messages, what they need ("N bytes of L0") and what there is
// ("the cube has M").
bool fits_l0(const arch::Config& c, const MatmulTiling& t, arch::DType in);
std::string l0_need_text(const arch::Config& c, const MatmulTiling& t, arch::DType in);
std::string l0_have_text(const arch::Config& c);

// The deepest panel kb for tiling `t` (its tile, grid and buffers) whose
// block fits L1; 0 if not even the shallowest does.
int64_t deepest_panel(const arch::Config& c, const GemmShape& g, MatmulTiling t);

// The order in which tilings are tried, and which of two equally cheap
// ones is taken: the larger cube tile area (fewer bytes over L1 -> L0 per
// MAC), then the squarer, the taller, the deeper kt, the deeper panel kb.
// True when `a` comes before `b`.
bool tiling_preferred(const MatmulTiling& a, const MatmulTiling& b);

// Commands the GEMM becomes under tiling `t` (panel loads, tile loads,
// MATMULs, write-backs and stores of every block of every item).
int64_t gemm_commands(const GemmShape& g, const MatmulTiling& t);

// Why no tiling fits: the message, and the memory too small (L0 for the
// cube tile, L1 for the block's panels), which its text gives in bytes.
struct TilingFailure {
    std::string text;
    arch::Space memory = arch::Space::L0;
};

// Chooses the tiling: of every cube tile (mt x kt x nt, powers-of-two
// multiples of the MAC array, on the squarest grid of cubes, or on every
// grid when the squarest would leave cubes idle: a GEMV) that fits L0 and
// every panel depth kb (a power-of-two multiple of kt, or of the granule)
// whose block fits L1, the one with the fewest commands (gemm_commands)
// among those whose estimated cycles (estimate_gemm_cycles,
// dsl/lower/tiling/gemm_cost.h) are within 0.5 % of the fewest (and whose
// list schedules are within 0.5 % of the lowest of those); then the
// fewer cycles, tiling_preferred deciding ties. A given tile
// is taken as is, its k (when not given) and kb chosen by the same cost.
// Returns nullopt and sets `why` ("needs N bytes of L0 ..., the cube has
// M") when nothing fits.
std::optional<MatmulTiling> choose_matmul_tiling(const arch::Config& c, const GemmShape& g, TilingFailure& why);

// A tiling the search estimated, and its estimate.
struct TilingCandidate {
    MatmulTiling t;
    int64_t cycles = 0;
};

// choose_matmul_tiling, also listing in `considered` (when not null) every
// tiling it estimated, in the order it did (for --explain and the property
// tests: the choice is never estimated more than 0.5 % slower than any of
// them). Tilings whose lower bound was already above the best estimate
// plus 0.5 % are not listed.
std::optional<MatmulTiling> explore_matmul_tilings(const arch::Config& c, const GemmShape& g, TilingFailure& why,
                                                   std::vector<TilingCandidate>* considered);

}  // namespace dsl
