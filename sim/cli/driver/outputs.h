// Every output file (or folder) a run can write, declared once: its option,
// its --help line, when in the run it is made, whether it needs the whole
// program in memory, and how it is written. The command line, the
// writability check before a run and the run itself all read this table,
// so a new output is one entry in outputs.cpp.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/lower/explain.h"
#include "sim/arch/block_source.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/cli/driver/run_options.h"
#include "sim/trace/before_window.h"
#include "sim/trace/recorder.h"
#include "sim/trace/report.h"
#include "sim/trace/run_stats.h"
#include "sim/trace/trace_filter.h"

namespace cli {

// What a simulation's output starts from (before the run) and is written
// from (after it). `records` holds every command's cycles only when an
// output asked for the whole program (OutputKind::whole_program).
struct RunSetup {
    const arch::Program& program;
    trace::RecorderFan& recorders;
    const RunOptions* options = nullptr;  // the run's (--ops-csv reads its --topology)
};
struct RunResult {
    const arch::Program& program;
    const arch::Config& config;
    const trace::RunStats& stats;
    const trace::RunInfo& info;
    const std::vector<trace::CommandRecord>& records;
    const std::vector<trace::DdrTransferRecord>& ddr_transfers;  // with an L2, when records are kept
    // What --trace and --vcd draw: the program whose blocks they read
    // (`program`, or with a filter only the blocks of the records kept)
    // and the filter.
    const arch::Program& traced;
    const trace::TraceFilter& trace_filter;
    const trace::BeforeWindow* before_window;  // through a window: what came before it
};

// An output of a simulation: attached (its recorders added, its file
// opened) before the run, written after it.
class RunOutput {
public:
    virtual ~RunOutput() = default;
    virtual void write(const RunResult& r) = 0;
};

// When an output is made, which is also what the run does for it. Written
// from the task graph: the run stops after the front end (--graph-dot).
// From the compiled program: it stops before simulating
// (--emit-program-json). From the simulation: attached before it, written
// after. A folder that the functional report fills (--outputs).
using GraphOutput = void (*)(const std::string& path, const dsl::TaskGraph& g);
// `p` without its blocks, which come from `blocks` one at a time.
using ProgramOutput = void (*)(const std::string& path, const arch::Program& p, arch::BlockSource& blocks);
using SimulationOutput = std::unique_ptr<RunOutput> (*)(const std::string& path, const RunSetup& setup);
// Written from the lowering's record of its choices (--explain); the run
// goes on.
using ExplainOutput = void (*)(const std::string& path, const dsl::TaskGraph& g, const dsl::Explanation& e);
struct FunctionalFolder {};

struct OutputKind {
    const char* option;      // "report-json": --report-json FILE, and its key in RunOptions::outputs
    const char* value_name;  // "FILE"
    const char* help;        // its --help text
    const char* help_after;  // the option --help lists it after
    bool whole_program;      // needs every block and command's cycles in memory (no spool)
    std::variant<GraphOutput, ProgramOutput, SimulationOutput, FunctionalFolder, ExplainOutput> made;
};

// In the order the writability check names them and the run writes them.
const std::vector<OutputKind>& output_kinds();

// Checked before a possibly long simulation, not after; says why on stderr
// and returns false when an output cannot be written.
bool check_outputs(const RunOptions& opt);

// The options asked for that need the whole program: "" when none, else
// e.g. "--trace" or "--trace with --vcd".
std::string whole_program_options(const RunOptions& opt);

// Whether `opt` asks for an output made at that stage (one of the
// alternatives of OutputKind::made).
template <typename Stage>
bool asks_for(const RunOptions& opt) {
    for (const OutputKind& k : output_kinds())
        if (std::holds_alternative<Stage>(k.made) && !opt.output(k.option).empty()) return true;
    return false;
}

// Write the outputs of that stage asked for; whether there was one.
bool write_graph_outputs(const RunOptions& opt, const dsl::TaskGraph& g);
bool write_program_outputs(const RunOptions& opt, const arch::Program& p, arch::BlockSource& blocks);
void write_explain_outputs(const RunOptions& opt, const dsl::TaskGraph& g, const dsl::Explanation& e);

// Attaches the simulation outputs asked for, in table order.
std::vector<std::unique_ptr<RunOutput>> attach_run_outputs(const RunOptions& opt, const RunSetup& setup);

}  // namespace cli
