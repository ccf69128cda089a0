#include "sim/cli/driver/functional_report.h"

#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "dsl/passes/pass_moves.h"
#include "dsl/reference/reference.h"
#include "sim/cli/driver/functional_check.h"
#include "sim/cli/driver/functional_run.h"
#include "sim/cli/driver/op_check.h"
#include "sim/trace/atomic_file.h"

namespace cli {

namespace {}  // namespace

// Outputs (--outputs), the check against the reference (--check) and the
// mixed-precision switches, after the timed run. Returns the exit status.
int report_functional(const FunctionalReportOptions& opt, const dsl::TaskGraph& g,
                      const std::map<int, func::HostTensor>& inputs, const std::vector<std::string>& sources,
                      const arch::Program& program, const PrecisionPlan& plan, const PlanTiming* float16,
                      const trace::OpStatsRecorder& final_ops, uint64_t final_cycles) {
    std::ostringstream out;
    out << (opt.quiet ? "" : "\n") << "functional simulation\n  inputs:";
    for (size_t i = 0; i < sources.size(); ++i) out << (i ? "; " : " ") << sources[i];
    if (sources.empty()) out << " none";
    out << "\n";
    std::map<int, func::HostTensor> outputs;
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        if (g.tensors[i].role != dsl::TensorRole::Output) continue;
        // The lowering passes keep the program's outputs at their indices, names and dtypes.
        const arch::TensorPlacement& t = program.tensors[i];
        if (t.name != g.tensors[i].name || t.dtype != g.tensors[i].dtype || t.shape != g.tensors[i].shape)
            throw std::logic_error("the compiled program moved output '" + g.tensors[i].name + "'");
        outputs[int(i)] = *read_tensor(*plan.run, program, i);
    }
    if (!opt.outputs_dir.empty()) {
        out << "  outputs written to " << opt.outputs_dir << ":";
        for (const auto& [index, t] : outputs) {
            const std::string path =
                (std::filesystem::path(opt.outputs_dir) / (g.tensors[size_t(index)].name + ".npy")).string();
            trace::write_file_atomically(path, func::npy_bytes(t));
            out << " " << g.tensors[size_t(index)].name << ".npy";
        }
        out << "\n";
    }
    if (!plan.switches.empty() || !plan.kept.empty()) {
        out << "  mixed precision: " << plan.switches.size() << " operation" << (plan.switches.size() == 1 ? "" : "s")
            << " switched to float32 (decided in " << plan.rounds << " functional runs)\n";
        for (const PrecisionSwitch& s : plan.switches) {
            out << "    " << s.name << " (" << s.kind << " at " << s.where << "): " << s.reason;
            // The op and the casts its precision brings, in each plan.
            if (float16) {
                uint64_t was = 0, now = 0;
                for (int i : switch_ops(plan.float16_lowered, g, s.op))
                    if (size_t(i) < float16->op_cycles.size()) was += float16->op_cycles[size_t(i)];
                for (int i : switch_ops(plan.lowered, g, s.op)) {
                    const trace::OpStats& o = final_ops.ops()[size_t(i)];
                    if (o.ran()) now += o.end - o.start;
                }
                out << "; cycles (with its casts) " << was << " in float16 -> " << now << " in float32 ("
                    << (now >= was ? "+" : "-") << (now >= was ? now - was : was - now) << ")";
            }
            out << "\n";
        }
        for (const PrecisionSwitch& s : plan.kept)
            out << "    kept in float16: " << s.name << " (" << s.kind << " at " << s.where << "): " << s.reason
                << "\n";
        if (float16)
            out << "    program: " << float16->total << " cycles all-float16, " << final_cycles
                << " with the switches (" << (final_cycles >= float16->total ? "+" : "-")
                << (final_cycles >= float16->total ? final_cycles - float16->total : float16->total - final_cycles)
                << ")\n";
    }
    int status = 0;
    std::string failure;
    if (opt.check) {
        const dsl::TaskGraph moved = dsl::apply_moves(g);
        std::vector<dsl::RefValues> ref_in(moved.tensors.size());
        for (const auto& [index, t] : inputs) ref_in[size_t(index)].assign(t.values.begin(), t.values.end());
        std::vector<dsl::RefValues> ref;
        try {
            ref = dsl::run_reference(moved, ref_in);
        } catch (const dsl::ReferenceError& e) {
            // What the reference cannot evaluate is a limit, not a failed check.
            std::cout << out.str();
            std::cerr << "davinci-sim: error: " << e.what() << "\n";
            return 2;
        }
        // Each operation on its simulated inputs decides; the outputs
        // against the reference from the program's inputs, where rounding
        // compounds, are information.
        out << "  check of each operation against the reference executor (float64) applied to its simulated "
               "inputs:\n";
        for (const OpCheck& c : check_operations(moved, ref, inputs, plan.lowered, program, *plan.run)) {
            out << format_op_check(c);
            if (!c.own.pass && failure.empty()) {
                std::ostringstream f;
                f << "--check: operation '" << c.own.name << "' (" << c.kind << " at " << c.where
                  << ") differs from the reference applied to its simulated inputs at " << index_text(c.own.worst_at)
                  << ": " << c.own.worst_sim << " computed, " << c.own.worst_ref << " expected (tolerance "
                  << c.own.worst_tolerance << ")";
                failure = f.str();
            }
        }
        out << "  outputs against the reference from the program's inputs (float64, no lowering; information: "
               "rounding compounds from operation to operation):\n";
        for (const auto& [index, t] : outputs)
            out << "  "
                << check_figures(compare_output(g.tensors[size_t(index)].name, t.shape,
                                                computed_precision(plan.lowered, index), t.values, ref[size_t(index)]))
                << "\n";
    }
    // Printed under --quiet too: it is what --functional was asked for.
    std::cout << out.str();
    if (!failure.empty()) {
        std::cerr << "davinci-sim: error: " << failure << "\n";
        status = 1;
    }
    return status;
}

}  // namespace cli
