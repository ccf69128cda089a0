#include "dsl/lower/tiling/gemm_cost.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/arch/ceil_div.h"
#include "sim/arch/cube_cost.h"
#include "sim/arch/vector_cost.h"

namespace dsl {

namespace {

using arch::ceil_div;

// One arbitrated link of §6: bandwidth W, latency Lat, used by DMA engines
// that keep K requests in flight (§5), behind their path of P bytes per
// cycle in this direction (§6.2: the cluster's on the DDR side, each
// cube's own from L1 into L0; 0: no limit).
struct Link {
    int64_t W, Lat, K, P = 0;

    // Cycles the link is occupied moving `bytes` of one request: it moves W
    // bytes per cycle whatever the burst size (byte slots, §6).
    int64_t busy(int64_t bytes) const { return ceil_div(bytes, W); }
    // Cycles the path takes to pass them (§6.2).
    int64_t path(int64_t bytes) const { return P ? ceil_div(bytes, P) : 0; }
    // How long one request's bytes take to get through, link and path.
    int64_t moving(int64_t bytes, double sharing) const { return std::max(shared(busy(bytes), sharing), path(bytes)); }
    // Two requests' bytes of one cluster, side by side on the link and one
    // after the other on the path.
    int64_t moving(int64_t a, int64_t b, double sharing) const {
        return std::max(shared(busy(a) + busy(b), sharing), path(a) + path(b));
    }

    // One DMA command of `bytes` while `sharing` requesters (this one
    // included, on average) move as much at the same time: round-robin
    // interleaves their bursts, so it ends when all of them have gone, plus
    // the cycle before its request is eligible and the latency after its
    // last burst.
    int64_t transfer(int64_t bytes, double sharing) const { return 1 + moving(bytes, sharing) + Lat; }
    static int64_t shared(int64_t cycles, double sharing) {
        return int64_t(std::ceil(double(cycles) * sharing - 1e-9));
    }
    // Two DMA commands queued on one engine: with K = 1 the second waits for
    // the first's data; with more in flight it follows the first's last
    // burst onto the link, so the two pay one latency.
    int64_t queued(int64_t a_bytes, int64_t b_bytes, double sharing) const {
        if (K == 1) return transfer(a_bytes, sharing) + transfer(b_bytes, sharing);
        return 1 + moving(a_bytes, b_bytes, sharing) + Lat;
    }
    // `n` DMA commands of `bytes` each queued on one engine: with K = 1
    // each waits for the previous one's data; with more, up to K follow
    // each other onto the link and share one latency, and when K of them
    // cover the latency ((K - 1) * busy >= Lat + 1, §6) the link never
    // waits.
    int64_t stream(int64_t n, int64_t bytes, double sharing) const {
        if (n <= 0) return 0;
        const int64_t one = moving(bytes, sharing);
        if (K == 1) return n * (1 + one + Lat);
        if (K >= n || (K - 1) * one >= Lat + 1) return 1 + n * one + Lat;
        // Each command starts when the one K places back ends (§5): a
        // group of K every 1 + one + Lat cycles, its commands `one` apart.
        const int64_t groups = ceil_div(n, K);
        return (groups - 1) * std::max(K * one, 1 + one + Lat) + (n - 1 - (groups - 1) * K) * one + 1 + one + Lat;
    }
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
    // With an L2 (§6.1) the link is still costed as the DDR channel: the
    // L2's hits are not modelled (docs/timing-model.md §10 says how far off
    // that is).
    const Link ddr{c.ddr_bytes_per_cycle, c.ddr_latency_cycles, c.dma_max_outstanding, c.ddr_read_bytes_per_cycle};
    const Link ddr_out{c.ddr_bytes_per_cycle, c.ddr_latency_cycles, c.dma_max_outstanding, c.ddr_write_bytes_per_cycle};
    // L1 -> L0 behind each cube's read path (§6.2), L0 -> L1 without one.
    const Link l1_in{c.l1_bytes_per_cycle, c.l1_latency_cycles, c.dma_max_outstanding, c.cube_l1_read_bytes_per_cycle};
    const Link l1_out{c.l1_bytes_per_cycle, c.l1_latency_cycles, c.dma_max_outstanding};
    const int64_t flag = c.flag_latency_cycles;
    const int64_t e = arch::dtype_bytes(g.in), eo = arch::dtype_bytes(g.out);

    // The cubes this block uses, and the largest C tile among them: the
    // cube that sets the pace. An edge block leaves cubes idle and computes
    // smaller tiles: padding M and N up to whole blocks costs idle cubes,
    // up to whole MAC arrays (below) MAC cycles.
    const int64_t cubes = ceil_div(rows, t.mt) * ceil_div(cols, t.nt);
    const int64_t m = std::min(t.mt, rows), n = std::min(t.nt, cols);

    // §7: a MATMUL of depth k on the m x n tile, exactly as the cube
    // times it (the formula of every dataflow, k_per_cycle and float32's
    // passes: sim/arch/cube_cost.h).
    // On an os array a one-fold tile's k-steps continue the fold (§7.2):
    // each step streams its k, and the fold's fill and drain are paid once,
    // with the last MATMUL (below).
    const bool os_chain = c.cube_dataflow == arch::Dataflow::OS && t.mt <= c.mac_rows && t.nt <= c.mac_cols;
    auto matmul = [&](int64_t k) {
        arch::MatmulArgs mm;
        mm.m = uint32_t(m), mm.k = uint32_t(k), mm.n = uint32_t(n), mm.dtype = g.in;
        mm.fold_continues = os_chain;
        mm.schedule_continues = c.systolic();
        return int64_t(arch::matmul_cost(c, mm).total_cycles);
    };
    const int64_t fold_fill = os_chain ? c.mac_rows + c.mac_cols - 2 : 0;
    // §5 issue cycles: the first command of every unroll-th step of an
    // engine's k-loop pays cluster.loop_overhead_cycles, overlapping its
    // flag waits; an engine that runs its steps back to back pays them, on
    // average `issue` per step. The first step always pays in full.
    const int64_t loop = c.loop_overhead_cycles;
    const int64_t issue = ceil_div(loop, std::max<int64_t>(1, g.unroll));
    // On-chip operands (dsl/lower/buffer_plan.h) have no panels to load.
    const bool has_a = !g.a_on_chip, has_b = !g.b_on_chip, panels = has_a || has_b;
    // §6 on the L1 port: every active cube loads its A tile, then its B
    // tile, at the same time as the others (a convolution's A tile is the
    // expanded im2col tile: the same bytes).
    auto a_tile = [&](int64_t k) { return l1_in.transfer(m * k * e, cubes); };
    auto b_tile = [&](int64_t k) { return l1_in.transfer(k * n * e, cubes); };
    auto ab_tiles = [&](int64_t k) { return l1_in.queued(m * k * e, k * n * e, cubes); };  // both, on one cube DMA
    // One L0 step: the tile loads are the producer, the MATMUL the
    // consumer, around l0_buffers buffers; each direction passes a flag.
    // Each engine pays its loop control when it does not wait.
    auto tile_step = [&](int64_t k) {
        const int64_t load = ab_tiles(k);
        return pipelined(load + issue, matmul(k) + issue, load + flag + matmul(k) + flag, t.l0_buffers);
    };

    // §6 on the DDR channel: the panels of a K range `d` deep (a
    // convolution's A panel: the input rows its block needs, counted as the
    // most a block can span), shared with `sharing` clusters. Where A and B
    // panels share a queue (gemm_queues: one or two DMA engines) they follow
    // each other on it (two latencies per step); else they load side by side.
    const bool loads_shared = gemm_queues(c).loads_shared();
    const int64_t a_full = !has_a ? 0 : g.a_panel_bytes ? g.a_panel_bytes(t) * rows / t.block_rows() : rows * t.kb * e;
    auto a_panel = [&](int64_t d) { return a_full * d / t.kb; };
    // A weight-only int8 B crosses DDR as int8 (its dequantisation in L1,
    // on the vector unit, overlaps the panels and is not estimated).
    auto b_panel = [&](int64_t d) { return has_b ? d * cols * (g.b_int8 ? 1 : e) : 0; };
    auto panel_load = [&](int64_t d) -> int64_t {
        if (!panels) return 0;
        if (!has_a || !has_b)
            return (has_a ? ddr.transfer(a_panel(d), sharing) : 0) + (has_b ? ddr.transfer(b_panel(d), sharing) : 0);
        if (loads_shared) return ddr.queued(a_panel(d), b_panel(d), sharing);
        return 1 + ddr.moving(a_panel(d), b_panel(d), sharing) + ddr.Lat;
    };

    const int64_t steps = ceil_div(g.K, t.kb);
    const int64_t tiles = ceil_div(t.kb, t.kt);  // L0 steps of a full panel; the last may be shallower
    const int64_t last_kb = g.K - (steps - 1) * t.kb;
    const int64_t last_tiles = ceil_div(last_kb, t.kt);
    // The full-depth L0 step and panel, used throughout.
    const int64_t a_kt = a_tile(t.kt), ab_kt = ab_tiles(t.kt), mm_kt = matmul(t.kt);
    const int64_t u = pipelined(ab_kt + issue, mm_kt + issue, ab_kt + mm_kt + 2 * flag, t.l0_buffers);
    const int64_t load_kb = panel_load(t.kb);
    // How often DDR can deliver a panel in the steady state, the
    // producer's pace: with K = 1 a panel's commands pay their latencies
    // one after another; with more in flight the next panel's commands
    // follow onto the link while this one's latency elapses, so the pace
    // is the link's occupation unless too few are in flight to cover it:
    // a command starts no sooner than the one K places back ends (§5), so
    // K commands take at least one command's transfer and latency.
    const int64_t panel_cmds = int64_t(has_a) + int64_t(has_b);
    auto panel_pace = [&](int64_t d, int64_t load) -> int64_t {
        if (!panels || ddr.K == 1) return load;
        const int64_t sa = ddr.moving(a_panel(d), sharing), sb = ddr.moving(b_panel(d), sharing);
        const int64_t one_cmd = 1 + (loads_shared ? std::max(sa, sb) : sa + sb) + ddr.Lat;
        return std::max(ddr.moving(a_panel(d), b_panel(d), sharing), ceil_div(one_cmd * panel_cmds, ddr.K));
    };
    const int64_t pace_kb = panel_pace(t.kb, load_kb);

    BlockCost b;
    // Fill: nothing computes before the first A and B panels are in L1 and
    // the first A and B tiles in L0 after them. Each cube's DMA engine
    // loads its A tile once the A panel is in, then its B tile once the B
    // panel is (§5: in order, following on the L1 port). On one load queue
    // the B panel is queued behind the A panel: with K = 1 it starts when
    // A's data is in, so the A tile loads while B crosses DDR; with more in
    // flight it follows A's last burst onto the link and arrives
    // busy(B) after it, and the A tile's copy is on the way (§6). With
    // a queue each the two share the link and arrive together. The
    // first panel's loop control delays it; an on-chip A tile pays it.
    const int64_t first_kb = std::min(t.kb, g.K), first_kt = std::min(t.kt, first_kb);
    const int64_t b_first = b_tile(first_kt);
    const int64_t ab_first = first_kt == t.kt ? ab_kt : ab_tiles(first_kt);
    // When the first A and B panels are in L1, from the loop control's end.
    int64_t a_in = 0, b_in = 0;
    if (has_a && has_b && !loads_shared) {
        a_in = b_in = first_kb == t.kb ? load_kb : panel_load(first_kb);
    } else if (has_a && has_b && ddr.K > 1) {
        a_in = 1 + ddr.moving(a_panel(first_kb), sharing) + ddr.Lat;
        b_in = 1 + ddr.moving(a_panel(first_kb), b_panel(first_kb), sharing) + ddr.Lat;
    } else {
        a_in = has_a ? ddr.transfer(a_panel(first_kb), sharing) : 0;
        b_in = has_b ? a_in + ddr.transfer(b_panel(first_kb), sharing) : 0;
    }
    b.first_panel = !panels ? 0 : loop + std::max(a_in, b_in);
    const int64_t a_tile_start = loop + (has_a ? a_in + flag : 0);
    const int64_t b_tile_start = has_b ? loop + b_in + flag : 0;
    b.first_matmul = std::max(a_tile_start + ab_first, b_tile_start + b_first) + flag;
    const int64_t to_first_matmul = b.first_matmul - b.first_panel;
    b.tile_step = u;

    // One panel in the steady state: DDR loads it (producer), the cubes
    // copy it tile by tile into L0 (consumer), around `buffers` L1 panel
    // buffers. The consumer releases the panel when its last A tile is in
    // L0: a copy that waits, l0_buffers steps behind, for the MATMULs.
    const int64_t rest_kt = t.kb - (tiles - 1) * t.kt;
    const int64_t panel_copy = (tiles - 1) * u + (rest_kt == t.kt ? u : tile_step(rest_kt));
    int64_t release = flag + (tiles - 1) * ab_kt + a_kt;
    if (tiles - 1 - t.l0_buffers >= 0)
        release = std::max(release, to_first_matmul + (tiles - 1 - t.l0_buffers) * u + mm_kt + flag + a_kt);
    // dma0 pays its loop control per panel when it does not wait.
    b.panel_step = panels ? pipelined(pace_kb + issue, panel_copy, load_kb + release + flag, t.buffers) : panel_copy;

    // The MATMULs: one panel step for each panel but the last two, then
    // the step into the last panel (which may be shallower, and so load
    // sooner), then the last panel's L0 steps, the last one's MATMUL
    // ending the stream.
    const int64_t last_k = last_kb - (last_tiles - 1) * t.kt;
    const int64_t load_last = last_kb == t.kb ? load_kb : panel_load(last_kb);
    const int64_t into_last = steps < 2 ? 0
                              : !panels ? panel_copy
                                        : pipelined(panel_pace(last_kb, load_last) + issue, panel_copy,
                                                    load_last + release + flag, t.buffers);
    // The last MATMUL pays its loop control too where the cubes set the pace.
    const int64_t last_issue = steps * tiles > 1 && u == mm_kt + issue ? issue : 0;
    b.last_matmul = b.first_matmul + std::max<int64_t>(0, steps - 2) * b.panel_step + into_last + (last_tiles - 1) * u +
                    (last_k == t.kt ? mm_kt : matmul(last_k)) + last_issue + fold_fill;

    // Drain: the accumulators go to L1 (narrowed to C's dtype in flight) on
    // the shared L1 port, then one store engine writes them to DDR one
    // after another while the other clusters store theirs (an on-chip C
    // stays in L1). The write-back and the stores are after the loop: no
    // loop control.
    // A fused epilogue (§10 "Fusion") runs between the write-back and the
    // store: cube k's chain of VECTOR commands (§8, back to back) on
    // vector unit k mod vector_units, after the write-back's flag; the
    // store of its tile, of the result's dtype, waits for its last VECTOR's
    // flag. The busiest unit takes ceil(cubes / units) chains one after
    // another, and the stores of each round's tiles follow the rest in
    // order on the store engine. Its operands load behind the panels (the
    // last one in once the panel `buffers` back is released, about a panel
    // step each): the column vectors, then each cube's streamed tiles; the
    // first VECTOR of each chain waits for them too.
    const int64_t c_wb = m * n * eo;
    const int64_t eout = g.epilogue_result ? arch::dtype_bytes(*g.epilogue_result) : eo;
    const int64_t c_tile = m * n * eout;
    const int64_t written_back = b.last_matmul + flag + l1_out.transfer(c_wb, cubes);
    if (g.c_on_chip) {
        b.total = written_back;
    } else if (g.epilogue_vector.empty()) {
        b.total = written_back + flag + ddr_out.stream(cubes, c_tile, sharing);
    } else {
        int64_t chain = 0;
        for (const GemmShape::VectorStep& s : g.epilogue_vector) {
            arch::VectorArgs v;
            v.op = s.op, v.dtype = s.dtype, v.rows = uint32_t(m), v.cols = uint32_t(n);
            chain += int64_t(arch::vector_cost(c, v).total_cycles);
        }
        int64_t operands_in = 0;
        if (g.epilogue_streamed_bytes > 0 || g.epilogue_column_bytes > 0) {
            operands_in = b.first_panel + std::max<int64_t>(0, steps - t.buffers) * b.panel_step;
            if (g.epilogue_column_bytes > 0) operands_in += ddr.transfer(cols * g.epilogue_column_bytes, sharing);
            if (g.epilogue_streamed_bytes > 0)
                operands_in += ddr.stream(cubes, m * n * g.epilogue_streamed_bytes, sharing);
        }
        const int64_t start = std::max(written_back, operands_in) + flag;
        const int64_t units = std::max<int64_t>(1, c.vector_units);
        b.total = 0;
        for (int64_t first = 0, round = 1; first < cubes; first += units, ++round)
            b.total = std::max(b.total, start + round * chain + flag + ddr_out.stream(cubes - first, c_tile, sharing));
    }
    // What the block moves over DDR: for how long it keeps the link busy.
    const int64_t operands = rows * cols * g.epilogue_streamed_bytes + cols * g.epilogue_column_bytes;
    b.ddr_busy = steps * (ddr.busy(a_panel(t.kb)) + ddr.busy(b_panel(t.kb))) +
                 (g.c_on_chip ? 0 : cubes * ddr.busy(c_tile) + ddr.busy(operands));
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
};

// Block cycles per kind (last row? last column?) for a degree of DDR
// sharing (in eighths), computed when first asked for.
class KindCosts {
public:
    KindCosts(const arch::Config& c, const GemmShape& g, const MatmulTiling& t, const BlockGrid& grid)
        : c_(c),
          g_(g),
          t_(t),
          grid_(grid),
          cost_(size_t(4 * (8 * grid.clusters + 1)), -1),
          busy_(4, -1),
          duty_(4, -1.0) {}

    int64_t operator()(int last_row, int last_col, double sharing) {
        const int64_t eighths = std::clamp<int64_t>(int64_t(sharing * 8 + 0.5), 8, 8 * grid_.clusters);
        int64_t& cost = cost_[size_t((last_row * 2 + last_col) * (8 * grid_.clusters + 1) + eighths)];
        if (cost < 0) cost = block(last_row, last_col, double(eighths) / 8).total;
        return cost;
    }

    // Cycles a block occupies the DDR link, alone.
    int64_t ddr_busy(int last_row, int last_col) {
        int64_t& busy = busy_[size_t(last_row * 2 + last_col)];
        if (busy < 0) busy = std::max<int64_t>(1, block(last_row, last_col, 1.0).ddr_busy);
        return busy;
    }

    // The fraction of its time a block keeps a DDR request pending when
    // `n` clusters load at the same time: near 1 for a block that DDR
    // bounds, small for one the cubes bound.
    double ddr_duty(int last_row, int last_col, int64_t n) {
        double& duty = duty_[size_t(last_row * 2 + last_col)];
        if (duty < 0) {
            const BlockCost b = block(last_row, last_col, double(n));
            duty = std::min(1.0, double(n * b.ddr_busy) / double(b.total));
        }
        return duty;
    }

private:
    BlockCost block(int last_row, int last_col, double sharing) const {
        return estimate_block(c_, g_, t_, last_row ? grid_.last_rows : t_.block_rows(),
                              last_col ? grid_.last_cols : t_.block_cols(), sharing);
    }

    const arch::Config& c_;
    const GemmShape& g_;
    const MatmulTiling& t_;
    const BlockGrid& grid_;
    std::vector<int64_t> cost_;  // [kind][sharing in eighths]
    std::vector<int64_t> busy_;  // [kind]
    std::vector<double> duty_;   // [kind]
};

}  // namespace

namespace {

int64_t list_scheduled(const arch::Config& c, const GemmShape& g, const MatmulTiling& t, const BlockGrid& grid,
                       KindCosts& cost);

}  // namespace

int64_t estimate_gemm_cycles(const arch::Config& c, const GemmShape& g, const MatmulTiling& t) {
    return estimate_gemm_cycles(c, g, t, nullptr);
}

int64_t estimate_gemm_cycles(const arch::Config& c, const GemmShape& g, const MatmulTiling& t, int64_t* scheduled) {
    const BlockGrid grid(c, g, t);
    KindCosts cost(c, g, t, grid);
    // The blocks share one DDR link: however they are scheduled, the
    // GEMM takes at least as long as the link needs to move all of their
    // bytes (plus the last transfer's latency). The per-block sharing
    // below misses this where few blocks run out of step (a GEMV's or a
    // skinny GEMM's edge blocks, one request in flight), so it is taken as
    // a floor. (Not behind an L2, whose hits let the blocks read panels
    // faster than DDR delivers them: the estimate is as before there.)
    const int64_t items = std::max<int64_t>(1, g.items);
    const int64_t inner_rows = grid.per_item_rows - 1, inner_cols = grid.per_item_cols - 1;
    const int64_t busy = items * (inner_rows * inner_cols * cost.ddr_busy(0, 0) + inner_rows * cost.ddr_busy(0, 1) +
                                  inner_cols * cost.ddr_busy(1, 0) + cost.ddr_busy(1, 1));
    const int64_t link_floor = c.dispatch_cycles + 1 + busy + c.ddr_latency_cycles;
    const int64_t list = list_scheduled(c, g, t, grid, cost);
    if (scheduled) *scheduled = list;
    return c.l2_kib > 0 ? list : std::max(link_floor, list);
}

namespace {

int64_t list_scheduled(const arch::Config& c, const GemmShape& g, const MatmulTiling& t, const BlockGrid& grid,
                       KindCosts& cost) {
    const int64_t per_item = grid.per_item_rows * grid.per_item_cols;
    // Block i in lower_gemm's order: its block row and its kind.
    auto row_of = [&](int64_t i) { return i % per_item / grid.per_item_cols; };
    auto kind_of = [&](int64_t i) {
        return std::make_pair(int(row_of(i) == grid.per_item_rows - 1),
                              int(i % grid.per_item_cols == grid.per_item_cols - 1));
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
    // How much another block running alongside block i shares DDR with it,
    // for the fraction `overlap` of block i's time it runs. Alike blocks
    // started together stay in lockstep: they fill and drain at the same
    // moments and share every transfer. Others are out of step: they meet
    // block i's transfers only while they keep DDR busy themselves.
    auto share = [&](int64_t i, int64_t j, bool in_step, double overlap) {
        if (in_step && alike(i, j)) return overlap;
        const auto [r, q] = kind_of(j);
        const auto [ri, qi] = kind_of(i);
        const int64_t n = std::min(grid.clusters, grid.blocks);
        const double ti = double(cost(ri, qi, double(n))), tj = double(cost(r, q, double(n)));
        // Out of step, a burst of the other block delays block i when it
        // meets one of i's transfers on the link (round-robin, §6): the
        // other's DDR cycles within block i's time, times the fraction of
        // its time block i keeps a request pending. Never more than doubling
        // i's own transfers (round-robin leaves it every other burst).
        const double moved = double(cost.ddr_busy(r, q)) * std::min(1.0, overlap * ti / tj);
        return std::min(overlap, moved * cost.ddr_duty(ri, qi, n) / double(cost.ddr_busy(ri, qi)));
    };
    // Identical blocks: waves of `clusters` blocks in lockstep, each block
    // sharing DDR with its whole wave (what the loop below comes to).
    if (grid.last_rows == t.block_rows() && grid.last_cols == t.block_cols() &&
        (!g.a_panel_bytes || grid.per_item_rows == 1)) {
        const int64_t waves = grid.blocks / grid.clusters, rest = grid.blocks % grid.clusters;
        return waves * (c.dispatch_cycles + cost(1, 1, double(std::min(grid.clusters, grid.blocks)))) +
               (rest ? c.dispatch_cycles + cost(1, 1, double(rest)) : 0);
    }
    // §4: each block goes to the cluster that frees first (the lowest
    // numbered on a tie) and starts dispatch_cycles after it freed, along
    // with the blocks the other idle clusters take at that moment.
    struct Running {
        int64_t block = -1, start = 0, end = 0;
    };
    std::vector<Running> cluster(size_t(grid.clusters));
    int64_t end = 0;
    for (int64_t i = 0; i < grid.blocks; ++i) {
        auto it = std::min_element(cluster.begin(), cluster.end(),
                                   [](const Running& a, const Running& b) { return a.end < b.end; });
        const int64_t now = it->end, start = now + c.dispatch_cycles;
        const auto [r, q] = kind_of(i);
        // A first guess of the block's length: in lockstep with every other
        // cluster.
        const int64_t guess = cost(r, q, double(std::min(grid.clusters, grid.blocks)));
        double sharing = 1.0;
        int64_t next = i + 1;  // the next block to go to a cluster
        for (const Running& o : cluster) {
            if (&o == &*it) continue;
            // What the other cluster runs now: its block (in step with
            // block i if started within 5 % of a block's time of it), or
            // the next one if it is idle (it takes it at once, in step).
            int64_t j = o.block, j_end = o.end;
            bool in_step = 20 * std::abs(o.start - start) <= guess;
            if (o.end <= now) {
                if (next >= grid.blocks) continue;
                j = next++, in_step = true;
                const auto [jr, jq] = kind_of(j);
                j_end = now + cost(jr, jq, double(std::min(grid.clusters, grid.blocks)));
            }
            const double overlap = std::min(1.0, double(j_end - now) / double(guess));
            sharing += share(i, j, in_step, overlap);
            // If it frees while block i runs, it takes the next block.
            if (overlap < 1.0 && next < grid.blocks) sharing += share(i, next++, false, 1.0 - overlap);
        }
        it->block = i, it->start = start, it->end = start + cost(r, q, sharing);
        end = std::max(end, it->end);
    }
    return end;
}

}  // namespace

int64_t estimate_gemm_cycles_bound(const arch::Config& c, const GemmShape& g, const MatmulTiling& t) {
    const BlockGrid grid(c, g, t);
    // A block is never faster than with DDR to itself.
    int64_t alone[2][2];
    for (int r = 0; r < 2; ++r)
        for (int q = 0; q < 2; ++q) {
            const int64_t rows = r ? grid.last_rows : t.block_rows(), cols = q ? grid.last_cols : t.block_cols();
            alone[r][q] = r && rows == t.block_rows()   ? alone[0][q]
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
