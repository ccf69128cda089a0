// SCALE-Sim v2 parity (docs/timing-model.md §7.2): every figure of the
// golden files in tests/golden/scalesim/ (made once by
// scripts/scalesim_golden.py from SCALE-Sim itself; never run here) must
// come out of davinci-sim exactly, on one array of SCALE-Sim's size and
// dataflow (configs/scalesim_32x32_ws.json with --set for the array):
//   * cube cycles = SCALE-Sim's Total - Stall cycles (its stall-free
//     compute), through --topology and through --op;
//   * --ops-csv's scalesim_mapping_efficiency and scalesim_compute_util =
//     SCALE-Sim's, as doubles; its scalesim_overall_util = SCALE-Sim's where
//     SCALE-Sim did not stall (it divides by its total, stalls included).
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

using Row = std::map<std::string, std::string>;

std::vector<Row> read_csv(const std::string& path) {
    std::istringstream lines(slurp(path));
    std::string line;
    std::vector<std::string> header;
    std::vector<Row> rows;
    while (std::getline(lines, line)) {
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
        if (!line.empty() && line.back() == ',') f.push_back("");
        if (header.empty()) {
            header = f;
            continue;
        }
        Row r;
        for (size_t i = 0; i < header.size() && i < f.size(); ++i) r[header[i]] = f[i];
        rows.push_back(r);
    }
    return rows;
}

std::string golden(const std::string& name) {
    return std::string(DAVINCI_SOURCE_DIR) + "/tests/golden/scalesim/" + name;
}

uint64_t u(const Row& r, const char* key) { return std::stoull(r.at(key)); }
double d(const Row& r, const char* key) { return std::strtod(r.at(key).c_str(), nullptr); }

std::string array_options(const Row& r) {
    return "--config configs/scalesim_32x32_ws.json --set cube.dataflow=" + r.at("dataflow") +
           " --set cube.mac_rows=" + r.at("rows") + " --set cube.mac_cols=" + r.at("cols");
}

// The golden row's layer as a SCALE-Sim topology row (trailing comma).
std::string topology_row(const Row& r, const std::string& name) {
    if (r.count("kind") && r.at("kind") == "gemm")
        return name + ", " + r.at("M") + ", " + r.at("N") + ", " + r.at("K") + ",\n";
    std::string row = name;
    for (const char* k : {"ifmap_h", "ifmap_w", "filter_h", "filter_w", "channels", "filters", "stride"})
        row += ", " + r.at(k);
    return row + ",\n";
}

const char* const kConvHeader =
    "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\n";
const char* const kGemmHeader = "Layer Name, M, N, K,\n";

// Runs `rows` (one array, one form) through --topology and checks every
// golden figure of each against its --ops-csv row (the scalesim_* columns). Returns the
// layers that matched in every figure.
size_t check_through_topology(const std::vector<Row>& rows, const std::string& label) {
    const bool gemm = rows.front().count("kind") && rows.front().at("kind") == "gemm";
    std::string text = gemm ? kGemmHeader : kConvHeader;
    for (size_t i = 0; i < rows.size(); ++i) text += topology_row(rows[i], "L" + std::to_string(i));
    const std::string topo = write_file(label + ".csv", text);
    const std::string out = (scratch() / (label + "_report.csv")).string();
    const Outcome o = run("-q " + array_options(rows.front()) + " --topology '" + topo + "' --ops-csv '" + out + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    const std::vector<Row> got = read_csv(out);
    EXPECT_EQ(got.size(), rows.size());
    size_t matched = 0;
    for (size_t i = 0; i < rows.size() && i < got.size(); ++i) {
        const Row& want = rows[i];
        const Row& g = got[i];
        const std::string what = label + " row " + std::to_string(i) + " (" +
                                 (want.count("case") ? want.at("case") : want.at("layer")) + ")";
        const uint64_t stall_free = u(want, "total_cycles") - u(want, "stall_cycles");
        // Overall utilisation divides by the total, which here is stall-free.
        const bool stalled = u(want, "stall_cycles") != 0;
        const bool same = u(g, "cube_cycles") == stall_free && u(g, "scalesim_total_cycles") == stall_free &&
                          d(g, "scalesim_mapping_efficiency") == d(want, "mapping_efficiency") &&
                          d(g, "scalesim_compute_util") == d(want, "compute_util") &&
                          (stalled || d(g, "scalesim_overall_util") == d(want, "overall_util")) &&
                          g.at("scalesim_rows") == want.at("rows") && g.at("scalesim_cols") == want.at("cols") &&
                          g.at("scalesim_dataflow") == want.at("dataflow");
        EXPECT_TRUE(same) << what << ": cube cycles " << g.at("cube_cycles") << " vs " << stall_free
                          << ", mapping efficiency " << g.at("scalesim_mapping_efficiency") << " vs "
                          << want.at("mapping_efficiency") << ", compute util " << g.at("scalesim_compute_util")
                          << " vs " << want.at("compute_util") << ", overall util " << g.at("scalesim_overall_util")
                          << " vs " << want.at("overall_util") << (stalled ? " (SCALE-Sim stalled: not compared)" : "");
        matched += same;
    }
    return matched;
}

// cases.csv, grouped by array, dataflow and form (one topology file each).
std::map<std::string, std::vector<Row>> case_groups() {
    std::map<std::string, std::vector<Row>> groups;
    for (const Row& r : read_csv(golden("cases.csv")))
        groups[r.at("dataflow") + "_" + r.at("rows") + "x" + r.at("cols") + "_" + r.at("kind")].push_back(r);
    return groups;
}

TEST(ScaleSimGolden, EveryCaseThroughTopology) {
    size_t cases = 0, matched = 0;
    for (const auto& [label, rows] : case_groups()) {
        cases += rows.size();
        matched += check_through_topology(rows, label);
    }
    EXPECT_EQ(cases, 70u);  // the golden file has them all
    EXPECT_EQ(matched, cases);
}

// The same cube cycles through --op (matmul M,K,N; conv2d H,W,C,R,S,F,stride).
TEST(ScaleSimGolden, EveryCaseThroughOp) {
    for (const Row& r : read_csv(golden("cases.csv"))) {
        const std::string json = (scratch() / "golden_op.json").string();
        const std::string shape = r.at("kind") == "gemm"
                                      ? "--op matmul --shape " + r.at("M") + "," + r.at("K") + "," + r.at("N")
                                      : "--op conv2d --shape " + r.at("ifmap_h") + "," + r.at("ifmap_w") + "," +
                                            r.at("channels") + "," + r.at("filter_h") + "," + r.at("filter_w") + "," +
                                            r.at("filters") + "," + r.at("stride");
        const Outcome o = run("-q " + array_options(r) + " " + shape + " --report-json '" + json + "'");
        ASSERT_EQ(o.status, 0) << o.err;
        const nlohmann::json j = testjson::parse(slurp(json));
        EXPECT_EQ(j["ops"][0]["cube_cycles"].get<uint64_t>(), u(r, "total_cycles") - u(r, "stall_cycles"))
            << r.at("case") << " " << r.at("rows") << "x" << r.at("cols") << " " << r.at("dataflow");
    }
}

// SCALE-Sim's own topologies/mlperf/Resnet50.csv, every layer, 32x32 os.
TEST(ScaleSimGolden, ResNet50Topology) {
    const std::vector<Row> rows = read_csv(golden("resnet50_32x32_os.csv"));
    ASSERT_EQ(rows.size(), 54u);
    EXPECT_EQ(check_through_topology(rows, "resnet50"), rows.size());
}

}  // namespace
