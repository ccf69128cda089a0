// The first half of a run: the hardware description, and the program to
// simulate, compiled from a .pto (or --op) or read from --program-json.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "sim/arch/block_spool.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/cli/driver/mixed_precision.h"
#include "sim/cli/driver/phase_timings.h"
#include "sim/cli/driver/run_options.h"
#include "sim/func/npy.h"
#include "sim/trace/messages.h"

namespace cli {

// A stage's verdict: the exit status when the run ends there, nothing
// when it goes on.
using Outcome = std::optional<int>;

struct LoadedConfig {
    arch::Config config;
    std::string name;  // its path, or "built-in default"
};

// The program a run simulates and what the functional report needs of its
// making.
struct Compiled {
    arch::Program program;
    // The compiled blocks go to a spool on disk as they are compiled, and
    // each is back in memory only while it runs (program.blocks stays
    // empty): a program of any size simulates in bounded memory. Null when
    // the blocks are in `program` (read from JSON, --functional, or a run
    // that stops before simulating).
    std::unique_ptr<arch::BlockSpool> spool;
    dsl::TaskGraph elaborated;  // --functional: the program as the front end made it
    std::map<int, func::HostTensor> inputs;
    std::vector<std::string> input_sources;
    PrecisionPlan plan;
    // The report's promotions and notes (trace::RunInfo), from the graph
    // as compiled.
    uint64_t promotions = 0;
    std::vector<std::string> notes;
    // The report's messages: the graph's print and pypo.log records, their
    // place in program order that of the compiled program's operations.
    std::vector<trace::Message> messages;
    // The tensors each message shows, for their values under --functional.
    std::vector<std::vector<dsl::LogNode::Mention>> message_tensors;
    // The report's params: the program's pypo.param values as run.
    std::vector<dsl::ProgramParam> params;
};

// Errors are usage errors (exit status 2), said on stderr.
Outcome load_config(const RunOptions& opt, LoadedConfig& out);

// Also writes the task graph's outputs (--graph-dot, --dump-graph), which
// end the run. Its time goes to the parse, lower, check and spool phases.
Outcome compile(const RunOptions& opt, const arch::Config& config, Compiled& out, PhaseTimings& timings);

}  // namespace cli
