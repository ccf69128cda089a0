#include "sim/cli/driver/topology_csv.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>

#include "sim/arch/cube_cost.h"

namespace cli {

namespace {

// The shortest text that reads back as the same double (Python's repr, as
// SCALE-Sim prints its figures, up to the exponent's spelling).
std::string number(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
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

std::string topology_csv(const dsl::Topology& t, const arch::Config& c, const trace::RunStats& stats) {
    const std::vector<std::string> names = dsl::topology_op_names(t);
    std::map<std::string, const trace::OpStats*> by_name;
    for (const trace::OpStats& o : stats.ops) by_name[o.name] = &o;
    const int64_t arrays = c.clusters * c.cubes_per_cluster;
    const std::string v = std::to_string(kTopologyCsvSchemaVersion);
    std::string out =
        "layer,line,op,kind,M,N,K,rows,cols,dataflow,arrays,folds,start,end,cycles,cube_cycles,total_cycles,"
        "stall_cycles,overall_util,mapping_efficiency,compute_util,schema_version\n";
    for (size_t i = 0; i < t.layers.size(); ++i) {
        const dsl::TopologyLayer& l = t.layers[i];
        const auto it = by_name.find(names[i]);
        if (it == by_name.end()) throw std::logic_error("--topology-csv: no operation '" + names[i] + "' was run");
        const trace::OpStats& o = *it->second;
        const uint64_t cycles = o.end - o.start;
        out += csv_field(l.name) + "," + std::to_string(l.line) + "," + o.name + "," + (l.gemm ? "gemm" : "conv") +
               "," + std::to_string(l.M) + "," + std::to_string(l.N) + "," + std::to_string(l.K) + "," +
               std::to_string(c.mac_rows) + "," + std::to_string(c.mac_cols) + "," +
               arch::dataflow_name(c.cube_dataflow) + "," + std::to_string(arrays) + ",";
        if (!c.systolic()) {
            out += "," + std::to_string(o.start) + "," + std::to_string(o.end) + "," + std::to_string(cycles) + "," +
                   std::to_string(o.cube_cycles) + ",,,,,," + v + "\n";
            continue;
        }
        const ScaleSimFigures s = scalesim_figures(c, l.M, l.N, l.K);
        const uint64_t total = o.cube_cycles;
        out += std::to_string(s.folds) + "," + std::to_string(o.start) + "," + std::to_string(o.end) + "," +
               std::to_string(cycles) + "," + std::to_string(o.cube_cycles) + "," + std::to_string(total) + "," +
               (arrays == 1 ? std::to_string(cycles > total ? cycles - total : 0) : std::string()) + "," +
               (total ? number(s.overall_util(total)) : std::string()) + "," + number(s.mapping_efficiency) + "," +
               number(s.compute_util) + "," + v + "\n";
    }
    return out;
}

}  // namespace cli
