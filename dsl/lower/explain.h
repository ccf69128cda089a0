// What --explain writes (docs/timing-model.md §10 "Seeing the choices"):
// per operation of the compiled program, the choices its lowering made —
// a GEMM's tiling, its buffering depths and the best rejected tilings with
// their estimated cycles; every operation's fusion group, its placement
// (its task's, where its result lives, whether its blocks are pinned to
// the clusters holding the on-chip parts they use) and its blocks. The lowering fills an Explanation when
// LowerOptions::explain points at one; format_explanation prints it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/lower/tiling/matmul_tiling.h"

namespace dsl {

// How many rejected tilings an explanation lists, the best first.
constexpr size_t kExplainRejected = 3;

struct GemmExplanation {
    MatmulTiling chosen;
    int64_t cycles = 0;     // its estimate (dsl/lower/tiling/gemm_cost.h)
    int64_t estimated = 0;  // tilings the search estimated
    std::vector<TilingCandidate> rejected;
    // prefetch=True: the estimate with the extra panel buffer, and whether
    // it was taken (more than 1 % faster than double buffering).
    int64_t prefetch_cycles = -1;
    bool fold_major = false;  // a ws / is systolic array's fold-major schedule: no k-stepped tiling
};

struct OpExplanation {
    int op = -1;            // index into the graph's (and Program::ops) operations
    int64_t blocks = 0;     // blocks it emitted
    int64_t buffering = 0;  // a pipelined vector or movement lowering's depth; 0 = none
    bool pinned = false;    // its blocks run on the clusters holding the on-chip parts they use
    // Or on a strand's clusters (dsl/lower/ub_strands.h), in turn: the
    // first and how many (0: not a strand's).
    int32_t strand_first = 0;
    int64_t strand_clusters = 0;
    bool result_on_chip = false;  // its result is kept on chip (not moved to DDR by a placement note)
    // Its result in DDR takes the bytes of this earlier one in its strand's
    // workspace (dsl/lower/ddr_workspace.h): its name, "" for none.
    std::string takes_bytes_of;
    bool fused = false;   // it ran inside its fusion group's head (a cube operation, a vector chain's first)
    std::string unfused;  // a group's head whose members ran on their own: why
    std::optional<GemmExplanation> gemm;
};

struct Explanation {
    std::vector<OpExplanation> ops;
};

// The text of --explain: a header line, then one paragraph per operation.
std::string format_explanation(const TaskGraph& g, const Explanation& e);

}  // namespace dsl
