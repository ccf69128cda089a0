// --ops-csv end to end, and the report figures item 5 of issue 16 made
// truthful: the compute bound at each MATMUL's precision, cube busy time
// beside MAC utilization, links labelled by the directions they count.
#include <gtest/gtest.h>

#include <map>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

// The cells of a CSV without quoted cells, by column name, row by row.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& text) {
    auto split = [](const std::string& line) {
        std::vector<std::string> f;
        std::istringstream in(line + ",");
        for (std::string cell; std::getline(in, cell, ',');) f.push_back(cell);
        return f;
    };
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);
    const std::vector<std::string> header = split(line);
    std::vector<std::map<std::string, std::string>> rows;
    while (std::getline(lines, line)) {
        const std::vector<std::string> cells = split(line);
        EXPECT_EQ(cells.size(), header.size()) << line;
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
        rows.push_back(row);
    }
    return rows;
}

// README.md's example, run as written: the command after "$ " and the
// indented lines after it, the file's exact text.
TEST(OpsCsvCli, TheReadmeExample) {
    const std::string readme = slurp(std::string(DAVINCI_SOURCE_DIR) + "/README.md");
    const std::string command = "    $ build/davinci-sim -q --ops-csv ops.csv models/gemm_256.pto && cat ops.csv\n";
    const size_t at = readme.find(command);
    ASSERT_NE(at, std::string::npos) << "README.md no longer has the --ops-csv example";
    std::istringstream after(readme.substr(at + command.size()));
    std::string expected, line;
    while (std::getline(after, line) && line.rfind("    ", 0) == 0) expected += line.substr(4) + "\n";
    const std::string csv = (scratch() / "readme_ops.csv").string();
    const Outcome o = run("-q --ops-csv '" + csv + "' models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out, "");
    EXPECT_EQ(slurp(csv), expected) << "README.md's --ops-csv example is stale: paste this in";
}

// x loads 64 KiB: [1, 2 + 2048 + 100) = [1, 2150) (§6), and sets f0. y is
// two exps on vector0, 8 + 1024 cycles each (§8): the first at once,
// [1, 1033); the second waits for f0, [2151, 3183). y's span is 3182
// cycles, 2064 of them running: it stalls 1118, [1033, 2151), the flag
// wait of its second exp, vector0 free and waiting for f0. Energy on
// the documents' machine: x 65,536 B of DDR and of L1 (243,750 + 6,566
// fJ each); y 2 x 32,768 B of vector work (200 fJ each) and 131,072 B of
// L1.
const char* kStall = R"({
  "ops": [{"name": "x", "kind": "load"}, {"name": "y", "kind": "exp", "task": "t", "inputs": [0]}],
  "tags": ["", {"label": "x -> L1", "op": 0}, {"label": "exp y", "op": 1}],
  "blocks": [{"name": "gap", "num_flags": 1, "streams": [
    {"engine": "dma0", "commands": [
      {"op": "dma", "src": "DDR", "dst": "L1", "rows": 1, "row_bytes": 65536, "sets": [0], "tag": 1}]},
    {"engine": "vector0", "commands": [
      {"op": "vector", "vector_op": "exp", "rows": 64, "cols": 256, "src0": 131072, "dst": 163840, "tag": 2},
      {"op": "vector", "vector_op": "exp", "rows": 64, "cols": 256, "src0": 0, "dst": 65536, "waits": [0],
       "tag": 2}]}]}]
})";

TEST(OpsCsvCli, StallCyclesAreTheSpanNoCommandRan) {
    const std::string prog = write_file("stall.json", kStall), csv = (scratch() / "stall_ops.csv").string();
    const Outcome o = run("-q --program-json '" + prog + "' --ops-csv '" + csv + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(slurp(csv),
              "op,kind,task,start,end,cycles,stall_cycles,commands,cube_cycles,vector_cycles,dma_cycles,macs,"
              "mac_utilization,compute_bound_cycles,ddr_bound_cycles,ddr_bytes_read,ddr_bytes_written,l1_bytes_read,"
              "l1_bytes_written,l0_bytes_read,l0_bytes_written,dma_bytes,energy_fj,fusion_group,link_wait_cycles,"
              "flag_wait_cycles,issue_cycles,schema_version\n"
              "x,load,,1,2150,2149,0,1,0,0,2149,0,0.0000,0,2048,65536,0,0,65536,0,0,65536,16404709376,,0,0,0,1\n"
              "y,exp,t,1,3183,3182,1118,2,0,2064,0,0,0.0000,0,0,0,0,65536,65536,0,0,0,873725952,,0,1118,0,1\n");
}

// Summed over the operations, the figures are the run's: every command of
// a compiled program belongs to an operation.
TEST(OpsCsvCli, SummedOverTheOperationsTheyAreTheRunsFigures) {
    for (const char* model : {"models/resnet_block.pto", "models/memory_placement.pto", "models/attention.pto"}) {
        const std::string csv = (scratch() / "sum_ops.csv").string(), rep = (scratch() / "sum_report.json").string();
        const Outcome o = run(std::string("-q --ops-csv '") + csv + "' --report-json '" + rep + "' " + model);
        ASSERT_EQ(o.status, 0) << o.err;
        const nlohmann::json r = testjson::parse(slurp(rep));
        std::map<std::string, uint64_t> sum;
        for (const auto& row : read_csv(slurp(csv)))
            for (const char* column :
                 {"commands", "cube_cycles", "vector_cycles", "dma_cycles", "macs", "ddr_bytes_read",
                  "ddr_bytes_written", "l1_bytes_read", "l1_bytes_written", "l0_bytes_read", "l0_bytes_written",
                  "link_wait_cycles", "flag_wait_cycles", "issue_cycles"})
                sum[column] += std::stoull(row.at(column));
        for (const char* level : {"ddr", "l1", "l0"}) {
            EXPECT_EQ(sum[std::string(level) + "_bytes_read"], r["memory"][level]["read"].get<uint64_t>()) << model;
            EXPECT_EQ(sum[std::string(level) + "_bytes_written"], r["memory"][level]["written"].get<uint64_t>())
                << model;
        }
        std::map<std::string, uint64_t> busy, waits;
        uint64_t commands = 0;
        for (const auto& u : r["units"]) {
            busy[u["kind"].get<std::string>()] += u["busy_cycles"].get<uint64_t>();
            commands += u["commands"].get<uint64_t>();
            for (const char* wait : {"link_wait_cycles", "flag_wait_cycles", "issue_cycles"})
                waits[wait] += u[wait].get<uint64_t>();
        }
        // The cycle accounting of the operations' commands is the units'.
        for (const char* wait : {"link_wait_cycles", "flag_wait_cycles", "issue_cycles"})
            EXPECT_EQ(sum[wait], waits[wait]) << model << " " << wait;
        EXPECT_EQ(sum["commands"], commands) << model;
        EXPECT_EQ(sum["cube_cycles"], busy["cube"]) << model;
        EXPECT_EQ(sum["vector_cycles"], busy["vector"]) << model;
        EXPECT_EQ(sum["dma_cycles"], busy["dma"] + busy["cube_dma"]) << model;
        EXPECT_EQ(sum["macs"], r["macs"].get<uint64_t>()) << model;
    }
}

// 256^3 in float16 and 256^3 in float32: 16,777,216 MACs each, at 256 and
// at 128 MAC/cycle (cube.fp32_passes 2) on 16 cubes of 16 MACs: 65,536 +
// 131,072 cycles.
TEST(OpsCsvCli, TheComputeBoundTakesFloat32AtItsOwnRate) {
    const std::string prog = write_file("mixed_precision.pto",
                                        "import pypto as pypo\n"
                                        "a = pypo.input(\"a\", shape=(256, 256), dtype=\"float16\")\n"
                                        "b = pypo.input(\"b\", shape=(256, 256), dtype=\"float16\")\n"
                                        "a32 = pypo.input(\"a32\", shape=(256, 256), dtype=\"float32\")\n"
                                        "b32 = pypo.input(\"b32\", shape=(256, 256), dtype=\"float32\")\n"
                                        "pypo.output(\"c\", pypo.op.matmul(a, b))\n"
                                        "pypo.output(\"d\", pypo.op.matmul(a32, b32))\n");
    const std::string csv = (scratch() / "mixed_ops.csv").string(), rep = (scratch() / "mixed_report.json").string();
    const Outcome o = run("--ops-csv '" + csv + "' --report-json '" + rep + "' '" + prog + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("\ncompute bound      196,608  (33,554,432 MACs at 256 MAC/cycle, 16,777,216 of them "
                         "float32 at 128 MAC/cycle)\n"),
              std::string::npos)
        << o.out;
    EXPECT_EQ(testjson::parse(slurp(rep))["compute_bound_cycles"].get<uint64_t>(), 196608u);
    const auto rows = read_csv(slurp(csv));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].at("compute_bound_cycles"), "65536");
    EXPECT_EQ(rows[1].at("compute_bound_cycles"), "131072");
}

// One thin MATMUL (m = 1 on 4 MAC rows) on cluster 0's cube 0, started at
// cycle 1: 7 + 1 x 64 x 16 cycles (§7.1), [1, 1032), for 4,096 MACs: busy
// 1031 / 1032 of the run at 4096 / (16 x 1032) = 24.8 % of its peak.
const char* kThinMatmul = R"({"blocks": [{"streams": [{"engine": "cube0", "commands": [
    {"op": "matmul", "m": 1, "k": 64, "n": 64, "a_addr": 0, "b_addr": 4096, "c_addr": 16384}]}]}]})";

TEST(OpsCsvCli, CubeBusySitsBesideMacUtilization) {
    const std::string prog = write_file("thin_matmul.json", kThinMatmul), rep = (scratch() / "thin.json").string();
    const Outcome o = run("--program-json '" + prog + "' --report-json '" + rep + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("\ncube MAC utilization / busy  average   1.6 /   6.2 %\n"
                         "  cluster0    24.8 /  99.9 %    0.0 /   0.0 %    0.0 /   0.0 %    0.0 /   0.0 %\n"
                         "  cluster1     0.0 /   0.0 %    0.0 /   0.0 %    0.0 /   0.0 %    0.0 /   0.0 %\n"),
              std::string::npos)
        << o.out;
    const nlohmann::json r = testjson::parse(slurp(rep));
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 1032u);
    EXPECT_DOUBLE_EQ(r["cube_busy"].get<double>(), 1031.0 / 1032.0 / 16.0);
}

// gemm_256 reads 524,288 DDR bytes and writes 131,072 back: the DDR link's
// figure holds both, and the report says which way each went.
TEST(OpsCsvCli, LinksSayWhichWayTheirBytesWent) {
    const std::string rep = (scratch() / "links.json").string();
    const Outcome o = run("--report-json '" + rep + "' models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("\n  DDR <-> L1       655,360             9.18 B/cyc     32 B/cyc    28.7 %    28.7 %\n"
                         "    DDR -> L1      524,288             7.34 B/cyc\n"
                         "    L1 -> DDR      131,072             1.84 B/cyc\n"
                         "  L1 <-> L0 (x4)   1,179,648          16.52 B/cyc    512 B/cyc     3.2 %     3.2 %\n"
                         "    L1 -> L0       1,048,576          14.68 B/cyc\n"
                         "    L0 -> L1       131,072             1.84 B/cyc\n"
                         "  L0 -> cube (x16) 16,777,216        234.91 B/cyc   8192 B/cyc     2.9 %     2.9 %\n"),
              std::string::npos)
        << o.out;
    const nlohmann::json links = testjson::parse(slurp(rep))["links"];
    ASSERT_EQ(links.size(), 3u);
    EXPECT_EQ(links[0]["label"], "DDR <-> L1");
    EXPECT_EQ(links[0]["directions"], testjson::parse(R"([{"from": "DDR", "to": "L1", "bytes": 524288},
                                                                 {"from": "L1", "to": "DDR", "bytes": 131072}])"));
    EXPECT_EQ(links[2]["label"], "L0 -> cube");
    EXPECT_EQ(links[2]["directions"], testjson::parse(R"([{"from": "L0", "to": "cube", "bytes": 16777216}])"));
    EXPECT_EQ(links[1]["per_instance"][0]["directions"][1]["bytes"].get<uint64_t>(), 131072u / 4);
}

}  // namespace
