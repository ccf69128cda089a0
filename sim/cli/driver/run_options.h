// What one davinci-sim run does, as plain data: the command line fills it
// (sim/cli/options.cpp), and so can any other caller of the driver (a
// Python module) without Boost.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dsl/frontend/topology.h"
#include "dsl/support/source_location.h"
#include "sim/cli/driver/functional_run.h"
#include "sim/trace/trace_filter.h"

namespace cli {

struct RunOptions {
    std::string program;       // the .pto or .onnx file (or the --op program's label)
    std::string program_json;  // a raw arch::Program instead of a .pto
    std::string config;        // "" = the built-in default
    // The config's JSON text instead of the file `config`, which then only
    // names it in messages and the report (the Python module's dicts).
    std::string config_text;
    // The program's text instead of the file `program`, which then only
    // names it in diagnostics and the report (the Python module's program
    // strings).
    std::shared_ptr<const dsl::SourceFile> program_text;
    // --set KEY=VALUE, in order: configuration keys applied over `config`
    // (KEY as --help-config lists it, VALUE as JSON or else a string).
    std::vector<std::pair<std::string, std::string>> settings;
    // Output files by option name ("report-json" -> path); the names are
    // those of output_kinds() (sim/cli/driver/outputs.h).
    std::map<std::string, std::string> outputs;
    std::map<std::string, std::vector<int64_t>> shapes;
    std::map<std::string, std::string> params;  // --param NAME=VALUE
    // A single-operation program instead of a .pto file (--op).
    std::shared_ptr<const dsl::SourceFile> single_op;
    // The SCALE-Sim topology file --topology read; its program is
    // single_op (one operation per layer).
    std::shared_ptr<const dsl::Topology> topology;
    bool dump_graph = false;
    bool dump_program = false;
    bool no_fusion = false;  // --no-fusion: TaskGraph::fusion off
    bool quiet = false;
    bool timings = false;             // --timings: the phase table on stderr
    uint64_t max_cycles = 0;          // 0: no bound
    uint64_t tokens = 0;              // --tokens: the report's per-token figures; 0: none
    trace::TraceFilter trace_filter;  // --trace-window, --trace-clusters, --trace-ops
    // --functional and what rides on it (docs/functional.md).
    bool functional = false;
    bool check = false;
    InputSpec inputs;

    // The path given for output `option`, "" when it is not asked for.
    const std::string& output(const std::string& option) const;
};

}  // namespace cli
