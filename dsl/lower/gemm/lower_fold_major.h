// The fold-major GEMM schedule of the weight- and input-stationary systolic
// dataflows (cube.dataflow ws, is; docs/timing-model.md §7.2 and §10
// "Systolic fold schedules").
//
// A ws array keeps a k x n fold of B (at most R x C) and streams A's rows
// through it; an is array keeps a k x m fold of A and streams B's columns.
// SCALE-Sim times every fold streaming the whole temporal dimension (ws:
// M, is: N) once; the k-stepped schedule (lower_gemm.h) would cut that
// dimension into C tiles and pay each fold's fill again per tile. Here
// every fold streams all of it, in chunks that fit L0, each MATMUL after
// the first continuing the fold (MatmulArgs::fold_continues):
//
//   for each unit (a column fold: C columns of N for ws, C rows of M for is;
//                  one per cube of a block)
//     for each k fold (R deep)
//       load the stationary fold into L0
//       for each chunk of the temporal dimension
//         stream the chunk's operand into L0, MATMUL (continuing the fold
//         after the first chunk), accumulating into the chunk's partial sums
//
// The partial sums of a unit (temporal extent x C, float32) stay in L0 when
// they fit beside the tiles; otherwise each chunk's partial sums leave L0
// after every k fold and come back for the next: to L1 when every cube's
// fit there, else to a float32 scratch tensor in DDR. Memory traffic,
// never extra cube cycles.
#pragma once

#include <cstdint>

#include "dsl/ir/task_graph.h"
#include "dsl/lower/gemm/lower_gemm.h"
#include "dsl/lower/lower_context.h"
#include "dsl/lower/tiling/matmul_tiling.h"

namespace dsl {

// Whether `shape` takes the fold-major schedule on this hardware: a ws or
// is array, B and C in DDR, no tile= (a program's own tile keeps the
// k-stepped schedule it names).
bool fold_major_applies(const arch::Config& c, const GemmShape& shape);

struct FoldPlan {
    bool ws = true;     // else is
    int64_t chunk = 0;  // temporal extent of one MATMUL (the last may be shorter)
    enum class Partials { L0, L1, Ddr };
    Partials partials = Partials::L0;  // where the partial sums stay between k folds
    int64_t kb = 0;                    // K extent of an A panel (whole channels for a convolution)
    uint64_t scratch = 0;              // DDR address of the float32 partial sums (spilled), items x M x N
    // L1 and L0 layout (byte offsets), see lower_fold_major.cpp.
    uint64_t l1_stream[2] = {0, 0}, l1_stat = 0, l1_stat_bytes = 0, l1_out = 0, l1_in = 0, l1_acc_bytes = 0;
    uint64_t l1_home = 0;  // Partials::L1: each cube's chunks' partial sums, J chunks per cube
    uint64_t l0_stream[2] = {0, 0}, l0_stat[2] = {0, 0}, l0_acc = 0, l0_acc_bytes = 0;
};

// Chooses the chunk and the layout for every item of the operation (and
// allocates the DDR scratch when spilled); throws CompileError at `op` when
// not even a one-row chunk fits.
FoldPlan plan_fold_major(LowerContext& ctx, const OpNode& op, const GemmShape& shape);

// Appends the blocks of one item of C = A @ B (its own M x N), each
// depending on ctx.deps. `item` selects its share of the scratch; `last`
// says the item ends the operation's fold schedule (its last MATMUL takes
// the - 1 of §7.2).
void lower_fold_major(LowerContext& ctx, const FoldPlan& plan, const GemmShape& shape, const GemmOperands& op,
                      int64_t item, bool last);

}  // namespace dsl
