// After the timed run of --functional: the outputs (--outputs), the
// switches of automatic mixed precision and their cost, and the comparison
// with the reference executor (--check), as the report's "functional
// simulation" section (docs/functional.md §4-6).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "sim/cli/driver/mixed_precision.h"
#include "sim/func/npy.h"
#include "sim/trace/op_stats.h"

namespace cli {

struct FunctionalReportOptions {
    bool check = false;
    bool quiet = false;
    std::string outputs_dir;  // "" = no --outputs
};

// Prints the section on stdout (under --quiet too: it is what was asked
// for) and returns the exit status: 1 when --check finds an output beyond
// tolerance (saying which and where on stderr), 2 when the reference
// cannot evaluate an operation, else 0. `g` is the
// elaborated graph, `program` the one timed (plan's final program),
// `float16` the timing of the all-float16 plan (null when
// nothing switched or it could not be timed), `final_ops` the timed run's.
int report_functional(const FunctionalReportOptions& opt, const dsl::TaskGraph& g,
                      const std::map<int, func::HostTensor>& inputs, const std::vector<std::string>& sources,
                      const arch::Program& program, const PrecisionPlan& plan, const PlanTiming* float16,
                      const trace::OpStatsRecorder& final_ops, uint64_t final_cycles);

}  // namespace cli
