#include "sim/cli/driver/scalesim_columns.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>

#include "sim/arch/cube_cost.h"
#include "sim/trace/csv_field.h"

namespace cli {

namespace {

// The shortest text that reads back as the same double (Python's repr, as
// SCALE-Sim prints its figures, up to the exponent's spelling).
std::string number(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

// What a cell is made from: the operation's layer, and the figures of the
// systolic dataflows.
struct LayerCell {
    const dsl::TopologyLayer& layer;
    const trace::OpsCsvCell& cell;
    uint64_t arrays() const { return uint64_t(cell.config.clusters * cell.config.cubes_per_cluster); }
    ScaleSimFigures figures() const { return scalesim_figures(cell.config, layer.M, layer.N, layer.K); }
    uint64_t total() const { return cell.op.cube_cycles; }  // stall-free, as SCALE-Sim's Total - Stall
};

using Layers = std::shared_ptr<const std::vector<const dsl::TopologyLayer*>>;  // by operation index

template <typename Value>
trace::OpsCsvColumn column(const char* name, const Layers& layers, Value value) {
    return {std::string("scalesim_") + name, [layers, value](const trace::OpsCsvCell& c) -> std::string {
                const dsl::TopologyLayer* l = c.index < layers->size() ? (*layers)[c.index] : nullptr;
                return l ? value(LayerCell{*l, c}) : std::string();
            }};
}

// A figure of the systolic dataflows only.
template <typename Value>
trace::OpsCsvColumn systolic(const char* name, const Layers& layers, Value value) {
    return column(name, layers,
                  [value](const LayerCell& l) { return l.cell.config.systolic() ? value(l) : std::string(); });
}

}  // namespace

double ScaleSimFigures::overall_util(uint64_t total_cycles) const {
    return double(macs * 100) / double(total_cycles * array_macs);
}

ScaleSimFigures scalesim_figures(const arch::Config& c, int64_t M, int64_t N, int64_t K) {
    const arch::SystolicFolds f = arch::systolic_folds(c, uint64_t(M), uint64_t(K), uint64_t(N));
    const uint64_t R = f.rows, C = f.cols;
    ScaleSimFigures s;
    s.folds = f.folds();
    s.stall_free_cycles = f.schedule_cycles();
    s.macs = uint64_t(M) * uint64_t(N) * uint64_t(K);
    s.array_macs = R * C;
    // SCALE-Sim's per-fold figures, averaged in its fold order (column
    // folds outer): its compute utilisation divides by T + R + C - 2 for os
    // and by 2R + 2C + T - 3 for ws and is (its stationary operand's demand
    // lines plus their width).
    const uint64_t util_cycles = c.cube_dataflow == arch::Dataflow::OS ? f.t + R + C - 2 : 2 * R + 2 * C + f.t - 3;
    double mapping = 0, compute = 0;
    for (uint64_t fc = 0; fc < f.col_folds(); ++fc)
        for (uint64_t fr = 0; fr < f.row_folds(); ++fr) {
            const uint64_t used = std::min(R, f.sr - fr * R) * std::min(C, f.sc - fc * C);
            mapping += double(used) / double(R * C);
            compute += double(used * f.t) / double(R * C * util_cycles);
        }
    s.mapping_efficiency = mapping / double(s.folds) * 100;
    s.compute_util = compute / double(s.folds) * 100;
    return s;
}

std::vector<trace::OpsCsvColumn> scalesim_columns(const dsl::Topology& t, const std::vector<trace::OpStats>& ops) {
    const std::vector<std::string> names = dsl::topology_op_names(t);
    std::map<std::string, const dsl::TopologyLayer*> by_name;
    for (size_t i = 0; i < t.layers.size() && i < names.size(); ++i) by_name.emplace(names[i], &t.layers[i]);
    auto of_op = std::make_shared<std::vector<const dsl::TopologyLayer*>>();
    for (const trace::OpStats& o : ops) {
        const auto it = by_name.find(o.name);
        of_op->push_back(it == by_name.end() ? nullptr : it->second);
    }
    const Layers layers = of_op;
    using L = const LayerCell&;
    auto text = [](auto v) { return std::to_string(v); };
    return {
        column("layer", layers, [](L l) { return trace::csv_field(l.layer.name); }),
        column("line", layers, [=](L l) { return text(l.layer.line); }),
        column("kind", layers, [](L l) { return std::string(l.layer.gemm ? "gemm" : "conv"); }),
        column("M", layers, [=](L l) { return text(l.layer.M); }),
        column("N", layers, [=](L l) { return text(l.layer.N); }),
        column("K", layers, [=](L l) { return text(l.layer.K); }),
        column("rows", layers, [=](L l) { return text(l.cell.config.mac_rows); }),
        column("cols", layers, [=](L l) { return text(l.cell.config.mac_cols); }),
        column("dataflow", layers, [](L l) { return std::string(arch::dataflow_name(l.cell.config.cube_dataflow)); }),
        column("arrays", layers, [=](L l) { return text(l.arrays()); }),
        systolic("folds", layers, [=](L l) { return text(l.figures().folds); }),
        systolic("total_cycles", layers, [=](L l) { return text(l.total()); }),
        systolic("stall_cycles", layers,
                 [=](L l) {
                     const uint64_t cycles = l.cell.op.cycles();
                     return l.arrays() == 1 ? text(cycles > l.total() ? cycles - l.total() : 0) : std::string();
                 }),
        systolic("overall_util", layers,
                 [](L l) { return l.total() ? number(l.figures().overall_util(l.total())) : std::string(); }),
        systolic("mapping_efficiency", layers, [](L l) { return number(l.figures().mapping_efficiency); }),
        systolic("compute_util", layers, [](L l) { return number(l.figures().compute_util); }),
    };
}

}  // namespace cli
