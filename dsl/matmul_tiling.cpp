#include "dsl/matmul_tiling.h"

#include <algorithm>
#include <cstdlib>
#include <tuple>
#include <vector>

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

// The most square grid rows x cols == cubes, rows <= cols.
void cube_grid(int64_t cubes, int64_t& rows, int64_t& cols) {
    rows = 1;
    for (int64_t r = 1; r * r <= cubes; ++r)
        if (cubes % r == 0) rows = r;
    cols = cubes / rows;
}

}  // namespace

int64_t l0_bytes_needed(const MatmulTiling& t, arch::DType in, arch::DType /*out*/) {
    int64_t e = arch::dtype_bytes(in);
    return 2 * (t.mt * t.kt + t.kt * t.nt) * e + t.mt * t.nt * 4;
}

int64_t l1_bytes_needed(const MatmulTiling& t, arch::DType in, arch::DType out) {
    int64_t e = arch::dtype_bytes(in);
    return 2 * (t.block_rows() * t.kb + t.kb * t.block_cols()) * e +
           t.block_rows() * t.block_cols() * arch::dtype_bytes(out);
}

std::optional<MatmulTiling> choose_matmul_tiling(const arch::Config& c, int64_t M, int64_t K, int64_t N,
                                                 arch::DType in, arch::DType out, std::string& why) {
    MatmulTiling grid;
    cube_grid(c.cubes_per_cluster, grid.grid_rows, grid.grid_cols);
    // A tile larger than a cube's share of the matrix only idles MACs.
    std::vector<MatmulTiling> fits_l0;
    for (int64_t mt : extents(c.mac_rows, (M + grid.grid_rows - 1) / grid.grid_rows))
        for (int64_t nt : extents(c.mac_cols, (N + grid.grid_cols - 1) / grid.grid_cols))
            for (int64_t kt : extents(std::max(c.mac_rows, c.mac_cols), K)) {
                MatmulTiling t = grid;
                t.mt = mt, t.nt = nt, t.kt = kt;
                if (l0_bytes_needed(t, in, out) <= c.l0_bytes()) fits_l0.push_back(t);
            }
    if (fits_l0.empty()) {
        MatmulTiling t = grid;
        t.mt = c.mac_rows, t.nt = c.mac_cols, t.kt = std::max(c.mac_rows, c.mac_cols);
        why = "the smallest cube tile (" + std::to_string(t.mt) + "x" + std::to_string(t.kt) + "x" +
              std::to_string(t.nt) + ") needs " + std::to_string(l0_bytes_needed(t, in, out)) +
              " bytes of L0, the cube has " + std::to_string(c.l0_bytes());
        return std::nullopt;
    }
    // Preference: larger area, then squarer, then taller, then deeper k.
    auto key = [](const MatmulTiling& x) { return std::make_tuple(x.mt * x.nt, -std::abs(x.mt - x.nt), x.mt, x.kt); };
    std::sort(fits_l0.begin(), fits_l0.end(), [&](const MatmulTiling& a, const MatmulTiling& b) { return key(a) > key(b); });
    // The first tile whose block also fits L1, with the deepest panels that do.
    for (MatmulTiling t : fits_l0) {
        int64_t best_kb = 0;
        for (int64_t kb = t.kt; kb <= round_up(K, t.kt); kb *= 2) {
            t.kb = kb;
            if (l1_bytes_needed(t, in, out) > c.l1_bytes()) break;
            best_kb = kb;
        }
        if (best_kb) {
            t.kb = best_kb;
            return t;
        }
    }
    MatmulTiling t = fits_l0.back();
    t.kb = t.kt;
    why = "the smallest block (" + std::to_string(t.block_rows()) + "x" + std::to_string(t.block_cols()) +
          " with double-buffered panels " + std::to_string(t.kb) + " deep) needs " +
          std::to_string(l1_bytes_needed(t, in, out)) + " bytes of L1, the cluster has " + std::to_string(c.l1_bytes());
    return std::nullopt;
}

}  // namespace dsl
