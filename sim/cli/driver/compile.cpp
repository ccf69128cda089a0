#include "sim/cli/driver/compile.h"

#include <iostream>

#include "dsl/frontend/frontend.h"
#include "dsl/import/onnx_import.h"
#include "dsl/ir/graph_format.h"
#include "dsl/ir/placement_notes.h"
#include "dsl/lower/gemm/gemm_epilogue.h"
#include "dsl/lower/program/lower.h"
#include "dsl/passes/pass_fusion.h"
#include "dsl/passes/pass_moves.h"
#include "dsl/passes/pass_promote.h"
#include "dsl/support/diagnostics.h"
#include "sim/arch/program_check.h"
#include "sim/cli/driver/exit_status.h"
#include "sim/cli/driver/message_values.h"
#include "sim/cli/driver/outputs.h"
#include "sim/cli/driver/program_file.h"

namespace cli {

namespace {

// A hand-written or generated program is user input, not compiler output:
// its errors are usage errors, named by file.
Outcome read_program_json(const std::string& path, const arch::Config& config, arch::Program& program) {
    try {
        program = read_program_file(path);
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
    return std::nullopt;
}

void note_compilation(const dsl::TaskGraph& passed, Compiled& out) {
    out.promotions = dsl::count_promotions(passed);
    out.notes = dsl::placement_notes(passed);
    // The graph passes keep each message after the operations emitted for
    // the one before it: after_op indexes the compiled program's operations.
    out.messages.clear();
    out.message_tensors.clear();
    for (const dsl::LogNode& l : passed.logs) {
        out.messages.push_back({l.text, l.synchronous, l.after_op, dsl::file_line_col(l.loc)});
        out.message_tensors.push_back(l.tensors);
    }
}

// The promotion casts --dump-graph lists after the program. The graph
// passes can refuse a program the front end accepts (a buffer read before
// it is written); the graph view still works, and the simulation reports
// the error.
// What --dump-graph adds after the graph: the casts the promote pass
// inserted and the fusion pass's groups. Empty for a program the passes
// refuse: the graph view works for every program the language accepts.
std::string passes_listing(const dsl::TaskGraph& graph, const arch::Config& config) {
    try {
        const dsl::TaskGraph passed = dsl::run_graph_passes(graph).graph();
        const std::string groups = dsl::format_fusion_groups(
            passed, [&](const dsl::OpNode& head) { return dsl::epilogue_unfused_reason(config, passed, head); });
        return dsl::format_promotions(passed) + (groups.empty() ? "" : "\n" + groups);
    } catch (const dsl::CompileError&) {
        return "";
    }
}

// Lowering checks each block as it is made and spools it: the program is
// never whole in memory, whether it is simulated, listed (--dump-program) or
// written (--emit-program-json).
void lower(const RunOptions& opt, const arch::Config& config, const dsl::TaskGraph& graph, Compiled& out,
           PhaseTimings& timings) {
    dsl::LowerOptions lower_options;
    out.spool = std::make_unique<arch::BlockSpool>();
    arch::BlockSpool& spool = *out.spool;
    lower_options.block_sink = [&config, &spool, &timings](const arch::Program& header, size_t index,
                                                           const arch::Block& block) {
        {
            ScopedPhase checking(timings, Phase::Check);
            arch::check_block(header, config, index, block);
        }
        ScopedPhase spooling(timings, Phase::Spool);
        spool.append(block);
    };
    dsl::Explanation explanation;
    if (asks_for<ExplainOutput>(opt)) lower_options.explain = &explanation;
    const dsl::PassedGraph passed = dsl::run_graph_passes(graph);
    note_compilation(passed.graph(), out);
    ScopedPhase lowering(timings, Phase::Lower);
    out.program = dsl::lower(passed, config, opt.program, lower_options);
    out.notes.insert(out.notes.end(), out.program.notes.begin(), out.program.notes.end());
    if (lower_options.explain) write_explain_outputs(opt, passed.graph(), explanation);
}

// Throws CompileError and UsageError.
Outcome compile_pto(const RunOptions& opt, const arch::Config& config, Compiled& out, PhaseTimings& timings) {
    InputSpec inputs = opt.inputs;
    dsl::TaskGraph graph;
    if (opt.single_op) graph = dsl::elaborate_source(opt.single_op);
    else if (opt.program_text) graph = dsl::elaborate_source(opt.program_text, opt.shapes, opt.params);
    else if (dsl::is_onnx_path(opt.program)) {
        // An ONNX model is translated to program text, which the front end
        // reads as any program; its initializers are the weights' values.
        dsl::ImportedModel model = dsl::import_onnx_file(opt.program);
        graph = dsl::elaborate_source(model.program, opt.shapes, opt.params);
        inputs.values_source = opt.program + " initializer";
        for (dsl::ImportedWeight& w : model.weights)
            inputs.values[w.name] = func::HostTensor{w.shape, w.dtype, std::move(w.values)};
    } else graph = dsl::elaborate_file(opt.program, opt.shapes, opt.params);
    out.params = graph.params;
    dsl::check_dag(graph);
    if (opt.no_fusion) graph.fusion = false;
    // What the graph passes need to know of the target.
    graph.vector_buffers = config.vector_buffer();
    // The graph views stop after the front end, so they work for every
    // program the language accepts, lowered or not.
    const bool wrote = write_graph_outputs(opt, graph);
    if (opt.dump_graph) {
        std::cout << dsl::format_graph(graph) << passes_listing(graph, config);
    }
    if (wrote || opt.dump_graph) return kExitSuccess;
    if (!opt.functional) {
        lower(opt, config, graph, out, timings);
        return std::nullopt;
    }
    out.elaborated = graph;
    out.inputs = make_inputs(graph, inputs, out.input_sources);
    out.plan = plan_precision(graph, config, opt.program, out.inputs, inject_fault_from_env);
    out.program = std::move(out.plan.program);  // the functional run is over: the timed run takes it
    note_compilation(out.plan.lowered, out);
    out.notes.insert(out.notes.end(), out.program.notes.begin(), out.program.notes.end());
    {
        // The messages' tensors, with their values as the run computed them.
        const dsl::TaskGraph moved = dsl::apply_moves(graph);
        SimulatedValues values(moved, out.inputs, out.plan.lowered, out.program, *out.plan.run);
        add_tensor_values(out.messages, out.message_tensors, values);
    }
    if (asks_for<ExplainOutput>(opt)) {
        // The timed program is compiled from the plan's graph: explained
        // as compiled again, its commands dropped.
        dsl::Explanation explanation;
        dsl::LowerOptions o;
        o.explain = &explanation;
        o.block_sink = [](const arch::Program&, size_t, const arch::Block&) {};
        const dsl::PassedGraph passed = dsl::run_graph_passes(out.plan.graph);
        dsl::lower(passed, config, opt.program, o);
        write_explain_outputs(opt, passed.graph(), explanation);
    }
    return std::nullopt;
}

// Each key is checked as it would be in the file, and the checks across
// keys run again on the result: a file valid alone may not be with them.
void apply_settings(const RunOptions& opt, LoadedConfig& out) {
    if (opt.settings.empty()) return;
    out.name += " with";
    for (const auto& [key, value] : opt.settings) {
        arch::set_config_param(out.config, key, arch::setting_value(value), "--set");
        out.name += " --set " + key + "=" + value;
    }
    arch::check_config(out.config, "--set");
}

}  // namespace

Outcome load_config(const RunOptions& opt, LoadedConfig& out) {
    try {
        if (!opt.config_text.empty()) {
            out.config = arch::config_from_text(opt.config_text, opt.config);
            out.name = opt.config;
        } else if (opt.config.empty()) {
            out.config = arch::default_config();
            out.name = "built-in default";
        } else {
            out.config = arch::load_config_file(opt.config);
            out.name = opt.config;
        }
        apply_settings(opt, out);
    } catch (const arch::ConfigError& e) {
        std::cerr << "davinci-sim: error: " << e.what() << "\n";
        return kExitUsage;
    }
    return std::nullopt;
}

Outcome compile(const RunOptions& opt, const arch::Config& config, Compiled& out, PhaseTimings& timings) {
    ScopedPhase parsing(timings, Phase::Parse);
    if (!opt.program_json.empty()) return read_program_json(opt.program_json, config, out.program);
    try {
        return compile_pto(opt, config, out, timings);
    } catch (const dsl::CompileError& e) {
        std::cerr << e.what();
        return kExitUsage;
    } catch (const UsageError& e) {
        std::cerr << "davinci-sim: error: " << e.what() << "\n";
        return kExitUsage;
    }
}

}  // namespace cli
