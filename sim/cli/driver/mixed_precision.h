// Automatic mixed precision (the documents' §6.1, docs/functional.md §6):
// under pypo.precision(mode='mixed') the forward path runs in float16 and
// reductions and softmax in float32 (dsl/passes/pass_precision.h); an operation
// whose float16 result overflows to inf, turns NaN or underflows to all
// zeros is switched to float32.
//
// Decided before the timed run, by functional runs: compile, run the data
// effects, look at every float16 result the program computed; switch the
// operations whose result went abnormal there (not upstream), recompile and
// run again, until nothing changes. A switch that does not cure the op (its
// float32 result is abnormal too) is undone. The program that is timed is
// the last one, so its cycles include the switches; the cost of a switch is
// the difference between the switched op's cycles in the all-float16 plan
// (timed in a child process: SystemC elaborates once per process) and in
// the final plan.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/cli/driver/functional_run.h"

namespace cli {

struct PrecisionSwitch {
    int op = -1;         // index in the elaborated graph
    std::string name;    // its result, "mul_2"
    std::string kind;    // "mul"
    std::string where;   // "models/x.pto:5:7"
    std::string reason;  // "float16 result overflows to inf"
};

struct PrecisionPlan {
    dsl::TaskGraph graph;           // the elaborated graph with the switched ops in float32
    dsl::TaskGraph lowered;         // run_graph_passes(graph)
    arch::Program program;          // compiled from graph (the caller may move it out once `run` is done)
    arch::Program float16_program;  // the plan before any switch (empty when nothing switched)
    dsl::TaskGraph float16_lowered;
    std::vector<PrecisionSwitch> switches;
    std::vector<PrecisionSwitch> kept;    // abnormal in float32 too: left in float16
    std::unique_ptr<func::Executor> run;  // the functional run of `program`: its memory holds the results
    int rounds = 0;
};

// Compiles `elaborated` (throws CompileError), runs it functionally on
// `inputs`, and switches abnormal mixed-precision ops as described above.
// `prepare` is applied to every compiled program before it runs (fault
// injection).
PrecisionPlan plan_precision(const dsl::TaskGraph& elaborated, const arch::Config& c, const std::string& source,
                             const std::map<int, func::HostTensor>& inputs,
                             const std::function<void(arch::Program&)>& prepare);

// The span (first start to last end, cycles) of every program operation and
// the total, of `p` timed on the SystemC model in a child process; false if
// the child failed.
struct PlanTiming {
    uint64_t total = 0;
    std::vector<uint64_t> op_cycles;
};
bool time_in_child(const arch::Config& c, const arch::Program& p, PlanTiming& out);

// The index in `lowered` of the op implementing elaborated op `origin`, -1 if none.
int lowered_op(const dsl::TaskGraph& lowered, const dsl::TaskGraph& elaborated, int origin);

// The ops of `lowered` a precision choice of elaborated op `origin` brings:
// the op itself and the casts the precision pass put around it (on its
// inputs, on its result). Indices into lowered.ops (= Program::ops).
std::vector<int> switch_ops(const dsl::TaskGraph& lowered, const dsl::TaskGraph& elaborated, int origin);

}  // namespace cli
