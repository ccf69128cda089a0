// What --topology adds to --ops-csv (sim/trace/ops_csv.h, the one
// per-operation schema): for the operation of each layer of the SCALE-Sim
// topology file, the layer and SCALE-Sim's COMPUTE_REPORT.csv figures
// (tests/golden/scalesim/README.md says how SCALE-Sim computes them), in
// columns named scalesim_*, after the common ones and before
// schema_version. The common columns already give the operation's start,
// end, cycles and cube_cycles.
//
// Columns: scalesim_layer (the file's name), scalesim_line, scalesim_kind
// (conv, gemm), scalesim_M, scalesim_N, scalesim_K (the GEMM SCALE-Sim
// computes), scalesim_rows, scalesim_cols, scalesim_dataflow,
// scalesim_arrays (MAC arrays of the chip), scalesim_folds (of the whole
// layer on one array), scalesim_total_cycles (stall-free: cube_cycles,
// SCALE-Sim's Total - Stall on one array), scalesim_stall_cycles (cycles -
// cube_cycles: the cycles the array waited for memory, on one array; empty
// on several, where the two do not compare), scalesim_overall_util,
// scalesim_mapping_efficiency, scalesim_compute_util (in %, as SCALE-Sim
// computes them, from scalesim_total_cycles and the layer's folds). The
// figures exist only for the systolic dataflows: on the fractal cube,
// scalesim_folds to scalesim_compute_util are empty.
#pragma once

#include <vector>

#include "dsl/frontend/topology.h"
#include "sim/arch/config.h"
#include "sim/trace/op_stats.h"
#include "sim/trace/ops_csv.h"

namespace cli {

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

// The columns for the operations `ops` (in program order, as the ops CSV
// gets them) of the program topology_source(t) made. An operation of no
// layer has them empty.
std::vector<trace::OpsCsvColumn> scalesim_columns(const dsl::Topology& t, const std::vector<trace::OpStats>& ops);

}  // namespace cli
