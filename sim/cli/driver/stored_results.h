// Which results of a compiled program a functional run leaves in memory,
// to be read after it (automatic mixed precision, sim/cli/driver/
// mixed_precision.h; --check's per-operation comparison, op_check.h).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "sim/arch/program.h"

namespace cli {

// A tensor with bytes the program writes (not one it never writes).
bool readable(const arch::TensorPlacement& t);

// Whether the group headed by op `head` of `g` (the compiled graph) ran
// fused (Program::ops' fused_into: a group on the fold-major schedule runs
// unfused): its inner results then live only in L1, tile by tile.
bool ran_fused(const dsl::TaskGraph& g, const arch::Program& p, int head);

// Whether op `i`'s result reaches memory: not the cube operation or an
// inner operation of a fusion group (dsl/passes/pass_fusion.h) that ran
// fused, unless the group stores it too.
bool stored(const dsl::TaskGraph& g, const arch::Program& p, int i);

// The DDR bytes the program's DMA commands write, as sorted, disjoint
// [begin, end) ranges: a tensor placed in DDR that no command writes (one
// the compiler computes where its readers need it, a dequantisation in
// L1) holds no result.
class DdrWrites {
public:
    explicit DdrWrites(const arch::Program& p);
    // Whether any command writes into [addr, addr + bytes).
    bool touches(uint64_t addr, uint64_t bytes) const;

private:
    std::vector<std::pair<uint64_t, uint64_t>> ranges_;
};

}  // namespace cli
