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
    MatmulTiling best;
    cube_grid(c.cubes_per_cluster, best.grid_rows, best.grid_cols);
    // A tile larger than a cube's share of the matrix only idles MACs.
    std::vector<int64_t> ms = extents(c.mac_rows, (M + best.grid_rows - 1) / best.grid_rows);
    std::vector<int64_t> ns = extents(c.mac_cols, (N + best.grid_cols - 1) / best.grid_cols);
    std::vector<int64_t> ks = extents(std::max(c.mac_rows, c.mac_cols), K);
    bool found = false;
    for (int64_t mt : ms)
        for (int64_t nt : ns)
            for (int64_t kt : ks) {
                MatmulTiling t = best;
                t.mt = mt, t.nt = nt, t.kt = kt;
                if (l0_bytes_needed(t, in, out) > c.l0_bytes()) continue;
                auto key = [](const MatmulTiling& x) {
                    // Larger area, then squarer, then deeper k.
                    return std::make_tuple(x.mt * x.nt, -std::abs(x.mt - x.nt), x.mt, x.kt);
                };
                if (!found || key(t) > key(best)) best = t, found = true;
            }
    if (!found) {
        MatmulTiling t = best;
        t.mt = c.mac_rows, t.nt = c.mac_cols, t.kt = std::max(c.mac_rows, c.mac_cols);
        why = "the smallest cube tile (" + std::to_string(t.mt) + "x" + std::to_string(t.kt) + "x" +
              std::to_string(t.nt) + ") needs " + std::to_string(l0_bytes_needed(t, in, out)) +
              " bytes of L0, the cube has " + std::to_string(c.l0_bytes());
        return std::nullopt;
    }
    best.kb = 0;
    for (int64_t kb = best.kt; kb <= round_up(K, best.kt); kb *= 2) {
        MatmulTiling t = best;
        t.kb = kb;
        if (l1_bytes_needed(t, in, out) > c.l1_bytes()) break;
        best.kb = kb;
    }
    if (best.kb == 0) {
        MatmulTiling t = best;
        t.kb = best.kt;
        why = "a " + std::to_string(t.block_rows()) + "x" + std::to_string(t.block_cols()) +
              " block with double-buffered panels of depth " + std::to_string(t.kb) + " needs " +
              std::to_string(l1_bytes_needed(t, in, out)) + " bytes of L1, the cluster has " +
              std::to_string(c.l1_bytes());
        return std::nullopt;
    }
    return best;
}

}  // namespace dsl
