#include "sim/cli/driver/outputs.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>

#include "dsl/ir/graph_format.h"
#include "sim/cli/driver/program_file.h"
#include "sim/cli/driver/scalesim_columns.h"
#include "sim/trace/atomic_file.h"
#include "sim/trace/chrome_trace.h"
#include "sim/trace/ops_csv.h"
#include "sim/trace/profile.h"
#include "sim/trace/summary_csv.h"
#include "sim/trace/timing_csv.h"
#include "sim/trace/vcd_writer.h"

namespace cli {

namespace {

namespace fs = std::filesystem;

void write_graph_dot(const std::string& path, const dsl::TaskGraph& g) {
    trace::write_file_atomically(path, dsl::graph_to_dot(g));
}

// The program as the front end read it: a .pto file as it is, or the text
// an ONNX model, --op or --topology became. Every tensor's location points
// into it (a program has at least its outputs).
void write_program_source(const std::string& path, const dsl::TaskGraph& g) {
    for (const dsl::TensorNode& t : g.tensors)
        if (t.loc.file) return trace::write_file_atomically(path, t.loc.file->text);
}

void write_program_json(const std::string& path, const arch::Program& p, arch::BlockSource& blocks) {
    trace::write_file_atomically(path, [&](trace::TextOut& out) { write_program_file(out, p, blocks); });
}

void write_explanation(const std::string& path, const dsl::TaskGraph& g, const dsl::Explanation& e) {
    trace::write_file_atomically(path, dsl::format_explanation(g, e));
}

// A simulation output that only needs the run's results.
template <typename Write>
class AfterRun : public RunOutput {
public:
    AfterRun(std::string path, Write write) : path_(std::move(path)), write_(write) {}
    void write(const RunResult& r) override { write_(path_, r); }

private:
    std::string path_;
    Write write_;
};

template <typename Write>
std::unique_ptr<RunOutput> after_run(const std::string& path, Write write) {
    return std::make_unique<AfterRun<Write>>(path, write);
}

std::unique_ptr<RunOutput> report_json(const std::string& path, const RunSetup&) {
    return after_run(path, [](const std::string& to, const RunResult& r) {
        trace::write_file_atomically(to, trace::report_json(r.stats, r.config, r.info).dump(2) + "\n");
    });
}

// With --topology, SCALE-Sim's columns too.
std::unique_ptr<RunOutput> ops_csv(const std::string& path, const RunSetup& setup) {
    std::shared_ptr<const dsl::Topology> topology = setup.options ? setup.options->topology : nullptr;
    return after_run(path, [topology](const std::string& to, const RunResult& r) {
        const std::vector<trace::OpsCsvColumn> more =
            topology ? scalesim_columns(*topology, r.stats.ops) : std::vector<trace::OpsCsvColumn>{};
        trace::write_file_atomically(to, trace::format_ops_csv(r.stats.ops, r.config, more));
    });
}

std::unique_ptr<RunOutput> chrome_trace(const std::string& path, const RunSetup&) {
    return after_run(path, [](const std::string& to, const RunResult& r) {
        trace::write_file_atomically(to, [&](trace::TextOut& out) {
            trace::write_chrome_trace(out, r.traced, r.config, r.records, r.ddr_transfers, r.stats.power,
                                      r.stats.total_cycles, r.info.messages, r.stats.ops, r.trace_filter);
        });
    });
}

std::unique_ptr<RunOutput> vcd(const std::string& path, const RunSetup&) {
    return after_run(path, [](const std::string& to, const RunResult& r) {
        trace::write_file_atomically(to, [&](trace::TextOut& out) {
            trace::write_vcd(out, r.traced, r.config, r.records, r.ddr_transfers, r.trace_filter, r.before_window);
        });
    });
}

// Opened before the run, filled as blocks end, renamed into place after it.
class TimingCsv : public RunOutput {
public:
    TimingCsv(const std::string& path, const RunSetup& s) : file_(path), csv_(s.program, file_.out()) {
        s.recorders.add(&csv_);
    }
    void write(const RunResult&) override { file_.commit(); }

private:
    trace::AtomicFile file_;
    trace::TimingCsvStream csv_;
};

class SummaryCsv : public RunOutput {
public:
    SummaryCsv(std::string path, const RunSetup& s) : path_(std::move(path)) { s.recorders.add(&summary_); }
    void write(const RunResult& r) override {
        trace::write_file_atomically(path_, summary_.format(r.config, r.stats.total_cycles));
    }

private:
    std::string path_;
    trace::SummaryRecorder summary_;
};

class Profile : public RunOutput {
public:
    Profile(std::string path, const RunSetup& s) : path_(std::move(path)), profile_(s.program) {
        s.recorders.add(&profile_);
    }
    void write(const RunResult& r) override { trace::write_file_atomically(path_, profile_.format(r.config, r.stats)); }

private:
    std::string path_;
    trace::ProfileRecorder profile_;
};

template <typename Output>
std::unique_ptr<RunOutput> attached(const std::string& path, const RunSetup& setup) {
    return std::make_unique<Output>(path, setup);
}

const std::vector<OutputKind> kOutputs = {
    {"outputs", "DIR", "with --functional: write every program output to DIR/NAME.npy", "seed", false,
     FunctionalFolder{}},
    {"report-json", "FILE", "also write the report as JSON to FILE", "emit-program-json", false,
     SimulationOutput{report_json}},
    {"timing-csv", "FILE", "write every command's start and end cycle to FILE (CSV)", "profile", false,
     SimulationOutput{attached<TimingCsv>}},
    {"ops-csv", "FILE",
     "write one row per program operation to FILE (CSV): cycles, stalls, busy cycles, MACs, bytes per memory level; "
     "with --topology (an operation per layer), also SCALE-Sim's COMPUTE_REPORT columns: scalesim_total_cycles "
     "(stall-free), scalesim_stall_cycles, overall util, mapping efficiency, compute util",
     "timing-csv", false, SimulationOutput{ops_csv}},
    {"trace", "FILE", "write a Chrome/Perfetto trace (JSON): a track per engine, a slice per command, flag arrows",
     "report-json", true, SimulationOutput{chrome_trace}},
    {"vcd", "FILE",
     "write a VCD for GTKWave: busy/command/queue per engine, L1/L0 occupancy, flag tokens, bytes in flight per link",
     "trace", true, SimulationOutput{vcd}},
    {"summary-csv", "FILE",
     "write one row per engine: total and busy cycles, commands, first and last active cycle, and its cycle "
     "accounting (link waits, flag waits, issue, idle)",
     "vcd", false, SimulationOutput{attached<SummaryCsv>}},
    {"profile", "FILE",
     "write a profile (JSON, traces/README.md): utilization heatmap, link bandwidth, task graph, critical path",
     "summary-csv", false, SimulationOutput{attached<Profile>}},
    {"graph-dot", "FILE", "write the task graph as Graphviz to FILE and stop (render: dot -Tsvg FILE)", "dump-graph",
     false, GraphOutput{write_graph_dot}},
    {"emit-pto", "FILE",
     "write the program as .pto text to FILE and stop: what an ONNX model (or --op, --topology) becomes, exactly "
     "as it is simulated",
     "graph-dot", false, GraphOutput{write_program_source}},
    {"emit-program-json", "FILE", "write the lowered command program to FILE as JSON and stop", "program-json", false,
     ProgramOutput{write_program_json}},
    {"explain", "FILE",
     "write the compiler's choices to FILE (text) and go on: per operation its tiling, buffering depth, fusion group, "
     "placement and blocks, and the best rejected tilings with their estimated cycles",
     "dump-program", false, ExplainOutput{write_explanation}},
};

// The folder of --outputs is made now, so that a run that cannot fill it
// stops before simulating.
bool check_folder(const char* option, const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (!ec && ::access(dir.c_str(), W_OK) == 0) return true;
    std::cerr << "davinci-sim: error: --" << option << ": cannot write to " << dir << ": "
              << (ec ? ec.message() : std::strerror(errno)) << "\n";
    return false;
}

bool error(const char* option, const std::string& path, const std::string& why) {
    std::cerr << "davinci-sim: error: --" << option << ": cannot write " << path << ": " << why << "\n";
    return false;
}

// Each file is later written beside its target and renamed over it
// (trace::write_file_atomically), which needs a writable directory and a
// target that is not a directory. Two outputs to one file, or an output
// over an input, would silently lose one of them.
bool check_file(const RunOptions& opt, size_t index) {
    const char* option = kOutputs[index].option;
    const std::string& path = opt.output(option);
    std::error_code ec;
    if (fs::is_directory(path, ec)) return error(option, path, "is a directory");
    std::string dir = fs::path(path).parent_path().string();
    if (dir.empty()) dir = ".";
    if (::access(dir.c_str(), W_OK) != 0) return error(option, path, std::strerror(errno));
    for (const std::string* in : {&opt.program, &opt.program_json, &opt.config})
        if (!in->empty() && fs::equivalent(*in, path, ec)) return error(option, path, "it is an input of this run");
    for (size_t j = 0; j < index; ++j) {
        const std::string& other = opt.output(kOutputs[j].option);
        if (std::holds_alternative<FunctionalFolder>(kOutputs[j].made) || other.empty()) continue;
        if (other == path || fs::equivalent(other, path, ec))
            return error(option, path, std::string("also given to --") + kOutputs[j].option);
    }
    return true;
}

}  // namespace

const std::string& RunOptions::output(const std::string& option) const {
    static const std::string none;
    const auto it = outputs.find(option);
    return it == outputs.end() ? none : it->second;
}

const std::vector<OutputKind>& output_kinds() { return kOutputs; }

bool check_outputs(const RunOptions& opt) {
    for (size_t i = 0; i < kOutputs.size(); ++i) {
        const std::string& path = opt.output(kOutputs[i].option);
        if (path.empty()) continue;
        const bool ok = std::holds_alternative<FunctionalFolder>(kOutputs[i].made)
                            ? check_folder(kOutputs[i].option, path)
                            : check_file(opt, i);
        if (!ok) return false;
    }
    return true;
}

std::string whole_program_options(const RunOptions& opt) {
    std::string options;
    for (const OutputKind& k : kOutputs)
        if (k.whole_program && !opt.output(k.option).empty())
            options += (options.empty() ? "--" : " with --") + std::string(k.option);
    return options;
}

bool write_graph_outputs(const RunOptions& opt, const dsl::TaskGraph& g) {
    bool any = false;
    for (const OutputKind& k : kOutputs)
        if (const auto* write = std::get_if<GraphOutput>(&k.made); write && !opt.output(k.option).empty())
            (*write)(opt.output(k.option), g), any = true;
    return any;
}

bool write_program_outputs(const RunOptions& opt, const arch::Program& p, arch::BlockSource& blocks) {
    bool any = false;
    for (const OutputKind& k : kOutputs)
        if (const auto* write = std::get_if<ProgramOutput>(&k.made); write && !opt.output(k.option).empty())
            (*write)(opt.output(k.option), p, blocks), any = true;
    return any;
}

void write_explain_outputs(const RunOptions& opt, const dsl::TaskGraph& g, const dsl::Explanation& e) {
    for (const OutputKind& k : kOutputs)
        if (const auto* write = std::get_if<ExplainOutput>(&k.made); write && !opt.output(k.option).empty())
            (*write)(opt.output(k.option), g, e);
}

std::vector<std::unique_ptr<RunOutput>> attach_run_outputs(const RunOptions& opt, const RunSetup& setup) {
    std::vector<std::unique_ptr<RunOutput>> attached;
    for (const OutputKind& k : kOutputs)
        if (const auto* attach = std::get_if<SimulationOutput>(&k.made); attach && !opt.output(k.option).empty())
            attached.push_back((*attach)(opt.output(k.option), setup));
    return attached;
}

}  // namespace cli
