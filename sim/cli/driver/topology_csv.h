// --topology-csv FILE: with --topology, one row per layer of the SCALE-Sim
// topology file: what davinci-sim measured for its operation and SCALE-Sim's
// COMPUTE_REPORT.csv columns for it (tests/golden/scalesim/README.md says
// how SCALE-Sim computes them).
//
// Columns: layer (the file's name), line, op (the operation), kind (conv,
// gemm), M, N, K (the GEMM SCALE-Sim computes), rows, cols, dataflow,
// arrays (MAC arrays of the chip), folds (of the whole layer on one
// array), start, end, cycles (the operation's, end - start), cube_cycles
// (its MATMULs' busy cycles, summed over the arrays), then SCALE-Sim's
// columns: total_cycles (stall-free: cube_cycles, SCALE-Sim's Total - Stall
// on one array), stall_cycles (cycles - cube_cycles: the cycles the array
// waited for memory, on one array; empty on several, where the two do not
// compare), overall_util, mapping_efficiency, compute_util (in %, as
// SCALE-Sim computes them, from total_cycles and the layer's folds), and
// schema_version. Only for the systolic dataflows; on the fractal cube the
// SCALE-Sim columns are empty.
#pragma once

#include <string>

#include "dsl/frontend/topology.h"
#include "sim/arch/config.h"
#include "sim/trace/run_stats.h"

namespace cli {

constexpr int kTopologyCsvSchemaVersion = 1;

// SCALE-Sim's per-layer figures on one R x C array, computed as it does,
// in its order, so that the doubles are the ones it prints.
struct ScaleSimFigures {
    uint64_t folds = 0;
    uint64_t stall_free_cycles = 0;  // folds * (T + F) - 1
    double mapping_efficiency = 0;   // %
    double compute_util = 0;         // %
    // MACs * 100 / (total * R * C), for a given total.
    double overall_util(uint64_t total_cycles) const;
    uint64_t macs = 0, array_macs = 0;
};
ScaleSimFigures scalesim_figures(const arch::Config& c, int64_t M, int64_t N, int64_t K);

std::string topology_csv(const dsl::Topology& t, const arch::Config& c, const trace::RunStats& stats);

}  // namespace cli
