// The values a functional run left of each tensor of the program, read
// after it: an input's or weight's, and a result's where a command wrote it
// to DDR and nothing rewrote it since (--check's per-operation comparison,
// sim/cli/driver/op_check.h; the statistics of the tensors a message shows,
// sim/cli/driver/message_values.h).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/reference/reference.h"
#include "sim/arch/program.h"
#include "sim/cli/driver/stored_results.h"
#include "sim/func/executor.h"
#include "sim/func/npy.h"

namespace cli {

class SimulatedValues {
public:
    // `moved`: the elaborated graph with its moves (dsl::apply_moves), whose
    // tensor indices the questions use; `lowered` and `program` what ran,
    // `run` the functional run.
    SimulatedValues(const dsl::TaskGraph& moved, const std::map<int, func::HostTensor>& inputs,
                    const dsl::TaskGraph& lowered, const arch::Program& program, func::Executor& run);

    // The values of tensor t, if the run left them in memory (or it is an
    // input): read once. Empty for an on-chip tensor (L1 is reused by every
    // block of a cluster, bands by every band), one a later in-place update
    // rewrote, a view (of bytes that need not be contiguous; a whole buffer
    // updated in place is read), and one the compiler never writes whole (a
    // dequantisation computed in L1 where the matmul reads it).
    const std::optional<dsl::RefValues>& simulated(int t);
    // Tensor t's index in the lowered graph, -1 if it has none.
    int lowered_index(int t) const { return lowered_index_[size_t(t)]; }

private:
    const dsl::TaskGraph& g_;
    const std::map<int, func::HostTensor>& inputs_;
    const dsl::TaskGraph& lowered_;
    const arch::Program& program_;
    func::Executor& run_;
    DdrWrites writes_;
    std::set<std::string> rewritten_;
    std::vector<std::optional<dsl::RefValues>> sim_;
    std::vector<bool> looked_;
    std::vector<int> lowered_index_;
};

}  // namespace cli
