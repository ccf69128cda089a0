// davinci-sim: compiles a PyPTO program for the configured hardware,
// simulates it on the SystemC model and reports where the cycles went.
// The only place that joins the front end (dsl/) and the model (sim/hw).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <systemc>

#include "dsl/support/diagnostics.h"
#include "dsl/frontend/frontend.h"
#include "dsl/ir/graph_format.h"
#include "dsl/lower/program/lower.h"
#include "dsl/frontend/single_op.h"
#include "sim/arch/block_spool.h"
#include "sim/arch/config.h"
#include "sim/arch/program_check.h"
#include "sim/cli/functional_report.h"
#include "sim/cli/functional_run.h"
#include "sim/cli/mixed_precision.h"
#include "sim/cli/progress.h"
#include "sim/cli/trace_memory.h"
#include "sim/trace/op_stats.h"
#include "sim/arch/program_json.h"
#include "sim/hw/chip.h"
#include "sim/trace/atomic_file.h"
#include "sim/trace/report.h"
#include "sim/trace/chrome_trace.h"
#include "sim/trace/profile.h"
#include "sim/trace/summary_csv.h"
#include "sim/trace/timing_csv.h"
#include "sim/trace/vcd_writer.h"

namespace po = boost::program_options;

namespace {

constexpr int kExitUsage = 2;    // bad command line, program or config
constexpr int kExitFailure = 1;  // the simulation itself failed
constexpr int kExitCycleLimit = 3;  // --max-cycles stopped an unfinished run

struct Options {
    std::string program;
    std::string program_json;       // --program-json: a raw arch::Program instead of a .pto
    std::string emit_program_json;  // --emit-program-json: write the program and stop
    std::string config;
    std::string report_json;
    std::string timing_csv;
    std::string chrome_trace;
    std::string vcd;
    std::string summary_csv;
    std::string profile;
    std::string graph_dot;
    std::map<std::string, std::vector<int64_t>> shapes;
    // --op: a single-operation program instead of a .pto file.
    std::shared_ptr<const dsl::SourceFile> single_op;
    bool dump_graph = false;
    bool dump_program = false;
    bool quiet = false;
    uint64_t max_cycles = 0;  // 0: no bound
    // --functional and what rides on it (docs/functional.md).
    bool functional = false;
    bool check = false;
    cli::InputSpec inputs;
    std::string outputs_dir;
};

const char* kUsage =
    "usage: davinci-sim [options] PROGRAM.pto\n"
    "       davinci-sim [options] --program-json PROGRAM.json\n"
    "       davinci-sim [options] --op matmul --shape M,K,N [--dtype float32]\n"
    "       davinci-sim [options] --op conv2d --shape H,W,C,R,S,F,stride [--dtype float32]\n"
    "       davinci-sim profile [options] PROGRAM.pto -o PROFILE.json   (= --profile PROFILE.json)\n";

po::options_description visible_options() {
    po::options_description o("options");
    o.add_options()
        ("help,h", "print this help and exit")
        ("version", "print the version and exit")
        ("config,c", po::value<std::string>()->value_name("FILE"),
         "hardware description (JSON); without it, the built-in default (= configs/cluster.json)")
        ("help-config", "list every hardware parameter with its unit, default and meaning, and exit")
        ("shape", po::value<std::vector<std::string>>()->value_name("NAME=D0,D1,..")->composing(),
         "bind the None dimensions of input NAME (repeatable), e.g. --shape input=1,3,224,224; with --op, the "
         "operation's sizes")
        ("op", po::value<std::string>()->value_name("matmul|conv2d"),
         "simulate one operation instead of a program: --op matmul --shape M,K,N, or --op conv2d --shape "
         "H,W,C,R,S,F,stride (no padding, SCALE-Sim's layer form)")
        ("dtype", po::value<std::string>()->value_name("float16|float32"),
         "with --op: the operands' dtype (default float16)")
        ("dump-graph", "print the task graph (tasks, operations, data movements, tensors) and stop")
        ("graph-dot", po::value<std::string>()->value_name("FILE"),
         "write the task graph as Graphviz to FILE and stop (render: dot -Tsvg FILE)")
        ("dump-program", "print the lowered command streams instead of simulating")
        ("program-json", po::value<std::string>()->value_name("FILE"),
         "simulate the command program in FILE (JSON, as --emit-program-json writes) instead of a .pto")
        ("emit-program-json", po::value<std::string>()->value_name("FILE"),
         "write the lowered command program to FILE as JSON and stop")
        ("report-json", po::value<std::string>()->value_name("FILE"), "also write the report as JSON to FILE")
        ("trace", po::value<std::string>()->value_name("FILE"),
         "write a Chrome/Perfetto trace (JSON): a track per engine, a slice per command, flag arrows")
        ("vcd", po::value<std::string>()->value_name("FILE"),
         "write a VCD for GTKWave: busy/command/queue per engine, L1/L0 occupancy, flag tokens, bytes in flight per link")
        ("summary-csv", po::value<std::string>()->value_name("FILE"),
         "write one row per engine: total and busy cycles, commands, first and last active cycle")
        ("profile", po::value<std::string>()->value_name("FILE"),
         "write a profile (JSON, traces/README.md): utilization heatmap, link bandwidth, task graph, critical path")
        ("timing-csv", po::value<std::string>()->value_name("FILE"),
         "write every command's start and end cycle to FILE (CSV)")
        ("max-cycles", po::value<std::string>()->value_name("N"),
         "stop a run that has not finished by cycle N (exit status 3, no report or traces)")
        ("functional", "also compute the values: memories hold real bytes, commands move and compute them "
                       "(float16 rounding); timing is unchanged. Needs a .pto program")
        ("input", po::value<std::vector<std::string>>()->value_name("NAME=FILE.npy")->composing(),
         "with --functional: the values of input or weight NAME (NumPy .npy, float16/float32, the program's shape "
         "and dtype); repeatable. Inputs not given get seeded random values")
        ("seed", po::value<uint64_t>()->value_name("N"), "with --functional: the seed of the random inputs (default 0)")
        ("outputs", po::value<std::string>()->value_name("DIR"),
         "with --functional: write every program output to DIR/NAME.npy")
        ("check", "with --functional: compare every output with the reference executor (the task graph in float64, "
                  "no lowering); exit status 1 when one is beyond tolerance")
        ("quiet,q", "do not print the text report");
    return o;
}

int usage_error(const std::string& message) {
    std::cerr << "davinci-sim: error: " << message << "\n" << kUsage << "try 'davinci-sim --help'\n";
    return kExitUsage;
}

// Output paths are checked before a possibly long simulation, not after:
// each file is later written beside its target and renamed over it
// (trace::write_file_atomically), which needs a writable directory and a
// target that is not a directory. Two outputs to one file, or an output
// over an input, would silently lose one of them.
bool outputs_writable(const Options& opt) {
    const std::vector<std::pair<const char*, const std::string*>> outputs = {
        {"report-json", &opt.report_json}, {"timing-csv", &opt.timing_csv}, {"trace", &opt.chrome_trace},
        {"vcd", &opt.vcd}, {"summary-csv", &opt.summary_csv}, {"profile", &opt.profile},
        {"graph-dot", &opt.graph_dot}, {"emit-program-json", &opt.emit_program_json}};
    const std::vector<const std::string*> inputs = {&opt.program, &opt.program_json, &opt.config};
    auto error = [](const char* option, const std::string& path, const std::string& why) {
        std::cerr << "davinci-sim: error: --" << option << ": cannot write " << path << ": " << why << "\n";
        return false;
    };
    namespace fs = std::filesystem;
    for (size_t i = 0; i < outputs.size(); ++i) {
        const auto& [option, path] = outputs[i];
        if (path->empty()) continue;
        std::error_code ec;
        if (fs::is_directory(*path, ec)) return error(option, *path, "is a directory");
        std::string dir = fs::path(*path).parent_path().string();
        if (dir.empty()) dir = ".";
        if (::access(dir.c_str(), W_OK) != 0) return error(option, *path, std::strerror(errno));
        for (const std::string* in : inputs)
            if (!in->empty() && fs::equivalent(*in, *path, ec))
                return error(option, *path, "it is an input of this run");
        for (size_t j = 0; j < i; ++j)
            if (!outputs[j].second->empty() && (*outputs[j].second == *path || fs::equivalent(*outputs[j].second, *path, ec)))
                return error(option, *path, std::string("also given to --") + outputs[j].first);
    }
    return true;
}

// A hand-written or generated program is user input, not compiler output:
// its errors are usage errors, named by file. Returns 0 or the exit status.
int read_program_json(const std::string& path, const arch::Config& config, arch::Program& program) {
    try {
        program = arch::load_program_file(path);
    } catch (const arch::ProgramError& e) {
        std::cerr << "davinci-sim: error: " << e.what() << "\n";
        return kExitUsage;
    }
    try {
        arch::check_program(program, config);
    } catch (const arch::ProgramError& e) {
        std::cerr << "davinci-sim: error: " << path << ": " << e.what() << "\n";
        return kExitUsage;
    }
    return 0;
}

int run(const Options& opt) {
    if (!outputs_writable(opt)) return kExitUsage;
    arch::Config config;
    std::string config_name = "built-in default";
    try {
        if (!opt.config.empty()) {
            config = arch::load_config_file(opt.config);
            config_name = opt.config;
        } else {
            config = arch::default_config();
        }
    } catch (const arch::ConfigError& e) {
        std::cerr << "davinci-sim: error: " << e.what() << "\n";
        return kExitUsage;
    }

    // The compiled blocks go to a spool on disk as they are compiled, and
    // each is back in memory only while it runs; the report and the CSVs
    // are written as the run goes, the profile from records spooled to
    // disk: a program of any size simulates in bounded memory. The Chrome
    // trace and the VCD work from the whole program and every command's
    // start and end: for them the program is read back whole, once it is
    // known to fit.
    const bool keep_records = !opt.chrome_trace.empty() || !opt.vcd.empty();
    std::unique_ptr<arch::BlockSpool> spool;

    arch::Program program;
    dsl::TaskGraph elaborated;
    std::map<int, func::HostTensor> inputs;
    std::vector<std::string> input_sources;
    cli::PrecisionPlan plan;
    if (!opt.program_json.empty()) {
        if (int rc = read_program_json(opt.program_json, config, program)) return rc;
    } else {
        try {
            dsl::TaskGraph graph = opt.single_op ? dsl::elaborate_source(opt.single_op)
                                                 : dsl::elaborate_file(opt.program, opt.shapes);
            dsl::check_dag(graph);
            // The graph views stop after the front end, so they work for every
            // program the language accepts, lowered or not.
            if (opt.dump_graph || !opt.graph_dot.empty()) {
                if (!opt.graph_dot.empty()) trace::write_file_atomically(opt.graph_dot, dsl::graph_to_dot(graph));
                if (opt.dump_graph) std::cout << dsl::format_graph(graph);
                return 0;
            }
            if (opt.functional) {
                elaborated = graph;
                inputs = cli::make_inputs(graph, opt.inputs, input_sources);
                plan = cli::plan_precision(graph, config, opt.program, inputs, cli::inject_fault_from_env);
                program = std::move(plan.program);  // the functional run is over: the timed run takes it
            } else {
                dsl::LowerOptions lower_options;
                if (!opt.dump_program && opt.emit_program_json.empty()) {
                    spool = std::make_unique<arch::BlockSpool>();
                    lower_options.block_sink = [&](const arch::Program& header, size_t index, arch::Block block) {
                        arch::check_block(header, config, index, block);
                        spool->append(block);
                    };
                }
                program = dsl::lower(dsl::run_graph_passes(graph), config, opt.program, lower_options);
            }
        } catch (const dsl::CompileError& e) {
            std::cerr << e.what();
            return kExitUsage;
        } catch (const cli::UsageError& e) {
            std::cerr << "davinci-sim: error: " << e.what() << "\n";
            return kExitUsage;
        }
    }

    if (!opt.emit_program_json.empty()) {
        trace::write_file_atomically(opt.emit_program_json, arch::program_to_json(program).dump(1) + "\n");
        return 0;
    }

    if (keep_records) {
        uint64_t commands = spool ? spool->commands() : 0;
        for (const arch::Block& b : program.blocks)
            for (const arch::Stream& st : b.streams) commands += st.commands.size();
        const std::string options = opt.vcd.empty() ? "--trace" : opt.chrome_trace.empty() ? "--vcd" : "--trace with --vcd";
        const std::string refusal = cli::trace_memory_refusal(options, commands, cli::usable_memory_bytes());
        if (!refusal.empty()) {
            std::cerr << "davinci-sim: error: " << refusal << "\n";
            return kExitUsage;
        }
        if (spool) {
            program.blocks.reserve(spool->size());
            for (size_t b = 0; b < spool->size(); ++b) program.blocks.push_back(spool->load(b));
            spool.reset();
        }
    }

    if (opt.dump_program) {
        arch::check_program(program, config);
        std::cout << arch::format_program(program);
        return 0;
    }

    trace::TimingRecorder timing;
    trace::RecorderFan recorders;
    if (keep_records) recorders.add(&timing);
    trace::SummaryRecorder summary;
    if (!opt.summary_csv.empty()) recorders.add(&summary);
    std::optional<trace::ProfileRecorder> profile;
    if (!opt.profile.empty()) {
        profile.emplace(program);
        recorders.add(&*profile);
    }
    // Opened now, filled as blocks end, renamed into place after the run.
    std::optional<trace::AtomicFile> timing_file;
    std::optional<trace::TimingCsvStream> timing_csv;
    if (!opt.timing_csv.empty()) {
        timing_file.emplace(opt.timing_csv);
        timing_csv.emplace(program, timing_file->out());
        recorders.add(&*timing_csv);
    }
    // The all-float16 plan of a mixed-precision switch is timed first, in
    // a child process: this one may elaborate SystemC only once.
    cli::PlanTiming float16_timing;
    const bool float16_timed = !plan.switches.empty() && cli::time_in_child(config, plan.float16_program, float16_timing);
    trace::OpStatsRecorder op_stats(program);
    if (!plan.switches.empty()) recorders.add(&op_stats);
    trace::RunStats stats;
    {
        cli::Progress progress(spool ? spool->size() : program.blocks.size());
        if (progress.enabled() && !opt.quiet) recorders.add(&progress);
        std::optional<trace::RunStats> run =
            spool ? hw::simulate_until(config, program, *spool, &recorders, opt.max_cycles)
                  : hw::simulate_until(config, program, &recorders, opt.max_cycles);
        if (!run) {
            std::cerr << "davinci-sim: error: the simulation had not finished at cycle " << opt.max_cycles
                      << " (--max-cycles " << opt.max_cycles << "); no report or traces written\n";
            return kExitCycleLimit;
        }
        stats = std::move(*run);
    }
    trace::RunInfo info{opt.program_json.empty() ? opt.program : opt.program_json, config_name};
    if (!opt.report_json.empty())
        trace::write_file_atomically(opt.report_json, trace::report_json(stats, config, info).dump(2) + "\n");
    if (timing_file) timing_file->commit();
    if (!opt.chrome_trace.empty())
        trace::write_file_atomically(opt.chrome_trace, [&](trace::TextOut& out) {
            trace::write_chrome_trace(out, program, config, timing.records);
        });
    if (!opt.vcd.empty())
        trace::write_file_atomically(opt.vcd, [&](trace::TextOut& out) { trace::write_vcd(out, program, config, timing.records); });
    if (!opt.summary_csv.empty())
        trace::write_file_atomically(opt.summary_csv, summary.format(config, stats.total_cycles));
    if (!opt.profile.empty())
        trace::write_file_atomically(opt.profile, profile->format(config, stats));
    if (!opt.quiet) std::cout << trace::format_report(stats, config, info);
    if (!opt.functional) return 0;
    const cli::FunctionalReportOptions report{opt.check, opt.quiet, opt.outputs_dir};
    return cli::report_functional(report, elaborated, inputs, input_sources, program, plan,
                                  float16_timed ? &float16_timing : nullptr, op_stats, stats.total_cycles);
}

}  // namespace

// `davinci-sim profile ARGS -o FILE` is `davinci-sim ARGS --profile FILE`.
// Returns false (after a usage error) when -o is missing.
bool rewrite_profile_subcommand(int argc, char* argv[], std::vector<std::string>& args) {
    args.assign(argv, argv + argc);
    if (argc < 2 || args[1] != "profile") return true;
    args.erase(args.begin() + 1);
    bool output = false;
    for (std::string& a : args)
        if (a == "-o" || a == "--output") a = "--profile", output = true;
        else if (a.rfind("-o", 0) == 0 && a.size() > 2 && a[2] != '-') a = "--profile=" + a.substr(2), output = true;
        else if (a.rfind("--output=", 0) == 0) a = "--profile=" + a.substr(9), output = true;
    if (!output && std::find(args.begin(), args.end(), "--help") == args.end() &&
        std::find(args.begin(), args.end(), "-h") == args.end()) {
        usage_error("profile: no output file (-o PROFILE.json)");
        return false;
    }
    return true;
}

int sc_main(int argc_in, char* argv_in[]) {
    std::vector<std::string> arg_strings;
    if (!rewrite_profile_subcommand(argc_in, argv_in, arg_strings)) return kExitUsage;
    std::vector<char*> arg_ptrs;
    for (std::string& a : arg_strings) arg_ptrs.push_back(a.data());
    int argc = int(arg_ptrs.size());
    char** argv = arg_ptrs.data();
    po::options_description visible = visible_options();
    po::options_description all;
    all.add(visible).add_options()("program", po::value<std::vector<std::string>>());
    po::positional_options_description positional;
    positional.add("program", -1);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        return usage_error(e.what());
    }
    if (vm.count("help")) {
        std::cout << kUsage << "\nSimulates a PyPTO program on a DaVinci-style accelerator, cycle by cycle.\n\n"
                  << visible << "\nexample:\n  davinci-sim --config configs/cluster.json models/gemm_2048.pto\n";
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "davinci-sim " << DAVINCI_VERSION << "\n";
        return 0;
    }
    if (vm.count("help-config")) {
        std::cout << arch::describe_config_params();
        return 0;
    }
    Options opt;
    if (vm.count("op")) {
        if (vm.count("program") || vm.count("program-json"))
            return usage_error("--op takes the place of a program");
        if (!vm.count("shape")) return usage_error("--op needs --shape with the operation's sizes");
        const auto specs = vm["shape"].as<std::vector<std::string>>();
        if (specs.size() > 1) return usage_error("--op takes one --shape");
        std::vector<int64_t> dims;
        std::string error;
        std::string name;
        if (!dsl::parse_shape_option("op=" + specs[0], name, dims, error))
            return usage_error(error.find("must be positive") != std::string::npos
                                   ? "--shape: the operation's sizes must be positive, got '" + specs[0] + "'"
                                   : "--shape: expected numbers separated by commas, got '" + specs[0] + "'");
        arch::DType dtype = arch::DType::Float16;
        if (vm.count("dtype")) {
            const std::string d = vm["dtype"].as<std::string>();
            if (d == "float32" || d == "fp32") dtype = arch::DType::Float32;
            else if (d != "float16" && d != "fp16")
                return usage_error("--dtype: expected float16 or float32, got '" + d + "'");
        }
        try {
            opt.single_op = dsl::single_op_source(vm["op"].as<std::string>(), dims, dtype);
        } catch (const std::invalid_argument& e) {
            return usage_error(e.what());
        }
        opt.program = opt.single_op->path;
    } else if (vm.count("dtype")) {
        return usage_error("--dtype is for --op");
    } else if (vm.count("program-json")) {
        opt.program_json = vm["program-json"].as<std::string>();
        if (vm.count("program"))
            return usage_error("--program-json takes the place of a .pto program (got '" +
                               vm["program"].as<std::vector<std::string>>()[0] + "' too)");
        for (const char* front_end_only : {"shape", "dump-graph", "graph-dot"})
            if (vm.count(front_end_only))
                return usage_error(std::string("--") + front_end_only + " needs a .pto program, not --program-json");
    } else {
        if (!vm.count("program")) return usage_error("no program given");
        auto programs = vm["program"].as<std::vector<std::string>>();
        if (programs.size() > 1) return usage_error("one program at a time (got '" + programs[1] + "' too)");
        opt.program = programs[0];
    }
    if (vm.count("emit-program-json")) opt.emit_program_json = vm["emit-program-json"].as<std::string>();
    if (vm.count("config")) opt.config = vm["config"].as<std::string>();
    if (vm.count("report-json")) opt.report_json = vm["report-json"].as<std::string>();
    if (vm.count("timing-csv")) opt.timing_csv = vm["timing-csv"].as<std::string>();
    if (vm.count("trace")) opt.chrome_trace = vm["trace"].as<std::string>();
    if (vm.count("vcd")) opt.vcd = vm["vcd"].as<std::string>();
    if (vm.count("profile")) opt.profile = vm["profile"].as<std::string>();
    if (vm.count("summary-csv")) opt.summary_csv = vm["summary-csv"].as<std::string>();
    if (vm.count("shape") && !opt.single_op) {
        for (const std::string& spec : vm["shape"].as<std::vector<std::string>>()) {
            std::string name, error;
            std::vector<int64_t> dims;
            if (!dsl::parse_shape_option(spec, name, dims, error)) return usage_error("--shape: " + error);
            if (!opt.shapes.emplace(name, dims).second) return usage_error("--shape: '" + name + "' is given twice");
        }
    }
    if (vm.count("graph-dot")) opt.graph_dot = vm["graph-dot"].as<std::string>();
    opt.dump_graph = vm.count("dump-graph") > 0;
    opt.dump_program = vm.count("dump-program") > 0;
    opt.quiet = vm.count("quiet") > 0;
    if (vm.count("max-cycles")) {
        // Parsed by hand: Boost's lexical_cast would wrap "-1" to 2^64-1.
        const std::string n = vm["max-cycles"].as<std::string>();
        if (n.empty() || n.size() > 19 || n.find_first_not_of("0123456789") != std::string::npos ||
            (opt.max_cycles = std::stoull(n)) == 0)
            return usage_error("--max-cycles: expected a positive number of cycles, got '" + n + "'");
    }
    opt.check = vm.count("check") > 0;
    opt.functional = vm.count("functional") > 0 || opt.check || vm.count("input") || vm.count("outputs");
    if (vm.count("seed")) opt.inputs.seed = vm["seed"].as<uint64_t>();
    if (vm.count("outputs")) opt.outputs_dir = vm["outputs"].as<std::string>();
    if (opt.functional) {
        if (!opt.program_json.empty())
            return usage_error("--functional needs a .pto program (the inputs and outputs are the program's), not --program-json");
        for (const char* stops : {"dump-graph", "graph-dot", "dump-program", "emit-program-json"})
            if (vm.count(stops)) return usage_error(std::string("--functional runs the program; --") + stops + " stops before it");
        try {
            if (vm.count("input"))
                for (const std::string& spec : vm["input"].as<std::vector<std::string>>()) cli::add_input_option(opt.inputs, spec);
        } catch (const cli::UsageError& e) {
            return usage_error(e.what());
        }
        if (!opt.outputs_dir.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(opt.outputs_dir, ec);
            if (ec || ::access(opt.outputs_dir.c_str(), W_OK) != 0) {
                std::cerr << "davinci-sim: error: --outputs: cannot write to " << opt.outputs_dir << ": "
                          << (ec ? ec.message() : std::strerror(errno)) << "\n";
                return kExitUsage;
            }
        }
    } else if (vm.count("seed")) {
        return usage_error("--seed is for --functional");
    }
    try {
        const int status = run(opt);
        // A report lost to a full disk or a closed pipe is a failure, not
        // a success with nothing to show.
        if (!(std::cout << std::flush)) {
            std::cerr << "davinci-sim: error: cannot write the standard output\n";
            return kExitFailure;
        }
        return status;
    } catch (const std::exception& e) {
        std::cerr << "davinci-sim: error: " << e.what() << "\n";
        return kExitFailure;
    }
}

// Our own main, ahead of libsystemc's: the SystemC banner is printed before
// sc_main runs and would garble reports and JSON piped from stdout.
int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
