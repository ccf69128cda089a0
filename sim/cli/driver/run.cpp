#include "sim/cli/driver/run.h"

#include <iostream>

#include <systemc>

#include "sim/arch/program_check.h"
#include "sim/cli/driver/compile.h"
#include "sim/cli/driver/exit_status.h"
#include "sim/cli/driver/functional_report.h"
#include "sim/cli/driver/outputs.h"
#include "sim/cli/driver/progress.h"
#include "sim/cli/driver/trace_memory.h"
#include "sim/hw/activations.h"
#include "sim/hw/chip.h"
#include "sim/trace/energy.h"
#include "sim/trace/op_stats.h"

namespace cli {

namespace {

// The report's params, each value in its JSON type (the text was written by
// the front end from a value of that type, so it parses).
std::vector<trace::RunInfo::Param> report_params(const std::vector<dsl::ProgramParam>& params) {
    std::vector<trace::RunInfo::Param> out;
    for (const dsl::ProgramParam& p : params) {
        nlohmann::json value;
        switch (p.type) {
        case dsl::ProgramParam::Type::Int: value = std::stoll(p.text); break;
        case dsl::ProgramParam::Type::Float: value = std::stod(p.text); break;
        case dsl::ProgramParam::Type::Bool: value = p.text == "True"; break;
        case dsl::ProgramParam::Type::Str: value = p.text; break;
        }
        out.push_back({p.name, value, p.repr});
    }
    return out;
}

uint64_t command_count(const Compiled& c) {
    uint64_t commands = c.spool ? c.spool->commands() : 0;
    for (const arch::Block& b : c.program.blocks)
        for (const arch::Stream& st : b.streams) commands += st.commands.size();
    return commands;
}

// The Chrome trace and the VCD work from the whole program and every
// command's start and end: for them the program is read back whole, once
// it is known to fit.
Outcome read_back_whole(const RunOptions& opt, Compiled& c) {
    const std::string options = whole_program_options(opt);
    // With a filter the run keeps what it shows, up to the memory's worth
    // (simulate_and_report), and reads back only the blocks it shows.
    if (options.empty() || opt.trace_filter.active()) return std::nullopt;
    const std::string refusal = trace_memory_refusal(options, command_count(c), usable_memory_bytes());
    if (!refusal.empty()) {
        std::cerr << "davinci-sim: error: " << refusal << "\n";
        return kExitUsage;
    }
    if (c.spool) {
        c.program.blocks.reserve(c.spool->size());
        for (size_t b = 0; b < c.spool->size(); ++b) c.program.blocks.push_back(c.spool->load(b));
        c.spool.reset();
    }
    return std::nullopt;
}

// --dump-program, block by block. A spooled program's blocks were checked
// as they were compiled.
void dump_program(const Compiled& c, const arch::Config& config, arch::BlockSource& blocks) {
    if (c.spool) arch::check_program_header(c.program, config);
    else arch::check_program(c.program, config);
    std::cout << arch::format_program_header(c.program, blocks.size());
    for (size_t b = 0; b < blocks.size(); ++b) {
        std::cout << arch::format_block(c.program, b, blocks.acquire(b));
        blocks.release(b);
    }
}

std::optional<trace::RunStats> simulate(const RunOptions& opt, const arch::Config& config, const Compiled& c,
                                        trace::RecorderFan& recorders) {
    // Cleared (its line erased) when the run ends, before the report.
    Progress progress(c.spool ? c.spool->size() : c.program.blocks.size());
    if (progress.enabled() && !opt.quiet) recorders.add(&progress);
    return c.spool ? hw::simulate_until(config, c.program, *c.spool, &recorders, opt.max_cycles)
                   : hw::simulate_until(config, c.program, &recorders, opt.max_cycles);
}

// What --trace and --vcd read: the whole program, or with a trace filter
// and a spooled program, its header and the blocks of the commands kept and
// of those running at the window's start (the others left empty).
arch::Program traced_blocks(const Compiled& c, const std::vector<trace::CommandRecord>& records,
                            const trace::BeforeWindow* before) {
    arch::Program p = c.program;
    p.blocks.assign(c.spool->size(), arch::Block{});
    std::vector<bool> wanted(c.spool->size());
    for (const trace::CommandRecord& r : records) wanted[r.block] = true;
    if (before)
        for (const auto& [block, b] : before->blocks()) wanted[block] = true;
    for (size_t b = 0; b < wanted.size(); ++b)
        if (wanted[b]) p.blocks[b] = c.spool->load(b);
    return p;
}

int simulate_and_report(const RunOptions& opt, const LoadedConfig& config, Compiled& c, PhaseTimings& timings) {
    const trace::TraceFilter& filter = opt.trace_filter;
    for (uint32_t cluster : filter.clusters)
        if (int64_t(cluster) >= config.config.clusters) {
            std::cerr << "davinci-sim: error: --trace-clusters: cluster " << cluster
                      << " does not exist: " << config.name << " has " << config.config.clusters << " clusters (0-"
                      << config.config.clusters - 1 << ")\n";
            return kExitUsage;
        }
    const uint64_t max_kept = usable_memory_bytes() / kTraceBytesPerCommand;
    trace::TimingRecorder timing =
        filter.active() ? trace::TimingRecorder(filter, c.program, max_kept) : trace::TimingRecorder();
    trace::RecorderFan recorders;
    std::optional<trace::BeforeWindow> before;
    if (!whole_program_options(opt).empty()) {
        // One record per command: no regrowth, no copies.
        if (!filter.active()) timing.records.reserve(command_count(c));
        recorders.add(&timing);
        if (filter.windowed()) recorders.add(&before.emplace(filter, c.program));
    }
    const std::vector<std::unique_ptr<RunOutput>> outputs =
        attach_run_outputs(opt, RunSetup{c.program, recorders, &opt});
    // The all-float16 plan of a mixed-precision switch is timed first, in
    // a child process: this one may elaborate SystemC only once.
    PlanTiming float16_timing;
    const bool float16_timed =
        !c.plan.switches.empty() && time_in_child(config.config, c.plan.float16_program, float16_timing);
    trace::OpStatsRecorder op_stats(c.program, config.config);
    if (!c.plan.switches.empty()) recorders.add(&op_stats);
    std::optional<trace::RunStats> stats;
    {
        ScopedPhase simulating(timings, Phase::Simulate);
        stats = simulate(opt, config.config, c, recorders);
        if (c.spool) timings.move_to(Phase::Spool, Phase::Simulate, c.spool->read_seconds());
    }
    if (!stats) {
        std::cerr << "davinci-sim: error: the simulation had not finished at cycle " << opt.max_cycles
                  << " (--max-cycles " << opt.max_cycles << "); no report or traces written\n";
        return kExitCycleLimit;
    }
    // Energies the config accepts can take a run's energy past what its
    // outputs hold (sim/trace/energy.h): say so before writing any.
    if (const std::string overflow = trace::energy_overflow(*stats, config.config); !overflow.empty()) {
        std::cerr << "davinci-sim: error: " << config.name << ": " << overflow << "\n";
        return kExitUsage;
    }
    const trace::RunInfo info{opt.program_json.empty() ? opt.program : opt.program_json,
                              config.name,
                              c.promotions,
                              c.notes,
                              report_params(c.params),
                              opt.tokens,
                              c.messages};
    if (timing.overflowed()) {
        std::cerr << "davinci-sim: error: " << trace_filter_refusal(whole_program_options(opt), max_kept)
                  << "; no report or traces written\n";
        return kExitUsage;
    }
    std::optional<arch::Program> traced;
    if (filter.active() && c.spool && !whole_program_options(opt).empty()) {
        ScopedPhase reading(timings, Phase::Spool);
        traced = traced_blocks(c, timing.records, before ? &*before : nullptr);
    }
    const RunResult result{c.program,
                           config.config,
                           *stats,
                           info,
                           timing.records,
                           timing.ddr_transfers,
                           traced ? *traced : c.program,
                           filter,
                           before ? &*before : nullptr};
    {
        ScopedPhase writing(timings, Phase::Outputs);
        for (const std::unique_ptr<RunOutput>& output : outputs) output->write(result);
        if (!opt.quiet) std::cout << trace::format_report(*stats, config.config, info);
    }
    if (opt.timings)
        std::cerr << format_timings(timings, command_count(c), hw::activation_count, sc_core::sc_delta_count());
    if (!opt.functional) return kExitSuccess;
    const FunctionalReportOptions report{opt.check, opt.quiet, opt.output("outputs")};
    return report_functional(report, c.elaborated, c.inputs, c.input_sources, c.program, c.plan,
                             float16_timed ? &float16_timing : nullptr, op_stats, stats->total_cycles);
}

}  // namespace

int run(const RunOptions& opt) {
    if (!check_outputs(opt)) return kExitUsage;
    LoadedConfig config;
    if (Outcome end = load_config(opt, config)) return *end;
    Compiled compiled;
    PhaseTimings timings;
    if (Outcome end = compile(opt, config.config, compiled, timings)) return *end;
    {
        arch::ProgramBlocks held(compiled.program);
        arch::BlockSource& blocks = compiled.spool ? static_cast<arch::BlockSource&>(*compiled.spool) : held;
        if (write_program_outputs(opt, compiled.program, blocks)) return kExitSuccess;
        if (opt.dump_program) {
            dump_program(compiled, config.config, blocks);
            return kExitSuccess;
        }
    }
    {
        ScopedPhase reading(timings, Phase::Spool);
        if (Outcome end = read_back_whole(opt, compiled)) return *end;
    }
    return simulate_and_report(opt, config, compiled, timings);
}

}  // namespace cli
