// --topology FILE.csv (dsl/frontend/topology.h) and the columns it adds to
// --ops-csv FILE (sim/cli/driver/scalesim_columns.h): SCALE-Sim topology
// files, their two forms, their trailing commas, their errors.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

// An 8x8 output-stationary array on one cluster of one cube.
const std::string kArray =
    "--config configs/scalesim_32x32_ws.json --set cube.dataflow=os --set cube.mac_rows=8 --set cube.mac_cols=8";

std::vector<std::map<std::string, std::string>> csv_rows(const std::string& path) {
    std::istringstream lines(slurp(path));
    std::string line;
    std::vector<std::string> header;
    std::vector<std::map<std::string, std::string>> rows;
    while (std::getline(lines, line)) {
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
        if (line.back() == ',') f.push_back("");
        if (header.empty()) {
            header = f;
            continue;
        }
        std::map<std::string, std::string> r;
        for (size_t i = 0; i < header.size() && i < f.size(); ++i) r[header[i]] = f[i];
        rows.push_back(r);
    }
    return rows;
}

// A convolution of a 10x10 input of 2 channels, five 3x3 filters, stride 2:
// SCALE-Sim's ceil((10 - 3 + 2) / 2) = 5 output rows and columns (a
// program's conv2d rounds down: 4), so M = 25, N = 5, K = 18. On 8x8 os:
// (Sr, Sc, T) = (25, 5, 18), 4 x 1 folds of 18 + 8 + 8 - 2 = 32 cycles:
// 4 * 32 - 1 = 127. Used MACs per fold 40, 40, 40, 5 of 64: mapping
// efficiency (3 * 0.625 + 0.078125) / 4 = 48.828125 %; compute
// utilisation per fold used * 18 / (64 * 32), averaged: 27.4658203125 %;
// overall 25 * 5 * 18 * 100 / (127 * 64).
// The second row, without SCALE-Sim's trailing comma and with a stride
// width: 9x12 input, 3x3 filters, 1 channel, 4 filters, strides 1 and 3:
// 7 x ceil((12 - 3 + 3) / 3) = 7 x 4 = 28 pixels, K = 9: folds 4 x 1,
// 4 * (9 + 14) - 1 = 91.
TEST(Topology, ConvolutionsWithScaleSimConventions) {
    const std::string topo = write_file(
        "conv_topo.csv",
        "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\n"
        "\n"
        "c1, 10, 10, 3, 3, 2, 5, 2,\r\n"
        "c 2,9,12,3,3,1,4,1,3\n");
    const std::string out = (scratch() / "conv_topo_report.csv").string();
    const std::string json = (scratch() / "conv_topo.json").string();
    const Outcome o =
        run("-q " + kArray + " --topology '" + topo + "' --ops-csv '" + out + "' --report-json '" + json + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    const auto rows = csv_rows(out);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].at("scalesim_layer"), "c1");
    EXPECT_EQ(rows[0].at("scalesim_line"), "3");
    EXPECT_EQ(rows[0].at("scalesim_kind"), "conv");
    EXPECT_EQ(rows[0].at("scalesim_M"), "25");
    EXPECT_EQ(rows[0].at("scalesim_N"), "5");
    EXPECT_EQ(rows[0].at("scalesim_K"), "18");
    EXPECT_EQ(rows[0].at("scalesim_folds"), "4");
    EXPECT_EQ(rows[0].at("cube_cycles"), "127");
    EXPECT_EQ(rows[0].at("scalesim_total_cycles"), "127");
    EXPECT_EQ(std::stod(rows[0].at("scalesim_mapping_efficiency")), 48.828125);
    EXPECT_EQ(std::stod(rows[0].at("scalesim_compute_util")), 27.4658203125);
    EXPECT_EQ(std::stod(rows[0].at("scalesim_overall_util")), double(25 * 5 * 18 * 100) / double(127 * 64));
    // The stalls: the layer's cycles, less its cube cycles.
    EXPECT_EQ(std::stoull(rows[0].at("scalesim_stall_cycles")),
              std::stoull(rows[0].at("cycles")) - std::stoull(rows[0].at("cube_cycles")));
    EXPECT_EQ(rows[1].at("scalesim_layer"), "c 2");
    EXPECT_EQ(rows[1].at("op"), "c_2");
    EXPECT_EQ(rows[1].at("scalesim_M"), "28");
    EXPECT_EQ(rows[1].at("cube_cycles"), "91");
    EXPECT_EQ(rows[1].at("schema_version"), "1");
    const nlohmann::json r = testjson::parse(slurp(json));
    ASSERT_EQ(r["ops"].size(), 2u);
    EXPECT_EQ(r["ops"][0]["name"], "c1");
    EXPECT_EQ(r["ops"][0]["cube_cycles"].get<uint64_t>(), 127u);
}

// The GEMM form (M, N, K): 7x11 @ 11x9 on 8x8 os: (Sr, Sc, T) = (7, 9, 11),
// 1 x 2 folds of 11 + 14: 2 * 25 - 1 = 49. A repeated name gets "_2".
TEST(Topology, Gemms) {
    const std::string topo = write_file("gemm_topo.csv", "Layer Name, M, N, K,\ng, 7, 9, 11,\ng, 8, 8, 8,\n");
    const std::string out = (scratch() / "gemm_topo_report.csv").string();
    const Outcome o = run("-q " + kArray + " --topology '" + topo + "' --ops-csv '" + out + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    const auto rows = csv_rows(out);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].at("scalesim_kind"), "gemm");
    EXPECT_EQ(rows[0].at("cube_cycles"), "49");
    EXPECT_EQ(rows[1].at("op"), "g_2");
    EXPECT_EQ(rows[1].at("cube_cycles"), "21");  // one fold: 8 + 14 - 1
}

// Lines end at "\n", "\r\n" or a bare "\r" (dsl/support/line_breaks.h), so
// an old Mac-style file reads as the same two layers, and an error names
// the line an editor shows.
TEST(Topology, BareCarriageReturnsEndLines) {
    for (const char* eol : {"\r", "\r\n"}) {
        const std::string e = eol;
        const std::string topo =
            write_file("cr_topo.csv", "Layer Name, M, N, K," + e + "g, 7, 9, 11," + e + "g, 8, 8, 8," + e);
        const std::string out = (scratch() / "cr_topo_report.csv").string();
        const Outcome o = run("-q " + kArray + " --topology '" + topo + "' --ops-csv '" + out + "'");
        ASSERT_EQ(o.status, 0) << o.err;
        const auto rows = csv_rows(out);
        ASSERT_EQ(rows.size(), 2u);
        EXPECT_EQ(rows[0].at("cube_cycles"), "49");
        EXPECT_EQ(rows[1].at("cube_cycles"), "21");
    }
    const std::string bad = write_file("cr_bad_topo.csv", "Layer Name, M, N, K,\rg, 7, 9, 11,\rg, 8, 8,\r");
    const Outcome o = run("-q " + kArray + " --topology '" + bad + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.substr(0, o.err.find(": expected")), "davinci-sim: error: " + bad + ":3");
}

// With --topology the ops CSV is the ops CSV of any run, the layer's
// scalesim_* columns added before schema_version; without it, none.
TEST(Topology, OpsCsvGainsScaleSimColumnsBeforeSchemaVersion) {
    const std::string common =
        "op,kind,task,start,end,cycles,stall_cycles,commands,cube_cycles,vector_cycles,dma_cycles,macs,"
        "mac_utilization,compute_bound_cycles,ddr_bound_cycles,ddr_bytes_read,ddr_bytes_written,l1_bytes_read,"
        "l1_bytes_written,l0_bytes_read,l0_bytes_written,dma_bytes,energy_fj,fusion_group,link_wait_cycles,flag_wait_"
        "cycles,issue_cycles";
    const std::string topo = write_file("header_topo.csv", "Layer Name, M, N, K,\ng, 7, 9, 11,\n");
    const std::string out = (scratch() / "header_topo_report.csv").string();
    Outcome o = run("-q " + kArray + " --topology '" + topo + "' --ops-csv '" + out + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    std::string text = slurp(out);
    EXPECT_EQ(text.substr(0, text.find('\n')),
              common +
                  ",scalesim_layer,scalesim_line,scalesim_kind,scalesim_M,scalesim_N,scalesim_K,scalesim_rows,"
                  "scalesim_cols,scalesim_dataflow,scalesim_arrays,scalesim_folds,scalesim_total_cycles,"
                  "scalesim_stall_cycles,scalesim_overall_util,scalesim_mapping_efficiency,scalesim_compute_util,"
                  "schema_version");
    // The same layer as --op: the same ops CSV, without the scalesim_* columns.
    o = run("-q " + kArray + " --op matmul --shape 7,11,9 --ops-csv '" + out + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    text = slurp(out);
    EXPECT_EQ(text.substr(0, text.find('\n')), common + ",schema_version");
}

// SCALE-Sim does not model the fractal cube: the layer is there, its
// figures are empty.
TEST(Topology, NoScaleSimFiguresOnTheFractalCube) {
    const std::string topo = write_file("fractal_topo.csv", "Layer Name, M, N, K,\ng, 7, 9, 11,\n");
    const std::string out = (scratch() / "fractal_topo_report.csv").string();
    const Outcome o = run("-q --topology '" + topo + "' --ops-csv '" + out + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    const auto rows = csv_rows(out);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].at("scalesim_layer"), "g");
    EXPECT_EQ(rows[0].at("scalesim_dataflow"), "fractal");
    EXPECT_EQ(rows[0].at("scalesim_arrays"), "16");
    for (const char* k : {"scalesim_folds", "scalesim_total_cycles", "scalesim_stall_cycles", "scalesim_overall_util",
                          "scalesim_mapping_efficiency", "scalesim_compute_util"})
        EXPECT_EQ(rows[0].at(k), "") << k;
    EXPECT_NE(rows[0].at("cube_cycles"), "0");
    EXPECT_EQ(rows[0].at("schema_version"), "1");
}

// A depthwise layer ("DP" in its name) is one single-channel layer per
// channel, as SCALE-Sim splits it.
TEST(Topology, DepthwiseLayersSplitPerChannel) {
    const std::string topo =
        write_file("dp_topo.csv", "Layer name, H, W, R, S, C, F, stride,\nDP1, 6, 6, 3, 3, 3, 1, 1,\n");
    const std::string out = (scratch() / "dp_report.csv").string();
    const Outcome o = run("-q " + kArray + " --topology '" + topo + "' --ops-csv '" + out + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    const auto rows = csv_rows(out);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[2].at("scalesim_layer"), "DP1Channel_2");
    EXPECT_EQ(rows[2].at("scalesim_K"), "9");
}

struct BadFile {
    const char* name;
    const char* text;
    const char* error;  // after "davinci-sim: error: <path>"
};

const BadFile kBadFiles[] = {
    {"short_conv", "Layer name, H, W, R, S, C, F, stride,\nc1, 10, 10, 3, 3, 2, 5,\n",
     ":2: expected 8 fields (layer name, IFMAP height, IFMAP width, filter height, filter width, channels, filters, "
     "stride) or 9 (and a stride width), got 7"},
    {"long_gemm", "Layer Name, M, N, K,\ng, 1, 2, 3, 4,\n", ":2: expected 4 fields (layer name, M, N, K), got 5"},
    {"not_a_number", "Layer Name, M, N, K,\ng, 1, x, 3,\n", ":2: N must be a positive integer, got 'x'"},
    {"zero", "Layer name, H, W, R, S, C, F, stride,\n\nc, 10, 10, 3, 3, 0, 5, 1,\n",
     ":3: channels must be a positive integer, got '0'"},
    {"no_name", "Layer Name, M, N, K,\n, 1, 2, 3,\n", ":2: the layer has no name"},
    {"filter_too_big", "Layer name, H, W, R, S, C, F, stride,\nc, 3, 3, 5, 3, 1, 1, 1,\n",
     ":2: the 5x3 filter is larger than the 3x3 input"},
    {"too_many_depthwise_channels",
     "Layer name, H, W, R, S, C, F, stride,\nc, 8, 8, 3, 3, 4, 4, 1,\nDP1, 8, 8, 3, 3, 65536, 1, 1,\n",
     ":3: too many layers: a topology holds at most 65536 (a depthwise layer counts one per channel), and this line "
     "brings the count to 65537"},
    {"empty", "\n\n", ": empty: expected a header line, then one layer per line"},
    {"header_only", "Layer Name, M, N, K,\n", ": no layers after the header line"},
};

class TopologyErrors : public testing::TestWithParam<BadFile> {};

TEST_P(TopologyErrors, FileAndLineExitTwo) {
    const std::string topo = write_file(std::string(GetParam().name) + ".csv", GetParam().text);
    const Outcome o = run("-q --topology '" + topo + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: " + topo + GetParam().error + "\n");
}

INSTANTIATE_TEST_SUITE_P(Files, TopologyErrors, testing::ValuesIn(kBadFiles),
                         [](const testing::TestParamInfo<BadFile>& i) { return std::string(i.param.name); });

TEST(Topology, CommandLineErrors) {
    Outcome o = run("-q --topology no/such/file.csv");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: no/such/file.csv: cannot read the topology file\n");
    // Folded into --ops-csv (its columns renamed scalesim_*): an old script stops here, with or without --topology.
    for (const char* rest : {"--topology x.csv", "models/gemm_256.pto"}) {
        o = run(std::string("-q --topology-csv /tmp/x.csv ") + rest);
        EXPECT_EQ(o.status, 2);
        EXPECT_EQ(o.err.substr(0, o.err.find('\n')),
                  "davinci-sim: error: --topology-csv was replaced by --ops-csv: with --topology its rows (one per "
                  "layer) have SCALE-Sim's columns, renamed scalesim_* (scalesim_total_cycles, scalesim_stall_cycles, "
                  "...)");
    }
    o = run("-q --topology x.csv --op matmul --shape 1,1,1");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.substr(0, o.err.find('\n')), "davinci-sim: error: --topology takes the place of --op");
    o = run("-q --topology x.csv models/gemm_256.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.substr(0, o.err.find('\n')), "davinci-sim: error: --topology takes the place of a program");
}

// The README's example: AlexNet's five convolutions on SCALE-Sim's 32x32 os
// array, each layer's cube cycles SCALE-Sim's stall-free figure (folds *
// (T + 62) - 1: conv1 3025 pixels x 96 filters x K 363 is 95 * 3 folds of
// 425: 121,124).
TEST(Topology, ReadmeExample) {
    const std::string topo = write_file("alexnet.csv",
                                        "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, "
                                        "Channels, Num Filter, Strides,\n"
                                        "Conv1     ,224         ,224        ,11           ,11          ,3       "
                                        ",96        ,4      ,\n"
                                        "Conv2     ,27         ,27        ,5            ,5           ,96      ,256  "
                                        "     ,1      ,\n");
    const std::string out = (scratch() / "alexnet_report.csv").string();
    const Outcome o = run("-q --config configs/scalesim_32x32_ws.json --set cube.dataflow=os --topology '" + topo +
                          "' --ops-csv '" + out + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    const auto rows = csv_rows(out);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].at("scalesim_M"), "3025");
    EXPECT_EQ(rows[0].at("cube_cycles"), "121124");
    EXPECT_EQ(rows[1].at("cube_cycles"), "334831");  // 17 * 8 folds of 2400 + 62: 136 * 2462 - 1
}

}  // namespace
