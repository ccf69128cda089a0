#include "dsl/lower/explain.h"

#include <sstream>

#include "dsl/ir/fusion_groups.h"

namespace dsl {

namespace {

std::string tiling_text(const MatmulTiling& t) {
    std::ostringstream s;
    s << t.mt << "x" << t.nt << "x" << t.kt << " on " << t.grid_rows << "x" << t.grid_cols << " cubes, block "
      << t.block_rows() << "x" << t.block_cols() << ", kb " << t.kb;
    return s.str();
}

std::string relative(int64_t cycles, int64_t best) {
    if (best <= 0) return "";
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(1);
    s << " (" << (cycles >= best ? "+" : "") << 100.0 * double(cycles - best) / double(best) << " %)";
    return s.str();
}

std::string op_text(const TaskGraph& g, int i) {
    const OpNode& op = g.ops[size_t(i)];
    std::string s = g.tensors[size_t(op.output)].name + " = " + op_kind_name(op.kind) + "(";
    for (size_t k = 0; k < op.inputs.size(); ++k) s += (k ? ", " : "") + g.tensors[size_t(op.inputs[k])].name;
    return s + ")";
}

}  // namespace

std::string format_explanation(const TaskGraph& g, const Explanation& e) {
    std::ostringstream s;
    s << "# davinci-sim --explain: the compiler's choices per operation (docs/timing-model.md §10)\n";
    const std::vector<std::vector<int>> readers = tensor_consumers(g);
    for (const OpExplanation& x : e.ops) {
        const OpNode& op = g.ops[size_t(x.op)];
        s << "\nop " << x.op << ": " << op_text(g, x.op) << "\n";
        // Placement: the task's, where the result lives, where the blocks run.
        const std::string task = op.task >= 0 ? g.tasks[size_t(op.task)].name : "";
        const std::string placement = op.task >= 0 ? g.tasks[size_t(op.task)].placement : "any";
        s << "  placement: " << (task.empty() ? "top level" : "task " + task) << " (placement='" << placement
          << "'), result ";
        if (x.fused) {
            // A fused group stores the results others read (a row group's)
            // or its last operation's alone.
            const bool stored = fused_result_stored(g, readers, x.op);
            const bool cube = op_kind_unit_of(g.ops[size_t(op.fused_into)].kind) == OpUnit::Cube;
            s << (stored ? "stored to DDR by the group"
                  : cube ? "kept in L1 on the group's tiles"
                         : "kept in L1 on the group's chunks")
              << "\n";
        } else if (heads_row_group(op) && x.unfused.empty() && !fused_result_stored(g, readers, x.op)) {
            s << "kept in L1 on the group's chunks\n";
        } else {
            s << "in " << (x.result_on_chip ? placement_name(g.tensors[size_t(op.output)].placement) : "DDR")
              << (x.takes_bytes_of.empty() ? "" : " (in its strand's workspace: the bytes of " + x.takes_bytes_of + ")")
              << ", blocks "
              << (x.pinned                ? "pinned to the clusters holding their on-chip parts"
                  : x.strand_clusters > 0 ? "on their strand's clusters " + std::to_string(x.strand_first) + " to " +
                                                std::to_string(x.strand_first + x.strand_clusters - 1) + ", in turn"
                                          : "on any cluster")
              << "\n";
        }
        if (!op.epilogue.empty()) {
            s << "  fusion group: " << (x.unfused.empty() ? "runs" : "not fused (" + x.unfused + "):");
            for (size_t k = 0; k < op.epilogue.size(); ++k)
                s << (k ? ", " : " ") << op_kind_name(g.ops[size_t(op.epilogue[k])].kind) << " (op " << op.epilogue[k]
                  << ")";
            // A cube operation's C tiles, or a vector chain head's chunks.
            s << (!x.unfused.empty()                         ? " ran on their own\n"
                  : op_kind_unit_of(op.kind) == OpUnit::Cube ? " on its tiles in L1\n"
                                                             : " on its chunks in L1\n");
        } else if (op.fused_into >= 0) {
            s << "  fusion group: "
              << (x.fused ? (op_kind_unit_of(g.ops[size_t(op.fused_into)].kind) == OpUnit::Cube
                                 ? "runs on the tiles of op "
                                 : "runs on the chunks of op ")
                          : "not fused (it ran on its own) although grouped with op ")
              << op.fused_into << "\n";
        } else {
            s << "  fusion group: none\n";
        }
        if (x.fused) continue;
        s << "  blocks: " << x.blocks << "\n";
        if (x.gemm && x.gemm->fold_major) {
            s << "  tiling: fold-major schedule of the systolic array (docs/timing-model.md §10 \"Systolic fold "
                 "schedules\"): no k-stepped tiling\n";
        } else if (x.gemm) {
            const GemmExplanation& m = *x.gemm;
            s << "  tiling (mt x nt x kt): " << tiling_text(m.chosen) << ", estimated " << m.cycles << " cycles\n";
            s << "  buffering: L1 panels " << buffering_name(m.chosen.buffers) << ", L0 tiles "
              << buffering_name(m.chosen.l0_buffers);
            if (m.prefetch_cycles >= 0)
                s << "; prefetch=True: a third panel buffer estimated " << m.prefetch_cycles << " cycles, "
                  << (m.chosen.buffers == 3 ? "taken" : "not taken (not 1 % faster)");
            s << "\n";
            s << "  rejected (the best " << m.rejected.size() << " of " << m.estimated << " estimated):";
            if (m.rejected.empty()) s << " none";
            s << "\n";
            for (const TilingCandidate& r : m.rejected)
                s << "    " << tiling_text(r.t) << ": " << r.cycles << " cycles" << relative(r.cycles, m.cycles)
                  << "\n";
        } else {
            s << "  buffering: ";
            if (x.buffering > 0) s << buffering_name(x.buffering) << "\n";
            else s << "none (not pipelined)\n";
        }
    }
    return s.str();
}

}  // namespace dsl
