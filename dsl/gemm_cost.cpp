#include "dsl/gemm_cost.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace dsl {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// One arbitrated link of §6: bandwidth W, burst S, latency Lat.
struct Link {
    int64_t W, S, Lat;

    // Cycles the link is occupied moving `bytes` of one request: ceil(N/S)
    // bursts of ceil(b/W) cycles each (a burst smaller than W still takes a
    // whole cycle, so a small burst size caps the bandwidth).
    int64_t busy(int64_t bytes) const {
        const int64_t rest = bytes % S;
        return bytes / S * ceil_div(S, W) + (rest ? ceil_div(rest, W) : 0);
    }

    // One DMA command of `bytes` while `sharing` requesters (this one
    // included, on average) move as much at the same time: round-robin
    // interleaves their bursts, so it ends when all of them have gone, plus
    // the cycle before its request is eligible and the latency after its
    // last burst.
    int64_t transfer(int64_t bytes, double sharing) const { return 1 + shared(busy(bytes), sharing) + Lat; }
    static int64_t shared(int64_t cycles, double sharing) { return int64_t(std::ceil(double(cycles) * sharing - 1e-9)); }
};

// The steady-state period of a producer/consumer pair around `buffers`
// buffers (§10 "Buffering depth"): neither goes faster than itself, and
// each buffer goes once round its loop (filled, flag, drained, flag) per
// `buffers` steps. One buffer serialises the two; more overlap them.
int64_t pipelined(int64_t produce, int64_t consume, int64_t loop, int64_t buffers) {
    return std::max({produce, consume, ceil_div(loop, buffers)});
}

}  // namespace

BlockCost estimate_block(const arch::Config& c, const GemmShape& g, const MatmulTiling& t, int64_t rows, int64_t cols,
                         double sharing) {
    const Link ddr{c.ddr_bytes_per_cycle, c.ddr_burst_bytes, c.ddr_latency_cycles};
    const Link l1{c.l1_bytes_per_cycle, c.l1_burst_bytes, c.l1_latency_cycles};
    const int64_t flag = c.flag_latency_cycles;
    const int64_t e = arch::dtype_bytes(g.in), eo = arch::dtype_bytes(g.out);

    // The cubes this block uses, and the largest C tile among them: the
    // cube that sets the pace. An edge block leaves cubes idle and computes
    // smaller tiles: padding M and N up to whole blocks costs idle cubes,
    // up to whole MAC arrays (below) MAC cycles.
    const int64_t cubes = ceil_div(rows, t.mt) * ceil_div(cols, t.nt);
    const int64_t m = std::min(t.mt, rows), n = std::min(t.nt, cols);

    // §7: a MATMUL of depth k on the m x n tile, with float32's passes.
    const int64_t passes = g.in == arch::DType::Float32 ? c.fp32_passes : 1;
    const int64_t out_blocks = ceil_div(m, c.mac_rows) * ceil_div(n, c.mac_cols);
    auto matmul = [&](int64_t k) {
        const int64_t macs = out_blocks * k * passes;
        const int64_t operands = k * (m * ceil_div(n, c.mac_cols) + n * ceil_div(m, c.mac_rows)) * e;
        return c.cube_pipeline_cycles + std::max(macs, ceil_div(operands, c.l0_bytes_per_cycle));
    };
    // §6 on the L1 port: every active cube loads its A tile, then its B
    // tile, at the same time as the others (a convolution's A tile is the
    // expanded im2col tile: the same bytes).
    auto a_tile = [&](int64_t k) { return l1.transfer(m * k * e, cubes); };
    auto b_tile = [&](int64_t k) { return l1.transfer(k * n * e, cubes); };
    // One L0 step: the tile loads are the producer, the MATMUL the
    // consumer, around l0_buffers buffers; each direction passes a flag.
    auto tile_step = [&](int64_t k) {
        const int64_t load = a_tile(k) + b_tile(k);
        return pipelined(load, matmul(k), load + flag + matmul(k) + flag, t.l0_buffers);
    };

    // §6 on the DDR channel: the panels of a K range `d` deep (a
    // convolution's A panel: the input rows its block needs, counted as the
    // most a block can span), shared with `sharing` clusters. With one DMA
    // engine A and B panels queue on it (two latencies per step); with more
    // they load side by side.
    const int64_t a_full = g.a_panel_bytes ? g.a_panel_bytes(t) * rows / t.block_rows() : rows * t.kb * e;
    auto a_panel = [&](int64_t d) { return a_full * d / t.kb; };
    auto b_panel = [&](int64_t d) { return d * cols * e; };
    auto panel_load = [&](int64_t d) {
        if (c.dma_engines == 1) return ddr.transfer(a_panel(d), sharing) + ddr.transfer(b_panel(d), sharing);
        return 1 + Link::shared(ddr.busy(a_panel(d)) + ddr.busy(b_panel(d)), sharing) + ddr.Lat;
    };

    const int64_t steps = ceil_div(g.K, t.kb);
    const int64_t tiles = ceil_div(t.kb, t.kt);  // L0 steps of a full panel; the last may be shallower
    const int64_t last_kb = g.K - (steps - 1) * t.kb;
    const int64_t last_tiles = ceil_div(last_kb, t.kt);
    const int64_t u = tile_step(t.kt);

    BlockCost b;
    // Fill: nothing computes before the first A and B panels are in L1 and
    // the first B tile in L0 (the first A tile was loaded while the B panel
    // crossed DDR; with several DMA engines the two panels arrive together
    // and both tiles load after them).
    const int64_t first_kb = std::min(t.kb, g.K), first_kt = std::min(t.kt, first_kb);
    b.first_panel = panel_load(first_kb);
    const int64_t to_first_matmul =
        flag + (c.dma_engines == 1 ? b_tile(first_kt) : a_tile(first_kt) + b_tile(first_kt)) + flag;
    b.first_matmul = b.first_panel + to_first_matmul;
    b.tile_step = u;

    // One panel in the steady state: DDR loads it (producer), the cubes
    // copy it tile by tile into L0 (consumer), around `buffers` L1 panel
    // buffers. The consumer releases the panel when its last A tile is in
    // L0: a copy that waits, l0_buffers steps behind, for the MATMULs.
    const int64_t panel_copy = (tiles - 1) * u + tile_step(t.kb - (tiles - 1) * t.kt);
    int64_t release = flag + (tiles - 1) * (a_tile(t.kt) + b_tile(t.kt)) + a_tile(t.kt);
    if (tiles - 1 - t.l0_buffers >= 0)
        release = std::max(release, to_first_matmul + (tiles - 1 - t.l0_buffers) * u + matmul(t.kt) + flag + a_tile(t.kt));
    b.panel_step = pipelined(panel_load(t.kb), panel_copy, panel_load(t.kb) + release + flag, t.buffers);

    // The MATMULs: one panel step for each panel but the last, then the
    // last panel's L0 steps, the last one's MATMUL ending the stream.
    const int64_t last_k = last_kb - (last_tiles - 1) * t.kt;
    b.last_matmul = b.first_matmul + (steps - 1) * b.panel_step + (last_tiles - 1) * u + matmul(last_k);

    // Drain: the accumulators go to L1 (narrowed to C's dtype in flight) on
    // the shared L1 port, then one store engine writes them to DDR one
    // after another while the other clusters store theirs.
    const int64_t c_tile = m * n * eo;
    const int64_t stores = cubes * ddr.transfer(c_tile, sharing);
    b.total = b.last_matmul + flag + l1.transfer(c_tile, cubes) + flag + stores;
    // What the block moves over DDR: for how long it keeps the link busy.
    b.ddr_busy = steps * (ddr.busy(a_panel(t.kb)) + ddr.busy(b_panel(t.kb))) + cubes * ddr.busy(c_tile);
    return b;
}

namespace {

// The blocks of the GEMM as lower_gemm emits them: per item, rows of
// blocks, each row left to right. Edge blocks are smaller; four kinds.
struct BlockGrid {
    int64_t per_item_rows, per_item_cols, last_rows, last_cols, blocks;
    int64_t clusters;  // that run blocks at once
    BlockGrid(const arch::Config& c, const GemmShape& g, const MatmulTiling& t) {
        per_item_rows = ceil_div(g.M, t.block_rows());
        per_item_cols = ceil_div(g.N, t.block_cols());
        last_rows = g.M - (per_item_rows - 1) * t.block_rows();
        last_cols = g.N - (per_item_cols - 1) * t.block_cols();
        blocks = std::max<int64_t>(1, g.items) * per_item_rows * per_item_cols;
        clusters = c.clusters;
        if (g.max_parallel > 0) clusters = std::min<int64_t>(clusters, g.max_parallel);
    }
    int64_t sharing_full() const { return std::min(clusters, blocks); }
    int64_t sharing_last() const { return blocks % clusters ? blocks % clusters : sharing_full(); }
};

// Block cycles per kind (last row? last column?), at the two sizes of a
// wave (the blocks dispatched together: a full one, and the last when the
// blocks do not divide), in the two ways clusters can share DDR:
//
// * in lockstep: a wave of identical blocks starts together and stays
//   together, every cluster filling and draining at the same time, so each
//   transfer shares the link with the whole wave;
// * drifting: once blocks of a wave differ (an edge block, a convolution's
//   blocks of other output rows, whose input slabs differ), the clusters
//   fall out of step, and a transfer meets another cluster's only while
//   that one keeps DDR busy: sharing = 1 + (wave - 1) x the fraction of its
//   time a block occupies the link, found by a few fixed-point steps.
class KindCosts {
public:
    KindCosts(const arch::Config& c, const GemmShape& g, const MatmulTiling& t, const BlockGrid& grid)
        : c_(c), g_(g), t_(t), grid_(grid) {
        for (auto& d : cost_)
            for (auto& r : d)
                for (auto& q : r)
                    for (int64_t& w : q) w = -1;
    }

    // Computed when first asked for: most GEMMs never drift.
    int64_t operator()(bool drifting, int last_row, int last_col, int last_wave) {
        int64_t& cost = cost_[drifting][last_row][last_col][last_wave];
        if (cost >= 0) return cost;
        const int64_t rows = last_row ? grid_.last_rows : t_.block_rows();
        const int64_t cols = last_col ? grid_.last_cols : t_.block_cols();
        const int64_t wave = last_wave ? grid_.sharing_last() : grid_.sharing_full();
        double sharing = double(wave);
        BlockCost b = estimate_block(c_, g_, t_, rows, cols, sharing);
        for (int i = 0; i < 3 && drifting && wave > 1; ++i) {
            const double busy = std::min(1.0, sharing * double(b.ddr_busy) / double(b.total));
            sharing = 1.0 + double(wave - 1) * busy;
            b = estimate_block(c_, g_, t_, rows, cols, sharing);
        }
        return cost = b.total;
    }

private:
    const arch::Config& c_;
    const GemmShape& g_;
    const MatmulTiling& t_;
    const BlockGrid& grid_;
    int64_t cost_[2][2][2][2];  // [drifting][last row][last column][last wave]
};

}  // namespace

int64_t estimate_gemm_cycles(const arch::Config& c, const GemmShape& g, const MatmulTiling& t) {
    const BlockGrid grid(c, g, t);
    KindCosts cost(c, g, t, grid);
    const int64_t per_item = grid.per_item_rows * grid.per_item_cols;
    const int64_t last_wave = (grid.blocks - 1) / grid.clusters * grid.clusters;
    // Block i in lower_gemm's order: its block row and its kind.
    auto row_of = [&](int64_t i) { return i % per_item / grid.per_item_cols; };
    auto kind_of = [&](int64_t i) {
        return std::make_pair(int(row_of(i) == grid.per_item_rows - 1), int(i % grid.per_item_cols == grid.per_item_cols - 1));
    };
    // Blocks are alike when of one size and, for a convolution, of one
    // block row (the same input rows).
    auto size_of = [&](int64_t i) {
        const auto [r, q] = kind_of(i);
        return std::make_pair(r ? grid.last_rows : t.block_rows(), q ? grid.last_cols : t.block_cols());
    };
    auto alike = [&](int64_t i, int64_t j) {
        return size_of(i) == size_of(j) && (!g.a_panel_bytes || row_of(i) == row_of(j));
    };
    // §4: each block goes to the cluster that frees first (the lowest
    // numbered on a tie) and starts dispatch_cycles after it freed.
    std::vector<int64_t> free_at(size_t(grid.clusters), 0);
    bool drifting = false;
    int64_t end = 0;
    for (int64_t i = 0; i < grid.blocks; ++i) {
        if (i % grid.clusters == 0)
            for (int64_t j = i + 1; j < std::min(grid.blocks, i + grid.clusters) && !drifting; ++j)
                drifting = !alike(i, j);
        auto cluster = std::min_element(free_at.begin(), free_at.end());
        const auto [r, q] = kind_of(i);
        *cluster += c.dispatch_cycles + cost(drifting, r, q, i >= last_wave);
        end = std::max(end, *cluster);
    }
    return end;
}

int64_t estimate_gemm_cycles_bound(const arch::Config& c, const GemmShape& g, const MatmulTiling& t) {
    const BlockGrid grid(c, g, t);
    // A block is never faster than with DDR to itself.
    int64_t alone[2][2];
    for (int r = 0; r < 2; ++r)
        for (int q = 0; q < 2; ++q) {
            const int64_t rows = r ? grid.last_rows : t.block_rows(), cols = q ? grid.last_cols : t.block_cols();
            alone[r][q] = r && rows == t.block_rows() ? alone[0][q]
                          : q && cols == t.block_cols() ? alone[r][0]
                                                        : estimate_block(c, g, t, rows, cols, 1.0).total;
        }
    const int64_t items = std::max<int64_t>(1, g.items);
    const int64_t inner_rows = grid.per_item_rows - 1, inner_cols = grid.per_item_cols - 1;
    // The work of every block over the clusters, none ever idle.
    const int64_t work = items * (inner_rows * inner_cols * alone[0][0] + inner_rows * alone[0][1] +
                                  inner_cols * alone[1][0] + alone[1][1]) +
                         grid.blocks * c.dispatch_cycles;
    return work / grid.clusters;
}

}  // namespace dsl
