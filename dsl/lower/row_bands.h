// How a buffer copied into L1 (pypo.mem.alloc_l1) that matmuls read as
// their A operand is spread over the clusters (docs/timing-model.md §10,
// "On-chip tensors"): in `bands` bands of rows, each band copied into the
// L1 of clusters / bands clusters, and every matmul reading it tiled so
// that a block reads one band (its block rows a band, its block columns
// N * bands / clusters).
//
// Why a choice: one band (every cluster copies the whole buffer) leaves
// the matmuls free to split over N, reading their B operand once, but the
// copies cross the DDR link clusters times before any matmul can start;
// more bands copy fewer bytes and read B once per band. The compiler
// estimates each count's cycles: the copies' bytes over the DDR bandwidth
// (they run alone, before their readers) plus each reading matmul's
// estimate for its tiling (dsl/lower/tiling/gemm_cost.h); of the counts
// within the estimate's accuracy (3 %) of the fastest it takes the one
// with the fewest DDR bytes (the copies and every band's reads of B).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/lower/tiling/matmul_tiling.h"
#include "sim/arch/config.h"

namespace dsl {

// The cube tile (mt, nt) that makes a matmul's blocks bands x (clusters /
// bands) of C, given the tiling it would choose freely (for its cube
// grid); empty when that tile does not divide the GEMM or bands is 1.
std::vector<int64_t> band_tile(const arch::Config& c, const GemmShape& g, const MatmulTiling& free, int64_t bands,
                               int64_t clusters);

// The number of bands for on-chip buffer `buffer` (a divisor of
// `clusters`, 1 when a matmul reads it as B, batched, or with tile=).
// `shape_of(op)` gives the GemmShape a reading matmul is lowered with.
int64_t choose_row_bands(const TaskGraph& g, const arch::Config& c, int buffer, int64_t clusters,
                         const std::function<GemmShape(const OpNode&)>& shape_of);

}  // namespace dsl
