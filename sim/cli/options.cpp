#include "sim/cli/options.h"

#include <iostream>
#include <string>
#include <variant>
#include <vector>

#include <boost/program_options.hpp>

#include "dsl/frontend/frontend.h"
#include "sim/arch/config.h"
#include "sim/cli/driver/exit_status.h"
#include "sim/cli/driver/outputs.h"
#include "sim/cli/single_op_option.h"
#include "sim/cli/usage.h"
#include "sim/trace/trace_filter.h"

namespace po = boost::program_options;

namespace cli {

namespace {

// Adds options in --help's order; each output of output_kinds() goes
// right after the option its entry names.
class OptionList {
public:
    explicit OptionList(po::options_description& o) : o_(o) {}

    OptionList& operator()(const char* name, const char* help) { return add(name, nullptr, help); }
    OptionList& operator()(const char* name, const po::value_semantic* value, const char* help) {
        return add(name, value, help);
    }

private:
    OptionList& add(const char* name, const po::value_semantic* value, const char* help) {
        if (value) o_.add_options()(name, value, help);
        else o_.add_options()(name, help);
        const std::string long_name = std::string(name).substr(0, std::string(name).find(','));
        for (const OutputKind& k : output_kinds())
            if (long_name == k.help_after) add(k.option, po::value<std::string>()->value_name(k.value_name), k.help);
        return *this;
    }

    po::options_description& o_;
};

po::options_description visible_options() {
    po::options_description o("options");
    OptionList{o}("help,h", "print this help and exit")("version", "print the version and exit")(
        "config,c", po::value<std::string>()->value_name("FILE"),
        "hardware description (JSON); without it, the built-in default (= configs/cluster.json)")(
        "help-config", "list every hardware parameter with its unit, default and meaning, and exit")(
        "set", po::value<std::vector<std::string>>()->value_name("KEY=VALUE")->composing(),
        "override one hardware parameter of the config (repeatable), KEY as --help-config lists it, e.g. "
        "--set ddr.bytes_per_cycle=64; VALUE is JSON, or else a string")(
        "shape", po::value<std::vector<std::string>>()->value_name("NAME=D0,D1,..")->composing(),
        "bind the None dimensions of input NAME (repeatable), e.g. --shape input=1,3,224,224; with --op, the "
        "operation's sizes")(
        "param", po::value<std::vector<std::string>>()->value_name("NAME=VALUE")->composing(),
        "set the program's constant NAME, declared NAME = pypo.param(\"NAME\", default), to VALUE (repeatable), "
        "read as the default's type (int, float, bool True/False, or str), e.g. --param layers=2")(
        "op", po::value<std::string>()->value_name("matmul|conv2d"),
        "simulate one operation instead of a program: --op matmul --shape M,K,N, or --op conv2d --shape "
        "H,W,C,R,S,F,stride in SCALE-Sim's layer form and conventions: no padding, output size "
        "ceil((H - R + stride) / stride) (a program's conv2d rounds down)")(
        "topology", po::value<std::string>()->value_name("FILE.csv"),
        "simulate a SCALE-Sim topology file instead of a program, one operation per layer: convolutions (name, "
        "IFMAP height, IFMAP width, filter height, filter width, channels, filters, stride[, stride width]) or, "
        "with a header 'Layer Name, M, N, K', GEMMs; SCALE-Sim's conventions as for --op conv2d")(
        "dtype", po::value<std::string>()->value_name("float16|float32"),
        "with --op or --topology: the operands' dtype (default float16)")(
        "dump-graph", "print the task graph (tasks, operations, data movements, tensors) and stop")(
        "dump-program", "print the lowered command streams instead of simulating")(
        "no-fusion",
        "do not fuse element-wise operations into the matmul or conv2d whose result they consume (as "
        "pypo.config.FUSION = False): every operation goes through DDR")(
        "program-json", po::value<std::string>()->value_name("FILE"),
        "simulate the command program in FILE (JSON, as --emit-program-json writes) instead of a .pto")(
        "max-cycles", po::value<std::string>()->value_name("N"),
        "stop a run that has not finished by cycle N (exit status 3, no report or traces)")(
        "tokens", po::value<std::string>()->value_name("N"),
        "the run makes N tokens (a decode step: its batch; a prefill: batch x prompt length): the report adds "
        "the energy and the time per token")(
        "trace-window", po::value<std::string>()->value_name("START:END"),
        "--trace and --vcd show cycles START to END only (either may be left out; slices crossing an edge are "
        "clipped), and the run keeps only those commands in memory")(
        "trace-clusters", po::value<std::string>()->value_name("LIST"),
        "--trace and --vcd show these clusters only, e.g. 0,2,5-7")(
        "trace-ops", po::value<std::string>()->value_name("GLOBS"),
        "--trace and --vcd show the commands of these operations only: names or globs of operations or tasks, "
        "separated by commas, e.g. 'matmul_*,softmax_1'")(
        "functional",
        "also compute the values: memories hold real bytes, commands move and compute them "
        "(float16 rounding); timing is unchanged. Needs a program (.pto or .onnx)")(
        "input", po::value<std::vector<std::string>>()->value_name("NAME=FILE.npy")->composing(),
        "with --functional: the values of input or weight NAME (NumPy .npy, float16/float32, the program's shape "
        "and dtype); repeatable. Inputs not given get seeded random values")(
        "seed", po::value<uint64_t>()->value_name("N"), "with --functional: the seed of the random inputs (default 0)")(
        "check",
        "with --functional: compare every operation with the reference executor (the task graph in float64, "
        "no lowering) applied to its simulated inputs, and every output with the reference run from the "
        "program's inputs (information); exit status 1 when an operation is beyond tolerance")(
        "quiet,q", "do not print the text report")(
        "timings",
        "after the run, print on stderr where its wall time went: seconds and microseconds per command for "
        "parse, lower, check, spool, simulate and outputs, and the SystemC process activations and delta "
        "cycles per command");
    return o;
}

// The options of `Stage` (outputs of output_kinds()), "--graph-dot".
template <typename Stage>
std::vector<std::string> stage_options() {
    std::vector<std::string> names;
    for (const OutputKind& k : output_kinds())
        if (std::holds_alternative<Stage>(k.made)) names.push_back(k.option);
    return names;
}

int parse_program_json(const po::variables_map& vm, RunOptions& opt) {
    opt.program_json = vm["program-json"].as<std::string>();
    if (vm.count("program"))
        return usage_error("--program-json takes the place of a .pto program (got '" +
                           vm["program"].as<std::vector<std::string>>()[0] + "' too)");
    std::vector<std::string> front_end_only = {"shape", "param", "dump-graph"};
    for (const std::string& o : stage_options<GraphOutput>()) front_end_only.push_back(o);
    for (const std::string& o : stage_options<ExplainOutput>()) front_end_only.push_back(o);
    for (const std::string& o : front_end_only)
        if (vm.count(o)) return usage_error("--" + o + " needs a .pto program, not --program-json");
    return 0;
}

// The program to run: --op, --program-json or one .pto.
int parse_program(const po::variables_map& vm, RunOptions& opt) {
    // Removed rather than kept as an alias of --ops-csv: its columns were
    // renamed, and two old names (stall_cycles, kind) mean something else in
    // the ops CSV, so an old script would read other figures without a word.
    if (vm.count("topology-csv"))
        return usage_error(
            "--topology-csv was replaced by --ops-csv: with --topology its rows (one per layer) have SCALE-Sim's "
            "columns, renamed scalesim_* (scalesim_total_cycles, scalesim_stall_cycles, ...)");
    if (vm.count("topology")) return parse_topology_option(vm, opt);
    if (vm.count("op")) return parse_single_op(vm, opt);
    if (vm.count("dtype")) return usage_error("--dtype is for --op and --topology");
    if (vm.count("program-json")) return parse_program_json(vm, opt);
    if (!vm.count("program")) return usage_error("no program given");
    const auto programs = vm["program"].as<std::vector<std::string>>();
    if (programs.size() > 1) return usage_error("one program at a time (got '" + programs[1] + "' too)");
    opt.program = programs[0];
    return 0;
}

int parse_shapes(const po::variables_map& vm, RunOptions& opt) {
    if (!vm.count("shape") || opt.single_op) return 0;
    for (const std::string& spec : vm["shape"].as<std::vector<std::string>>()) {
        std::string name, error;
        std::vector<int64_t> dims;
        if (!dsl::parse_shape_option(spec, name, dims, error)) return usage_error("--shape: " + error);
        if (!opt.shapes.emplace(name, dims).second) return usage_error("--shape: '" + name + "' is given twice");
    }
    return 0;
}

int parse_params(const po::variables_map& vm, RunOptions& opt) {
    if (!vm.count("param")) return 0;
    if (opt.single_op) return usage_error("--param sets a .pto program's constants; --op and --topology have none");
    for (const std::string& spec : vm["param"].as<std::vector<std::string>>()) {
        std::string name, value, error;
        if (!dsl::parse_param_option(spec, name, value, error)) return usage_error("--param: " + error);
        if (!opt.params.emplace(name, value).second) return usage_error("--param: '" + name + "' is given twice");
    }
    return 0;
}

int parse_settings(const po::variables_map& vm, RunOptions& opt) {
    if (!vm.count("set")) return 0;
    for (const std::string& spec : vm["set"].as<std::vector<std::string>>()) {
        const size_t eq = spec.find('=');
        if (eq == std::string::npos || eq == 0)
            return usage_error(
                "--set: expected KEY=VALUE, KEY as --help-config lists it (e.g. "
                "ddr.bytes_per_cycle=64), got '" +
                spec + "'");
        const std::string key = spec.substr(0, eq);
        for (const auto& earlier : opt.settings)
            if (earlier.first == key) return usage_error("--set: '" + key + "' is given twice");
        opt.settings.emplace_back(key, spec.substr(eq + 1));
    }
    return 0;
}

// A positive count given as OPTION N, parsed by hand: Boost's lexical_cast
// would wrap "-1" to 2^64-1.
int parse_positive(const po::variables_map& vm, const char* option, const char* what, uint64_t& out) {
    if (!vm.count(option)) return 0;
    const std::string n = vm[option].as<std::string>();
    if (n.empty() || n.size() > 19 || n.find_first_not_of("0123456789") != std::string::npos ||
        (out = std::stoull(n)) == 0)
        return usage_error(std::string("--") + option + ": expected a positive number of " + what + ", got '" + n +
                           "'");
    return 0;
}

// --trace-window, --trace-clusters, --trace-ops: what the traces show.
int parse_trace_filter(const po::variables_map& vm, RunOptions& opt) {
    using Parse = bool (*)(const std::string&, trace::TraceFilter&, std::string&);
    const std::pair<const char*, Parse> filters[] = {{"trace-window", trace::parse_trace_window},
                                                     {"trace-clusters", trace::parse_trace_clusters},
                                                     {"trace-ops", trace::parse_trace_ops}};
    for (const auto& [option, parse] : filters) {
        if (!vm.count(option)) continue;
        std::string error;
        if (!parse(vm[option].as<std::string>(), opt.trace_filter, error))
            return usage_error(std::string("--") + option + ": " + error);
        if (opt.output("trace").empty() && opt.output("vcd").empty())
            return usage_error(std::string("--") + option +
                               " chooses what --trace and --vcd show; neither is asked for");
    }
    return 0;
}

// --functional, and the options that imply it or need it.
int parse_functional(const po::variables_map& vm, RunOptions& opt) {
    opt.check = vm.count("check") > 0;
    opt.functional = vm.count("functional") > 0 || opt.check || vm.count("input");
    for (const std::string& o : stage_options<FunctionalFolder>()) opt.functional |= vm.count(o) > 0;
    if (vm.count("seed")) opt.inputs.seed = vm["seed"].as<uint64_t>();
    if (!opt.functional) return vm.count("seed") ? usage_error("--seed is for --functional") : 0;
    if (!opt.program_json.empty())
        return usage_error(
            "--functional needs a .pto program (the inputs and outputs are the program's), not --program-json");
    std::vector<std::string> stops = {"dump-graph"};
    for (const std::string& o : stage_options<GraphOutput>()) stops.push_back(o);
    stops.push_back("dump-program");
    for (const std::string& o : stage_options<ProgramOutput>()) stops.push_back(o);
    for (const std::string& o : stops)
        if (vm.count(o)) return usage_error("--functional runs the program; --" + o + " stops before it");
    try {
        if (vm.count("input"))
            for (const std::string& spec : vm["input"].as<std::vector<std::string>>())
                add_input_option(opt.inputs, spec);
    } catch (const UsageError& e) {
        return usage_error(e.what());
    }
    return 0;
}

int parse_options(const po::variables_map& vm, RunOptions& opt) {
    if (int rc = parse_program(vm, opt)) return rc;
    if (vm.count("config")) opt.config = vm["config"].as<std::string>();
    if (int rc = parse_settings(vm, opt)) return rc;
    for (const OutputKind& k : output_kinds())
        if (vm.count(k.option)) opt.outputs[k.option] = vm[k.option].as<std::string>();
    if (int rc = parse_shapes(vm, opt)) return rc;
    if (int rc = parse_params(vm, opt)) return rc;
    opt.dump_graph = vm.count("dump-graph") > 0;
    opt.dump_program = vm.count("dump-program") > 0;
    opt.no_fusion = vm.count("no-fusion") > 0;
    opt.quiet = vm.count("quiet") > 0;
    opt.timings = vm.count("timings") > 0;
    if (int rc = parse_positive(vm, "max-cycles", "cycles", opt.max_cycles)) return rc;
    if (int rc = parse_positive(vm, "tokens", "tokens", opt.tokens)) return rc;
    if (int rc = parse_trace_filter(vm, opt)) return rc;
    return parse_functional(vm, opt);
}

// --help, --version and --help-config print and end the command.
std::optional<int> information(const po::variables_map& vm, const po::options_description& visible) {
    if (vm.count("help")) {
        std::cout << kUsage << "\nSimulates a PyPTO program on a DaVinci-style accelerator, cycle by cycle.\n\n"
                  << visible << "\nexample:\n  davinci-sim --config configs/cluster.json models/gemm_2048.pto\n";
        return kExitSuccess;
    }
    if (vm.count("version")) {
        std::cout << "davinci-sim " << DAVINCI_VERSION << "\n";
        return kExitSuccess;
    }
    if (vm.count("help-config")) {
        std::cout << arch::describe_config_params();
        return kExitSuccess;
    }
    return std::nullopt;
}

}  // namespace

std::optional<int> parse_command_line(int argc, char** argv, RunOptions& opt) {
    const po::options_description visible = visible_options();
    po::options_description all;
    all.add(visible).add_options()("program", po::value<std::vector<std::string>>())(
        "topology-csv", po::value<std::string>());  // known only to say what replaced it
    po::positional_options_description positional;
    positional.add("program", -1);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        return usage_error(e.what());
    }
    if (std::optional<int> done = information(vm, visible)) return done;
    if (int rc = parse_options(vm, opt)) return rc;
    return std::nullopt;
}

}  // namespace cli
