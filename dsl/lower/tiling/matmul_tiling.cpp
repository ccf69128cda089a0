#include "dsl/lower/tiling/matmul_tiling.h"

#include "dsl/lower/tiling/gemm_cost.h"

#include <algorithm>
#include <cstdlib>
#include <tuple>
#include <vector>

#include "sim/arch/ceil_div.h"
#include "sim/arch/cube_rate.h"

namespace dsl {

namespace {

int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// Candidate extents: the unit doubling until it covers `limit` (a tile
// larger than that would only compute padding).
std::vector<int64_t> extents(int64_t unit, int64_t limit) {
    std::vector<int64_t> v;
    for (int64_t e = unit;; e *= 2) {
        v.push_back(e);
        if (e >= limit || e >= 4096) break;
    }
    return v;
}

// The smallest k-step: the larger side of the MAC array, and at least one
// whole MAC step of the operand dtype (cube.k_per_cycle's K depth, §7.1,
// which is twice float16's for int8): a shallower step would pay a whole
// step for part of its K.
int64_t k_unit(const arch::Config& c, arch::DType in) {
    return std::max({c.mac_rows, c.mac_cols, arch::cube_k_depth(c, in)});
}

// The most square grid rows x cols == cubes, rows <= cols.
void cube_grid(int64_t cubes, int64_t& rows, int64_t& cols) {
    rows = 1;
    for (int64_t r = 1; r * r <= cubes; ++r)
        if (cubes % r == 0) rows = r;
    cols = cubes / rows;
}

// Every grid rows x cols == cubes, the most square first: a block of
// M = 1 (a GEMV) fills only one row of cube tiles, so a 2 x 2 grid would
// leave half the cubes idle; a 1 x cubes grid splits N over all of them
// (and cubes x 1 splits M of a matrix with few columns).
std::vector<std::pair<int64_t, int64_t>> cube_grids(int64_t cubes) {
    int64_t rows = 1, cols = 1;
    cube_grid(cubes, rows, cols);
    std::vector<std::pair<int64_t, int64_t>> v{{rows, cols}};
    for (int64_t r = 1; r <= cubes; ++r)
        if (cubes % r == 0 && r != rows) v.push_back({r, cubes / r});
    return v;
}

std::string tile_text(const std::vector<int64_t>& t) {
    std::string s = "(";
    for (size_t i = 0; i < t.size(); ++i) s += (i ? ", " : "") + std::to_string(t[i]);
    return s + ")";
}

// Panel depths to try, shallowest first. A matmul doubles kt up to K
// rounded to kt (as before there were convolutions); a convolution doubles
// whole channels and also tries all of K, which is rarely a power of two
// times kh * kw.
std::vector<int64_t> panel_depths(const MatmulTiling& t, const GemmShape& g) {
    std::vector<int64_t> v;
    int64_t unit = g.k_granule ? g.k_granule : t.kt;
    int64_t limit = round_up(g.K, unit);
    for (int64_t kb = unit; kb <= limit; kb *= 2) v.push_back(kb);
    if (g.k_granule && v.back() != limit) v.push_back(limit);
    return v;
}

}  // namespace

bool keeps_folds_whole(const arch::Config& c, const GemmShape& g, const MatmulTiling& t) {
    if (c.cube_dataflow != arch::Dataflow::OS) return true;
    // A convolution's panels are whole channels, possibly shallower than kt:
    // the k-steps are then the panels'. (kb = 0: not chosen yet.)
    const int64_t step = t.kb ? std::min(t.kt, t.kb) : t.kt;
    return step >= g.K || (t.mt == c.mac_rows && t.nt == c.mac_cols);
}

GemmQueues gemm_queues(const arch::Config& c) {
    GemmQueues q;
    const int last = int(std::max<int64_t>(c.dma_engines, 1) - 1);
    q.load_b = last >= 2 ? 1 : 0;
    q.store = std::min(2, last);
    return q;
}

std::string buffering_name(int64_t buffers) { return buffers == 1 ? "single" : buffers == 3 ? "triple" : "double"; }

int64_t l0_bytes_needed(const MatmulTiling& t, arch::DType in) {
    int64_t e = arch::dtype_bytes(in);
    return t.l0_buffers * (t.mt * t.kt + t.kt * t.nt) * e + t.mt * t.nt * 4;
}

bool fits_l0(const arch::Config& c, const MatmulTiling& t, arch::DType in) {
    if (!c.l0_split()) return l0_bytes_needed(t, in) <= c.l0_bytes();
    const int64_t e = arch::dtype_bytes(in);
    return t.l0_buffers * t.mt * t.kt * e <= c.l0a_kib * 1024 && t.l0_buffers * t.kt * t.nt * e <= c.l0b_kib * 1024 &&
           t.mt * t.nt * 4 <= c.l0c_kib * 1024;
}

std::string l0_need_text(const arch::Config& c, const MatmulTiling& t, arch::DType in) {
    if (!c.l0_split()) return std::to_string(l0_bytes_needed(t, in)) + " bytes of L0";
    const int64_t e = arch::dtype_bytes(in);
    return std::to_string(t.l0_buffers * t.mt * t.kt * e) + ", " + std::to_string(t.l0_buffers * t.kt * t.nt * e) +
           " and " + std::to_string(t.mt * t.nt * 4) + " bytes of L0A, L0B and L0C";
}

std::string l0_have_text(const arch::Config& c) {
    if (!c.l0_split()) return "the cube has " + std::to_string(c.l0_bytes());
    return "the cube has " + std::to_string(c.l0a_kib * 1024) + ", " + std::to_string(c.l0b_kib * 1024) + " and " +
           std::to_string(c.l0c_kib * 1024);
}

int64_t l1_bytes_needed(const MatmulTiling& t, const GemmShape& g) {
    int64_t e = arch::dtype_bytes(g.in);
    int64_t a_panel = g.a_panel_bytes ? g.a_panel_bytes(t) : t.block_rows() * t.kb * e;
    int64_t b_panel = g.b_on_chip ? 0 : t.kb * t.block_cols() * e;
    int64_t c_block = g.c_on_chip ? 0 : t.block_rows() * t.block_cols() * arch::dtype_bytes(g.out);
    const int64_t epilogue =
        g.epilogue_block_bytes * t.block_rows() * t.block_cols() + g.epilogue_column_bytes * t.block_cols();
    // The scales, then the raw panels; the multiply reads the scales as a
    // kb x cols source, whose region (rows x cols elements, as the program
    // checker sees a broadcast source) must lie in L1 too.
    const int64_t dequant =
        g.b_int8 ? std::max(t.block_cols() * e + t.buffers * t.kb * t.block_cols(), t.kb * t.block_cols() * e) : 0;
    return t.buffers * (a_panel + b_panel) + c_block + epilogue + dequant;
}

int64_t deepest_panel(const arch::Config& c, const GemmShape& g, MatmulTiling t) {
    int64_t best_kb = 0;
    for (int64_t kb : panel_depths(t, g)) {
        t.kb = kb;
        if (l1_bytes_needed(t, g) > c.l1_bytes()) break;
        best_kb = kb;
    }
    return best_kb;
}

bool tiling_preferred(const MatmulTiling& a, const MatmulTiling& b) {
    auto key = [](const MatmulTiling& x) {
        return std::make_tuple(x.mt * x.nt, -std::abs(x.mt - x.nt), x.mt, x.kt, x.kb,
                               -std::abs(x.grid_rows - x.grid_cols));
    };
    return key(a) > key(b);
}

int64_t gemm_commands(const GemmShape& g, const MatmulTiling& t) {
    using arch::ceil_div;
    const int64_t steps = ceil_div(g.K, t.kb);
    // L0 steps over all of K: full panels of ceil(kb / kt) tiles, the last
    // panel possibly shallower.
    const int64_t tiles = (steps - 1) * ceil_div(t.kb, t.kt) + ceil_div(g.K - (steps - 1) * t.kb, t.kt);
    const int64_t panel_cmds = steps * ((g.a_on_chip ? 0 : 1) + (g.b_on_chip ? 0 : 1));
    const int64_t per_cube =
        3 * tiles + 1 + (g.c_on_chip ? 0 : 1);  // A, B tiles and MATMUL per step; write-back; store
    // Cubes used per block: the full block's grid, fewer in edge blocks.
    auto used = [&](int64_t extent, int64_t tile, int64_t grid) { return std::min(grid, ceil_div(extent, tile)); };
    const int64_t br = ceil_div(g.M, t.block_rows()), bc = ceil_div(g.N, t.block_cols());
    const int64_t last_r = g.M - (br - 1) * t.block_rows(), last_c = g.N - (bc - 1) * t.block_cols();
    int64_t cubes = 0;
    for (int r = 0; r < 2; ++r)
        for (int q = 0; q < 2; ++q) {
            const int64_t nr = r ? 1 : br - 1, nq = q ? 1 : bc - 1;
            if (nr == 0 || nq == 0) continue;
            cubes += nr * nq * used(r ? last_r : t.block_rows(), t.mt, t.grid_rows) *
                     used(q ? last_c : t.block_cols(), t.nt, t.grid_cols);
        }
    return std::max<int64_t>(1, g.items) * (br * bc * panel_cmds + cubes * per_cube);
}

std::optional<MatmulTiling> choose_matmul_tiling(const arch::Config& c, const GemmShape& g, TilingFailure& why) {
    return explore_matmul_tilings(c, g, why, nullptr);
}

std::optional<MatmulTiling> explore_matmul_tilings(const arch::Config& c, const GemmShape& g, TilingFailure& why,
                                                   std::vector<TilingCandidate>* considered) {
    MatmulTiling grid;
    cube_grid(c.cubes_per_cluster, grid.grid_rows, grid.grid_cols);
    grid.buffers = g.buffers;
    grid.l0_buffers = g.l0_buffers;
    std::vector<MatmulTiling> fits_l0_list;
    if (!g.tile.empty()) {
        // The program's tile: only its k (when not given) is searched.
        MatmulTiling t = grid;
        t.mt = g.tile[0], t.nt = g.tile[1];
        std::vector<int64_t> ks = g.tile.size() > 2 ? std::vector<int64_t>{g.tile[2]} : extents(k_unit(c, g.in), g.K);
        for (int64_t kt : ks) {
            t.kt = kt;
            if (fits_l0(c, t, g.in)) fits_l0_list.push_back(t);
        }
        if (fits_l0_list.empty()) {
            t.kt = ks.front();
            why.memory = arch::Space::L0;
            why.text = "tile=" + tile_text(g.tile) + " needs " + l0_need_text(c, t, g.in) + " with " +
                       buffering_name(t.l0_buffers) + " buffering" +
                       (g.tile.size() > 2 ? "" : " (k = " + std::to_string(t.kt) + ")") + ", " + l0_have_text(c);
            return std::nullopt;
        }
    } else {
        // A tile larger than a cube's share of the matrix only idles MACs.
        // A grid other than the squarest is tried only where the squarest
        // leaves cubes idle in every block (fewer tile rows or columns
        // than the grid has): elsewhere it only reshapes the block.
        for (const auto& [rows, cols] : cube_grids(c.cubes_per_cluster)) {
            const bool squarest = rows == grid.grid_rows;
            if (!squarest && arch::ceil_div(g.M, c.mac_rows) >= grid.grid_rows &&
                arch::ceil_div(g.N, c.mac_cols) >= grid.grid_cols)
                continue;
            for (int64_t mt : extents(c.mac_rows, arch::ceil_div(g.M, rows)))
                for (int64_t nt : extents(c.mac_cols, arch::ceil_div(g.N, cols)))
                    for (int64_t kt : extents(k_unit(c, g.in), g.K)) {
                        MatmulTiling t = grid;
                        t.grid_rows = rows, t.grid_cols = cols;
                        t.mt = mt, t.nt = nt, t.kt = kt;
                        if (fits_l0(c, t, g.in) && keeps_folds_whole(c, g, t)) fits_l0_list.push_back(t);
                    }
        }
        if (fits_l0_list.empty()) {
            MatmulTiling t = grid;
            t.mt = c.mac_rows, t.nt = c.mac_cols, t.kt = k_unit(c, g.in);
            why.memory = arch::Space::L0;
            why.text = "the smallest cube tile (" + std::to_string(t.mt) + "x" + std::to_string(t.kt) + "x" +
                       std::to_string(t.nt) + ") needs " + l0_need_text(c, t, g.in) + ", " + l0_have_text(c);
            return std::nullopt;
        }
    }
    // Every tiling that fits L0 and L1, estimated in preference order: good
    // tilings tend to come early, so the cheap lower bound of the cost
    // skips the rest whose bound is above the best estimate plus the band
    // below (they cannot be taken). Tilings within 0.5 % of the cheapest
    // estimate count as equally fast: of those, the fewest commands win
    // (deeper k-steps, larger tiles), then the fewer estimated cycles, the
    // lower list schedule (gemm_cost.h: among DDR-bound tilings the floor
    // makes equal), the earlier in preference order. The band is the
    // estimate's resolution: taking the strictly cheapest estimate instead
    // made programs up to twice as long (gemm_256: 1,824 commands against
    // 928; a 540 x 960 super_resolution frame: 2,447,820 against
    // 1,994,188) for estimated gains below the estimate's error, and slower
    // in simulation about as often as faster (that frame 0.24 % slower;
    // docs/timing-model.md §10).
    std::sort(fits_l0_list.begin(), fits_l0_list.end(), tiling_preferred);
    struct Estimated {
        MatmulTiling t;
        int64_t cycles, scheduled;
    };
    std::vector<Estimated> near;
    int64_t best_cycles = -1;
    auto near_best = [&](int64_t cycles) { return cycles * 1000 <= best_cycles * 1005; };
    for (MatmulTiling t : fits_l0_list) {
        const std::vector<int64_t> depths = panel_depths(t, g);
        for (auto kb = depths.rbegin(); kb != depths.rend(); ++kb) {  // deepest first
            t.kb = *kb;
            if (l1_bytes_needed(t, g) > c.l1_bytes() || (g.tile.empty() && !keeps_folds_whole(c, g, t))) continue;
            if (best_cycles >= 0 && !near_best(estimate_gemm_cycles_bound(c, g, t))) continue;
            int64_t scheduled = 0;
            const int64_t cycles = estimate_gemm_cycles(c, g, t, &scheduled);
            if (considered) considered->push_back({t, cycles});
            if (best_cycles < 0 || cycles < best_cycles) best_cycles = cycles;
            if (near_best(cycles)) near.push_back({t, cycles, scheduled});
        }
    }
    // The DDR floor makes DDR-bound tilings equal; their list schedules
    // still tell fewer blocks on fewer clusters from more: the band holds
    // for both.
    int64_t best_scheduled = -1;
    for (const Estimated& k : near)
        if (near_best(k.cycles) && (best_scheduled < 0 || k.scheduled < best_scheduled)) best_scheduled = k.scheduled;
    std::optional<MatmulTiling> best;
    int64_t best_commands = 0, chosen_cycles = 0, chosen_scheduled = 0;
    for (const Estimated& k : near) {  // in preference order
        if (!near_best(k.cycles) || k.scheduled * 1000 > best_scheduled * 1005) continue;
        const int64_t commands = gemm_commands(g, k.t);
        if (!best || std::make_tuple(commands, k.cycles, k.scheduled) <
                         std::make_tuple(best_commands, chosen_cycles, chosen_scheduled))
            best = k.t, best_commands = commands, chosen_cycles = k.cycles, chosen_scheduled = k.scheduled;
    }
    if (best) return best;
    MatmulTiling t = fits_l0_list.back();
    t.kb = panel_depths(t, g).front();
    why.memory = arch::Space::L1;
    why.text = "the smallest block (" + std::to_string(t.block_rows()) + "x" + std::to_string(t.block_cols()) +
               " with " + buffering_name(t.buffers) + "-buffered panels " + std::to_string(t.kb) + " deep) needs " +
               std::to_string(l1_bytes_needed(t, g)) + " bytes of L1, the cluster has " + std::to_string(c.l1_bytes());
    return std::nullopt;
}

}  // namespace dsl
