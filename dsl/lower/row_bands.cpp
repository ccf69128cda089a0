#include "dsl/lower/row_bands.h"

#include <algorithm>
#include <limits>

#include "dsl/lower/buffer_plan.h"
#include "dsl/lower/tiling/gemm_cost.h"

namespace dsl {

namespace {

// The GEMM estimate's stated accuracy (docs/timing-model.md §10: within 1 %
// where all blocks are alike, 3 % with edge blocks).
constexpr double kEstimateError = 0.03;

}  // namespace

std::vector<int64_t> band_tile(const arch::Config& c, const GemmShape& g, const MatmulTiling& free, int64_t bands,
                               int64_t clusters) {
    if (bands <= 1 || clusters % bands || g.M % bands || g.N % (clusters / bands)) return {};
    const int64_t rows = g.M / bands, cols = g.N / (clusters / bands);
    if (rows % free.grid_rows || cols % free.grid_cols) return {};
    const int64_t mt = rows / free.grid_rows, nt = cols / free.grid_cols;
    if (mt % c.mac_rows || nt % c.mac_cols) return {};
    return {mt, nt};
}

int64_t choose_row_bands(const TaskGraph& g, const arch::Config& c, int buffer, int64_t clusters,
                         const std::function<GemmShape(const OpNode&)>& shape_of) {
    std::vector<GemmShape> readers;
    for (const OpNode& op : g.ops) {
        if (std::find(op.inputs.begin(), op.inputs.end(), buffer) == op.inputs.end()) continue;
        if (op.kind != OpKind::Matmul) continue;
        GemmShape s = shape_of(op);
        if (op.inputs[0] != buffer || op.inputs[1] == buffer || !s.tile.empty() || s.items != 1) return 1;
        readers.push_back(s);
    }
    const TensorNode& t = g.tensors[size_t(buffer)];
    const uint64_t bytes = tensor_bytes(t);
    struct Choice {
        int64_t bands, cycles;
        uint64_t ddr_bytes;
    };
    std::vector<Choice> choices;
    for (int64_t bands = 1; bands <= clusters; ++bands) {
        if (clusters % bands) continue;
        Choice ch{bands, int64_t(bytes * uint64_t(clusters / bands) / uint64_t(c.ddr_bytes_per_cycle)),
                  bytes * uint64_t(clusters / bands)};
        bool ok = true;
        for (const GemmShape& s : readers) {
            const uint64_t b_bytes = uint64_t(s.K * s.N * arch::dtype_bytes(s.in));
            TilingFailure why;
            std::optional<MatmulTiling> free = choose_matmul_tiling(c, s, why);
            if (!free) return 1;  // the matmul's own lowering says why
            GemmShape forced = s;
            if (bands > 1) forced.tile = band_tile(c, s, *free, bands, clusters);
            std::optional<MatmulTiling> t = bands == 1            ? free
                                            : forced.tile.empty() ? std::nullopt
                                                                  : choose_matmul_tiling(c, forced, why);
            if (!t) {
                ok = false;
                break;
            }
            ch.cycles += estimate_gemm_cycles(c, forced, *t);
            // Every band of block rows reads all of B.
            ch.ddr_bytes += b_bytes * uint64_t((s.M + t->block_rows() - 1) / t->block_rows());
        }
        if (ok) choices.push_back(ch);
    }
    // The fewest DDR bytes among the choices the estimate cannot tell apart
    // from the fastest: keeping data on chip is what the buffer is for.
    int64_t fastest = std::numeric_limits<int64_t>::max();
    for (const Choice& ch : choices) fastest = std::min(fastest, ch.cycles);
    int64_t best = 1;
    uint64_t best_bytes = std::numeric_limits<uint64_t>::max();
    for (const Choice& ch : choices)
        if (double(ch.cycles) <= double(fastest) * (1 + kEstimateError) && ch.ddr_bytes < best_bytes)
            best = ch.bands, best_bytes = ch.ddr_bytes;
    return best;
}

}  // namespace dsl
