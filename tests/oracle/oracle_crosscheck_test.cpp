// The oracle against the SystemC model: compile a .pto program with the
// front end, run the oracle on the lowered program, run the real davinci-sim
// binary with --timing-csv, and require every command's (start, end) to be
// identical, and every engine's cycle accounting (--summary-csv) and every
// DMA command's link wait. On a mismatch the first differing commands are printed; decide
// from docs/timing-model.md which side is wrong.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "dsl/frontend/frontend.h"
#include "dsl/lower/program/lower.h"
#include "sim/arch/config.h"
#include "tests/oracle/compare_accounting.h"
#include "tests/oracle/compare_l2.h"
#include "tests/oracle/model_csv.h"
#include "tests/oracle/oracle.h"
#include "tests/support/json_parse.h"

namespace {

using oracle_test::TempDir;
using Key = oracle_test::CsvKey;
using Row = oracle_test::CsvRow;

// Runs both and compares. `config_json` empty = the built-in default;
// `shapes` binds the program's open dimensions (--shape).
void cross_check(const std::string& program_path, const std::string& config_json = "",
                 const std::map<std::string, std::vector<int64_t>>& shapes = {}) {
    TempDir dir;
    std::string config_path;
    arch::Config config = arch::default_config();
    if (!config_json.empty()) {
        config_path = dir.file("config.json", config_json);
        config = arch::load_config_file(config_path);
    }

    arch::Program program;
    try {
        dsl::TaskGraph g = dsl::elaborate_file(program_path, shapes);
        g.vector_buffers = config.vector_buffer();  // as the driver tells the passes (sim/cli/driver/compile.cpp)
        program = dsl::lower(dsl::run_graph_passes(g), config, program_path);
    } catch (const std::exception& e) {
        FAIL() << "front end failed on " << program_path << ":\n" << e.what();
    }
    auto t0 = std::chrono::steady_clock::now();
    oracle::Result want = oracle::run(program, config);
    double oracle_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    std::string csv = dir.path("timing.csv"), report = dir.path("report.json"), summary = dir.path("summary.csv");
    std::string shape_args;
    for (const auto& [name, dims] : shapes) {
        shape_args += " --shape " + name + "=";
        for (size_t i = 0; i < dims.size(); ++i) shape_args += (i ? "," : "") + std::to_string(dims[i]);
    }
    std::string cmd = std::string("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 '") + DAVINCI_SIM_BINARY + "'" +
                      (config_path.empty() ? "" : " --config '" + config_path + "'") + shape_args + " '" +
                      program_path + "' --quiet --timing-csv '" + csv + "' --report-json '" + report +
                      "' --summary-csv '" + summary + "'";
    int rc = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 0) << "failed: " << cmd;
    std::map<Key, Row> got = oracle_test::parse_timing_csv(oracle_test::read_text(csv));
    uint64_t model_total = testjson::parse(oracle_test::read_text(report)).at("total_cycles").get<uint64_t>();

    std::ostringstream diffs;
    size_t mismatches = 0;
    for (const oracle::Timing& t : want.commands) {
        Key k{t.block, arch::engine_name(t.engine), t.index};
        auto it = got.find(k);
        std::string what = "block " + std::to_string(t.block) + " " + std::get<1>(k) + " #" + std::to_string(t.index);
        if (it == got.end()) {
            if (mismatches++ < 8) diffs << "  " << what << ": missing from the model's CSV\n";
            continue;
        }
        const Row& r = it->second;
        if (r.start != t.start || r.end != t.end || r.cluster != t.cluster) {
            if (mismatches++ < 8)
                diffs << "  " << what << ": oracle cluster " << t.cluster << " [" << t.start << ", " << t.end
                      << "), model cluster " << r.cluster << " [" << r.start << ", " << r.end << ")\n";
        }
    }
    EXPECT_EQ(got.size(), want.commands.size()) << "command count differs";
    EXPECT_EQ(mismatches, 0u) << mismatches << " of " << want.commands.size() << " commands differ; first ones:\n"
                              << diffs.str();
    EXPECT_EQ(model_total, want.total_cycles) << "total cycles";
    EXPECT_EQ(
        oracle_test::compare_accounting(want, oracle_test::parse_summary_csv(oracle_test::read_text(summary)), got), "")
        << "cycle accounting";
    if (want.l2) {
        EXPECT_EQ(oracle_test::compare_l2(*want.l2, testjson::parse(oracle_test::read_text(report)), config), "")
            << "L2 figures";
    }
    std::cout << "  " << want.commands.size() << " commands, " << want.total_cycles << " cycles, oracle " << oracle_s
              << " s\n";
}

// `relative` (to the source tree) on the default hardware and with two
// vector units and three DMA engines per cluster (stores on their own
// engine, vector work split).
void cross_check_two_configs(const std::string& relative) {
    for (const char* config : {"", R"({"cluster": {"vector_units": 2, "dma_engines": 3}})"})
        cross_check(std::string(DAVINCI_SOURCE_DIR) + "/" + relative, config);
}

std::string model(const std::string& name) { return std::string(DAVINCI_SOURCE_DIR) + "/models/" + name; }

std::string gemm_source(int m, int k, int n, const std::string& dtype, const std::string& extra = "") {
    return "import pypto as pypo\n" + extra + "M = " + std::to_string(m) + "\nK = " + std::to_string(k) +
           "\nN = " + std::to_string(n) + "\na = pypo.input(\"a\", shape=(M, K), dtype=\"" + dtype +
           "\")\nb = pypo.input(\"b\", shape=(K, N), dtype=\"" + dtype +
           "\")\nc = pypo.op.matmul(a, b)\npypo.output(\"c\", c)\n";
}

TEST(OracleCrossCheck, Gemm256DefaultConfig) { cross_check(model("gemm_256.pto")); }

TEST(OracleCrossCheck, Gemm256TwoDmaEngines) {
    cross_check(model("gemm_256.pto"), R"({"cluster": {"dma_engines": 2}})");
}

TEST(OracleCrossCheck, Gemm256ThreeClusters) { cross_check(model("gemm_256.pto"), R"({"chip": {"clusters": 3}})"); }

TEST(OracleCrossCheck, Gemm256OddBurstNoLatencies) {
    cross_check(model("gemm_256.pto"),
                R"({"ddr": {"burst_bytes": 48, "latency_cycles": 0}, "sync": {"flag_latency_cycles": 0}})");
}

TEST(OracleCrossCheck, Gemm256TwoCubesSmallL1Bursts) {
    cross_check(model("gemm_256.pto"), R"({"cluster": {"cubes": 2, "l1_burst_bytes": 64}})");
}

TEST(OracleCrossCheck, Gemm256OperandLinkBound) {
    cross_check(model("gemm_256.pto"), R"({"cube": {"fp32_passes": 3, "l0_bytes_per_cycle": 8}})");
}

// The lowerings that tile what does not fit L1 in one unit (multi-pass
// rows, column blocks, staged reductions, tiled and multi-swap
// transposes, gathered broadcasts, banded upsample): only existing
// commands, which the oracle must time exactly as the model does.
TEST(OracleCrossCheck, TiledVectorLowerings) {
    cross_check(std::string(DAVINCI_SOURCE_DIR) + "/tests/functional/walls.pto");
}

// Vector fusion groups (docs/timing-model.md §10 "Fusion"): element-wise
// and pooling heads whose chains run in place on their chunks, and row
// groups (a row reduction and the row-wise operations after it, results
// stored from the group where others read them).
TEST(OracleCrossCheck, VectorFusionChains) {
    cross_check(std::string(DAVINCI_SOURCE_DIR) + "/tests/functional/vector_chains.pto");
    cross_check(std::string(DAVINCI_SOURCE_DIR) + "/tests/cli/mbv1_block.pto");
    cross_check(std::string(DAVINCI_SOURCE_DIR) + "/tests/functional/row_groups.pto");
}

// The vector unit's minimum (a command of its own), clip (maximum and
// minimum with immediates), rms_norm and swiglu, alone, in vector chains
// and in cube epilogues, on the default hardware and with two vector
// units and three DMA engines per cluster.
TEST(OracleCrossCheck, MinimumClipRmsNormSwiglu) {
    for (const char* config : {"", R"({"cluster": {"vector_units": 2, "dma_engines": 3}})"}) {
        cross_check(std::string(DAVINCI_SOURCE_DIR) + "/tests/functional/clip_minimum.pto", config);
        cross_check(std::string(DAVINCI_SOURCE_DIR) + "/tests/functional/rms_norm_swiglu.pto", config);
    }
}

// conv2d(groups=, bias=): depthwise convolutions as weighted window taps
// (each a MUL of a window view by resident weights read broadcast, an ADD),
// NCHW and NHWC, with a cast and vector chains after them, and a bias as a
// GEMM epilogue's column vector; the MobileNet-v2 block; on the default
// hardware and with two vector units and three DMA engines per cluster.
TEST(OracleCrossCheck, DepthwiseConvAndBias) {
    for (const char* config : {"", R"({"cluster": {"vector_units": 2, "dma_engines": 3}})"}) {
        cross_check(std::string(DAVINCI_SOURCE_DIR) + "/tests/functional/depthwise_conv.pto", config);
        cross_check(std::string(DAVINCI_SOURCE_DIR) + "/tests/cli/mbv1_depthwise.pto", config);
    }
}

// rope: the prologue's copy and negation of sin and the chunks' strided
// views (broadcast tables, the swapped halves), with leading axes, a
// promoted float32 x and a one-position decode step, on the default
// hardware and with two vector units and three DMA engines per cluster.
TEST(OracleCrossCheck, Rope) { cross_check_two_configs("tests/functional/rope.pto"); }

// causal_mask: a copy per chunk and a fill of -inf per row's masked tail
// (rows of every length, none for rows with nothing masked), on the
// default hardware and with two vector units and three DMA engines.
TEST(OracleCrossCheck, CausalMask) { cross_check_two_configs("tests/functional/causal_mask.pto"); }

// quantize and dequantize: casts on arrival, a division and a cast to
// int8 per chunk, a multiply by a resident scale read per column, a
// dequantised weight before a matmul (existing commands only), on the
// default hardware and with two vector units and three DMA engines.
TEST(OracleCrossCheck, QuantizeDequantize) { cross_check_two_configs("tests/functional/quantize.pto"); }

// where: one select per chunk with a streamed, a resident per-row and a
// widened (float16 -> float32) condition, on the default hardware and with
// two vector units and three DMA engines.
TEST(OracleCrossCheck, Where) { cross_check_two_configs("tests/functional/where.pto"); }

TEST(OracleCrossCheck, NonAlignedGemm) {
    TempDir dir;
    cross_check(dir.file("gemm_200x72x136.pto", gemm_source(200, 72, 136, "float16")));
}

// GEMVs on the 1 x 4 grid of cubes (all four on N) and, with one column
// of output, on 4 x 1 (issue 17): edge blocks included, at a DDR fast
// enough for the cubes to matter.
TEST(OracleCrossCheck, GemvOnEveryCube) {
    TempDir dir;
    cross_check(dir.file("gemv.pto", gemm_source(1, 512, 1000, "float16")), R"({"ddr": {"bytes_per_cycle": 128}})");
    cross_check(dir.file("gemv_t.pto", gemm_source(300, 256, 1, "float16")), R"({"ddr": {"bytes_per_cycle": 128}})");
}

TEST(OracleCrossCheck, Float32Gemm) {
    TempDir dir;
    cross_check(dir.file("gemm_f32.pto", gemm_source(192, 160, 128, "float32")));
}

TEST(OracleCrossCheck, Float32GemmFewerPasses) {
    TempDir dir;
    cross_check(dir.file("gemm_f32.pto", gemm_source(192, 160, 128, "float32")),
                R"({"cube": {"fp32_passes": 3, "l0_bytes_per_cycle": 8}})");
}

// d = matmul(matmul(a, b), e): the second matmul's blocks depend on the first's.
TEST(OracleCrossCheck, ChainedMatmulsWithBlockDeps) {
    TempDir dir;
    std::string src =
        "import pypto as pypo\n"
        "M = 256\nK = 128\nN = 192\nP = 64\n"
        "a = pypo.input(\"a\", shape=(M, K), dtype=\"float16\")\n"
        "b = pypo.input(\"b\", shape=(K, N), dtype=\"float16\")\n"
        "e = pypo.input(\"e\", shape=(N, P), dtype=\"float16\")\n"
        "d = pypo.op.matmul(pypo.op.matmul(a, b), e)\n"
        "pypo.output(\"d\", d)\n";
    cross_check(dir.file("chain.pto", src));
}

TEST(OracleCrossCheck, MaxParallel2) {
    TempDir dir;
    cross_check(dir.file("gemm_mp2.pto", gemm_source(256, 256, 256, "float16", "pypo.config.MAX_PARALLEL = 2\n")));
}

TEST(OracleCrossCheck, MaxParallel2DispatchCycles3) {
    TempDir dir;
    cross_check(dir.file("gemm_mp2.pto", gemm_source(256, 256, 256, "float16", "pypo.config.MAX_PARALLEL = 2\n")),
                R"({"chip": {"dispatch_cycles": 3}})");
}

// MAX_PARALLEL above chip.clusters: two and three blocks per cluster, each
// in its share of L1 and L0, sharing the engines (timing model §4, §5).
TEST(OracleCrossCheck, MaxParallelAboveTheClusters) {
    TempDir dir;
    cross_check(dir.file("gemm_mp8.pto", gemm_source(256, 256, 256, "float16", "pypo.config.MAX_PARALLEL = 8\n")));
    cross_check(dir.file("gemm_mp7.pto", gemm_source(200, 72, 136, "float16", "pypo.config.MAX_PARALLEL = 7\n")),
                R"({"chip": {"clusters": 3, "dispatch_cycles": 2}})");
    // The residual block (convolutions, batch norm, vector streams) with
    // three blocks per cluster on two clusters.
    std::ifstream in(model("resnet_block.pto"));
    std::string src((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string import = "import pypto as pypo\n";
    ASSERT_NE(src.find(import), std::string::npos);
    src.insert(src.find(import) + import.size(), "pypo.config.MAX_PARALLEL = 6\n");
    cross_check(dir.file("resnet_block_mp6.pto", src), R"({"chip": {"clusters": 2}})");
}

// pypo.config.BUFFERS = 1 and 3: single- and triple-buffered L1 panels and
// L0 tiles (a matmul with edge blocks and a multi-step K), and the vector
// streams at the same depths (below), on one and on two DMA engines.
TEST(OracleCrossCheck, Buffers1And3Gemm) {
    TempDir dir;
    for (int b : {1, 3}) {
        const std::string extra = "pypo.config.BUFFERS = " + std::to_string(b) + "\n";
        cross_check(dir.file("gemm_b" + std::to_string(b) + ".pto", gemm_source(200, 1024, 136, "float16", extra)));
        cross_check(
            dir.file("gemm_b" + std::to_string(b) + "_dma.pto", gemm_source(128, 2048, 128, "float16", extra)),
            R"({"chip": {"clusters": 1}, "cube": {"mac_rows": 16, "mac_cols": 16}, "ddr": {"bytes_per_cycle": 8}})");
    }
}

// Corners of the spec on small programs: W not dividing S, zero latencies,
// slow flags, no pipeline, one cluster, three DMA engines, wide L1 port.
struct Stress {
    const char* name;
    const char* config;
};
class OracleStress : public testing::TestWithParam<Stress> {};

const char* kChainSource =
    "import pypto as pypo\n"
    "pypo.config.MAX_PARALLEL = 3\n"
    "a = pypo.input(\"a\", shape=(136, 200), dtype=\"float16\")\n"
    "b = pypo.input(\"b\", shape=(200, 72), dtype=\"float16\")\n"
    "e = pypo.input(\"e\", shape=(72, 168), dtype=\"float16\")\n"
    "d = pypo.op.matmul(pypo.op.matmul(a, b), e)\n"
    "pypo.output(\"d\", d)\n";

TEST_P(OracleStress, NonAlignedGemm) {
    TempDir dir;
    cross_check(dir.file("gemm.pto", gemm_source(200, 72, 136, "float16")), GetParam().config);
}

TEST_P(OracleStress, ChainMaxParallel3) {
    TempDir dir;
    cross_check(dir.file("chain.pto", kChainSource), GetParam().config);
}

INSTANTIATE_TEST_SUITE_P(
    Configs, OracleStress,
    testing::Values(
        Stress{"default", "{}"},
        Stress{"ddr_w24", R"({"ddr": {"bytes_per_cycle": 24, "burst_bytes": 64, "latency_cycles": 3}})"},
        Stress{"ddr_w_gt_s", R"({"ddr": {"bytes_per_cycle": 128, "burst_bytes": 32, "latency_cycles": 0}})"},
        Stress{"zero_latencies", R"({"ddr": {"latency_cycles": 0}, "cluster": {"l1_latency_cycles": 0},
                                     "sync": {"flag_latency_cycles": 0}, "cube": {"pipeline_cycles": 0}})"},
        Stress{"slow_flags_dispatch", R"({"sync": {"flag_latency_cycles": 37}, "chip": {"dispatch_cycles": 11}})"},
        Stress{"one_cluster", R"({"chip": {"clusters": 1}})"},
        Stress{"three_dma_engines", R"({"cluster": {"dma_engines": 3}, "chip": {"clusters": 2}})"},
        Stress{"narrow_l1", R"({"cluster": {"l1_bytes_per_cycle": 16, "l1_burst_bytes": 40, "l1_latency_cycles": 9}})"},
        Stress{"eight_cubes", R"({"cluster": {"cubes": 8, "l1_kib": 512}, "chip": {"clusters": 2}})"},
        Stress{"big_mac", R"({"cube": {"mac_rows": 16, "mac_cols": 8, "fp32_passes": 4, "l0_bytes_per_cycle": 64}})"},
        Stress{"fractal_k16", R"({"cube": {"mac_rows": 16, "mac_cols": 16, "k_per_cycle": 16}})"},
        Stress{"systolic_os", R"({"cube": {"dataflow": "os", "mac_rows": 8, "mac_cols": 4}})"},
        Stress{"systolic_ws",
               R"({"cube": {"dataflow": "ws", "mac_rows": 8, "mac_cols": 8, "l0_bytes_per_cycle": 16}})"},
        Stress{"systolic_is", R"({"cube": {"dataflow": "is", "mac_rows": 4, "mac_cols": 8}})"}),
    [](const testing::TestParamInfo<Stress>& i) { return std::string(i.param.name); });

// The convolution and data-movement lowerings (dsl/lower/gemm/lower_conv.h,
// dsl/lower/movement/lower_data_movement.h): im2col loads, transposed weight panels,
// batched GEMMs, in-flight transposes and shuffles, each timed by its bytes.
const char* kConvSource =
    "import pypto as pypo\n"
    "x = pypo.input(\"x\", shape=(2, 16, 20, 20), dtype=\"float16\")\n"
    "w = pypo.weight(\"w\", shape=(24, 16, 3, 3), dtype=\"float16\")\n"
    "v = pypo.weight(\"v\", shape=(8, 24, 1, 1), dtype=\"float16\")\n"
    "y = pypo.op.conv2d(pypo.op.conv2d(x, w, padding=1), v, stride=2)\n"
    "pypo.output(\"y\", y)\n";

TEST(OracleCrossCheck, Conv2dChain) {
    TempDir dir;
    cross_check(dir.file("conv.pto", kConvSource));
}

TEST(OracleCrossCheck, Conv2dSmallL0TwoDmaEngines) {
    TempDir dir;
    cross_check(dir.file("conv.pto", kConvSource), R"({"cube": {"l0_kib": 4}, "cluster": {"dma_engines": 2}})");
}

// Fusion groups (dsl/passes/pass_fusion.h): conv2d -> format_convert ->
// batch_norm -> add (a streamed NCHW operand) -> relu, and a batched
// matmul -> mul by a number -> add (streamed row-major) -> tanh, their
// epilogues on the vector units between the write-back and the store.
const char* kFusedSource =
    "import pypto as pypo\n"
    "x = pypo.input(\"x\", shape=(2, 16, 20, 20), dtype=\"float16\")\n"
    "r = pypo.input(\"r\", shape=(2, 24, 20, 20), dtype=\"float16\")\n"
    "w = pypo.weight(\"w\", shape=(24, 16, 3, 3), dtype=\"float16\")\n"
    "y = pypo.op.relu(pypo.op.add(pypo.op.batch_norm(pypo.op.conv2d(x, w, padding=1)), r))\n"
    "q = pypo.input(\"q\", shape=(3, 72, 64), dtype=\"float16\")\n"
    "k = pypo.input(\"k\", shape=(64, 40), dtype=\"float16\")\n"
    "b = pypo.input(\"b\", shape=(3, 72, 40), dtype=\"float16\")\n"
    "t = pypo.op.tanh(pypo.op.add(b, pypo.op.mul(pypo.op.matmul(q, k), 0.125)))\n"
    "pypo.output(\"y\", y)\n"
    "pypo.output(\"t\", t)\n";

TEST(OracleCrossCheck, FusedConvAndMatmulEpilogues) {
    TempDir dir;
    cross_check(dir.file("fused.pto", kFusedSource));
}

TEST(OracleCrossCheck, FusedEpiloguesTwoVectorUnitsThreeDmaEngines) {
    TempDir dir;
    cross_check(dir.file("fused.pto", kFusedSource), R"({"cluster": {"vector_units": 2, "dma_engines": 3}})");
}

// Fused casts and silus: a conv2d's NCHW result cast to float32, batch
// normalised with float32 scale and shift, silu'd and cast back to
// float16; a batched matmul cast to float32, a float32 residual added
// (streamed per item in its own dtype), silu'd. Each cast writes a tile
// buffer of its own dtype, each silu a sigmoid into a scratch tile.
const char* kFusedCastSiluSource =
    "import pypto as pypo\n"
    "x = pypo.input(\"x\", shape=(2, 16, 20, 20), dtype=\"float16\")\n"
    "w = pypo.weight(\"w\", shape=(24, 16, 3, 3), dtype=\"float16\")\n"
    "s = pypo.weight(\"s\", shape=(24,), dtype=\"float32\")\n"
    "h = pypo.weight(\"h\", shape=(24,), dtype=\"float32\")\n"
    "c = pypo.op.cast(pypo.op.conv2d(x, w, padding=1), \"float32\")\n"
    "y = pypo.op.cast(pypo.op.silu(pypo.op.batch_norm(c, s, h)), \"float16\")\n"
    "q = pypo.input(\"q\", shape=(3, 72, 64), dtype=\"float16\")\n"
    "k = pypo.input(\"k\", shape=(64, 40), dtype=\"float16\")\n"
    "b = pypo.input(\"b\", shape=(3, 72, 40), dtype=\"float32\")\n"
    "t = pypo.op.silu(pypo.op.add(pypo.op.cast(pypo.op.matmul(q, k), \"float32\"), b))\n"
    "pypo.output(\"y\", y)\n"
    "pypo.output(\"t\", t)\n";

TEST(OracleCrossCheck, FusedCastsAndSilus) {
    TempDir dir;
    cross_check(dir.file("fused_cast.pto", kFusedCastSiluSource));
}

TEST(OracleCrossCheck, FusedCastsAndSilusTwoVectorUnitsThreeDmaEngines) {
    TempDir dir;
    cross_check(dir.file("fused_cast.pto", kFusedCastSiluSource),
                R"({"cluster": {"vector_units": 2, "dma_engines": 3}})");
}

TEST(OracleCrossCheck, BatchedMatmulWithPrefetch) {
    TempDir dir;
    cross_check(dir.file("bmm.pto",
                         "import pypto as pypo\n"
                         "q = pypo.input(\"q\", shape=(3, 128, 64), dtype=\"float16\")\n"
                         "k = pypo.input(\"k\", shape=(64, 192), dtype=\"float16\")\n"
                         "s = pypo.op.matmul(q, k)\n"
                         "t = pypo.op.matmul(s, pypo.op.reshape(k, (192, 64)), prefetch=True)\n"
                         "pypo.output(\"t\", t)\n"));
}

const char* kMovesSource =
    "import pypto as pypo\n"
    "x = pypo.input(\"x\", shape=(384, 640), dtype=\"float16\")\n"
    "z = pypo.input(\"z\", shape=(1, 18, 10, 12), dtype=\"float16\")\n"
    "t = pypo.op.transpose(x, engine='dma')\n"
    "c = pypo.op.concat([t, pypo.op.transpose(x, perm=(1, 0), engine='dma')], axis=1)\n"
    "p = pypo.op.pixel_shuffle(z, 3)\n"
    "pypo.output(\"c\", c)\n"
    "pypo.output(\"p\", p)\n";

TEST(OracleCrossCheck, DmaTransposeConcatPixelShuffle) {
    TempDir dir;
    cross_check(dir.file("moves.pto", kMovesSource));
}

TEST(OracleCrossCheck, DataMovementTwoDmaEnginesOddBursts) {
    TempDir dir;
    cross_check(
        dir.file("moves.pto", kMovesSource),
        R"({"cluster": {"dma_engines": 2, "l1_kib": 96}, "ddr": {"burst_bytes": 48}, "chip": {"clusters": 3}})");
}

// Slices and in-place updates (docs/language.md §3.14): matmul panels read
// with a slice's row stride, vector streams at a slice's offset, and an
// update's strided store of 2-byte rows and its dependences on the readers
// before it; with two DMA engines, odd bursts and a small L2, whose lines
// the strided rows share.
TEST(OracleCrossCheck, SlicesAndInPlaceUpdates) {
    const std::string slices = std::string(DAVINCI_SOURCE_DIR) + "/tests/functional/slices.pto";
    cross_check(slices);
    cross_check(slices, R"({"cluster": {"dma_engines": 2}, "ddr": {"burst_bytes": 48}, "chip": {"clusters": 3}})");
    cross_check(slices, R"({"cluster": {"dma_engines": 2}, "l2": {"kib": 16, "line_bytes": 128, "ways": 4}})");
}

// The L2 cache (timing model §6.1) under compiled programs: in-flight
// transposes and shuffles whose DDR-side rows are not their own, a GEMM
// whose panels evict each other from a small L2, and the Ascend-class
// preset's 192 MiB L2 under models/gemm_2048.pto.
TEST(OracleCrossCheck, DataMovementSmallL2) {
    TempDir dir;
    cross_check(dir.file("moves.pto", kMovesSource),
                R"({"cluster": {"dma_engines": 2}, "l2": {"kib": 16, "line_bytes": 128, "ways": 4}})");
}

TEST(OracleCrossCheck, Gemm256EvictingL2) {
    cross_check(model("gemm_256.pto"), R"({"dma": {"max_outstanding": 4}, "l2": {"kib": 64, "ways": 2}})");
}

TEST(OracleCrossCheck, ResnetBlockL2) {
    cross_check(model("resnet_block.pto"), R"({"cluster": {"dma_engines": 2}, "l2": {"kib": 512, "ways": 8}})");
}

TEST(OracleCrossCheck, Gemm2048AscendL2) {
    std::ifstream in(std::string(DAVINCI_SOURCE_DIR) + "/configs/ascend_910b_class.json");
    std::stringstream text;
    text << in.rdbuf();
    cross_check(model("gemm_2048.pto"), text.str());
}

// A larger run (~1M cycles) also checks that the oracle is fast enough.
TEST(OracleCrossCheck, Gemm512x512x1024) {
    TempDir dir;
    cross_check(dir.file("gemm_big.pto", gemm_source(512, 1024, 512, "float16")));
}

// models/gemm_2048.pto, the acceptance model: ~34M cycles, ~5 s of oracle time.
TEST(OracleCrossCheck, Gemm2048) { cross_check(model("gemm_2048.pto")); }

// Vector operations (dsl/lower_vector*.cpp): the streamed pipeline with one
// and two DMA engines, broadcast parameters, multi-command chunks, window
// reductions in planes and bands, tiles, and a vector-bound configuration.
std::string vector_source(const std::string& shape, const std::string& call, const std::string& extra = "") {
    return "import pypto as pypo\n" + extra + "x = pypo.input(\"x\", shape=" + shape +
           ", dtype=\"float16\")\ny = " + call + "\npypo.output(\"y\", y)\n";
}

TEST(OracleCrossCheck, VectorRelu) {
    TempDir dir;
    cross_check(dir.file("relu.pto", vector_source("(1, 64, 112, 112)", "pypo.op.relu(x)")));
}

TEST(OracleCrossCheck, VectorReluTwoDmaEngines) {
    TempDir dir;
    cross_check(dir.file("relu.pto", vector_source("(1, 64, 112, 112)", "pypo.op.relu(x)")),
                R"({"cluster": {"dma_engines": 2}})");
}

TEST(OracleCrossCheck, Buffers1And3Vector) {
    TempDir dir;
    for (int b : {1, 3}) {
        const std::string extra = "pypo.config.BUFFERS = " + std::to_string(b) + "\n";
        const std::string path = dir.file("relu_b" + std::to_string(b) + ".pto",
                                          vector_source("(1, 64, 112, 112)", "pypo.op.relu(x)", extra));
        cross_check(path);
        cross_check(path, R"({"cluster": {"dma_engines": 2}})");
    }
}

TEST(OracleCrossCheck, VectorBatchNormAddRelu) {
    TempDir dir;
    cross_check(
        dir.file("bn.pto", vector_source("(1, 64, 56, 56)", "pypo.op.relu(pypo.op.add(pypo.op.batch_norm(x), x))")));
}

TEST(OracleCrossCheck, VectorSoftmaxLayerNormMixedPrecision) {
    TempDir dir;
    cross_check(dir.file("sm.pto", vector_source("(256, 512)",
                                                 "pypo.op.layer_norm(pypo.op.cast(pypo.op.softmax(x, dtype='float32'), "
                                                 "dtype='float16'))")));
}

TEST(OracleCrossCheck, VectorPoolingAndReductions) {
    TempDir dir;
    cross_check(dir.file(
        "pool.pto", vector_source("(1, 64, 112, 112)",
                                  "pypo.op.reduce_mean(pypo.op.max_pool(x, window=3, stride=2, padding=1), axis=1)")));
}

TEST(OracleCrossCheck, VectorSlideBands) { cross_check(model("slide.pto")); }

TEST(OracleCrossCheck, VectorTransposes) {
    TempDir dir;
    cross_check(
        dir.file("t.pto", vector_source("(384, 12, 64)", "pypo.op.transpose(pypo.op.transpose(x, perm=(1, 0, 2)))")));
}

TEST(OracleCrossCheck, VectorBoundConfig) {
    TempDir dir;
    cross_check(dir.file("g.pto", vector_source("(64, 4096)", "pypo.op.gelu(pypo.op.mul(x, 0.5))",
                                                "pypo.config.MAX_PARALLEL = 3\n")),
                R"({"vector": {"bytes_per_cycle": 16, "mul": {"head_cycles": 0, "cycles_per_repeat": 1.37},
                               "transcendental": {"head_cycles": 0, "cycles_per_repeat": 7}},
                    "ddr": {"latency_cycles": 3}, "sync": {"flag_latency_cycles": 5}})");
}

TEST(OracleCrossCheck, ResnetBlockModel) { cross_check(model("resnet_block.pto")); }

// On-chip tensors placed per cluster: copies and streams pinned to every
// cluster, GEMM blocks reading their band of the buffer, a fused epilogue.
TEST(OracleCrossCheck, MemoryPlacementModel) { cross_check(model("memory_placement.pto")); }
TEST(OracleCrossCheck, MemoryPlacementTwoDmaEngines) {
    cross_check(model("memory_placement.pto"), R"({"cluster": {"dma_engines": 2}})");
}

// Both super-resolution variants on a small frame: NHWC convolutions and a
// DMA depth-to-space, NCHW conversions, float32 and casts.
TEST(OracleCrossCheck, SuperResolutionModel) {
    cross_check(model("super_resolution.pto"), "", {{"img", {1, 1, 24, 32}}});
}
TEST(OracleCrossCheck, SuperResolutionNaiveModel) {
    cross_check(model("super_resolution_naive.pto"), "", {{"img", {1, 1, 24, 32}}});
}

// Vector units with their own Unified Buffers (docs/timing-model.md §2):
// each unit's chunks on its own load engine, unit and store engine, over
// their own paths; fused epilogues run unfused, through DDR. The tiled
// lowerings, the fusion chains and the cube epilogues, with limited paths
// and without.
TEST(OracleCrossCheck, UnifiedBuffers) {
    const std::string ub = R"({"cluster": {"vector_units": 2, "dma_engines": 2}, "vector": {"buffer_kib": 64}})";
    const std::string paths =
        R"({"cluster": {"vector_units": 2, "dma_engines": 2, "ddr_read_bytes_per_cycle": 24},
            "vector": {"buffer_kib": 96, "ddr_read_bytes_per_cycle": 16, "ddr_write_bytes_per_cycle": 8},
            "dma": {"max_outstanding": 1}})";
    for (const std::string& config : {ub, paths}) {
        cross_check(std::string(DAVINCI_SOURCE_DIR) + "/tests/functional/walls.pto", config);
        cross_check(std::string(DAVINCI_SOURCE_DIR) + "/tests/functional/vector_chains.pto", config);
        // Row groups and a vector chain run after the matmul it adds.
        cross_check(std::string(DAVINCI_SOURCE_DIR) + "/tests/functional/row_groups.pto", config);
        TempDir dir;
        cross_check(dir.file("fused.pto", kFusedSource), config);
    }
}

// Flash attention as docs/validation.md runs it, small: two query blocks,
// each a strand on its own two of the 4 clusters (its matmuls pinned there
// in turn), two blocks a cluster, each step's rescaling factor in other UB
// bytes than the last step's, on the 910B2 preset (its L2, its one load
// queue for a GEMM's panels); eight steps, so that from the sixth each
// step's scores, probabilities and partial output take the bytes of the
// strand's results five steps before (its DDR workspace), its writers
// waiting for their readers.
TEST(OracleCrossCheck, FlashAttentionStrandsOnTheAscendPreset) {
    nlohmann::json config =
        testjson::parse(oracle_test::read_text(std::string(DAVINCI_SOURCE_DIR) + "/configs/ascend_910b2.json"));
    config["chip"]["clusters"] = 4;
    TempDir dir;
    const std::string source =
        "import pypto as pypo\n"
        "pypo.config.MAX_PARALLEL = 8\n"
        "kt = pypo.input(\"kt\", shape=(64, 512), dtype=\"float16\")\n"
        "v = pypo.input(\"v\", shape=(512, 64), dtype=\"float16\")\n"
        "outs = []\n"
        "for i in range(2):\n"
        "    q = pypo.input(\"q\" + str(i), shape=(64, 64), dtype=\"float16\")\n"
        "    for j in range(0, 512, 64):\n"
        "        s = pypo.op.matmul(q, kt[:, j:j + 64], target='L1')\n"
        "        m_block = pypo.op.reduce_max(s, axis=-1, keepdims=True, target='L1')\n"
        "        if j == 0:\n"
        "            m = m_block\n"
        "            p = pypo.op.exp(pypo.op.sub(s, m, target='L1'), target='L1')\n"
        "            o = pypo.op.matmul(p, v[j:j + 64], target='L1')\n"
        "        else:\n"
        "            m_new = pypo.op.maximum(m, m_block, target='L1')\n"
        "            r = pypo.op.exp(pypo.op.sub(m, m_new, target='L1'), target='L1')\n"
        "            p = pypo.op.exp(pypo.op.sub(s, m_new, target='L1'), target='L1')\n"
        "            pv = pypo.op.matmul(p, v[j:j + 64], target='L1')\n"
        "            o = pypo.op.add(pypo.op.mul(o, r, target='L1'), pv, target='L1')\n"
        "            m = m_new\n"
        "    outs.append(pypo.op.relu(o))\n"
        "pypo.output(\"out\", pypo.op.concat(outs, axis=0))\n";
    cross_check(dir.file("fa_strands.pto", source), config.dump());
}

}  // namespace

// embedding and argmax: the DMA gather (ids loaded, then the rows they
// name, a flag between them on the same engine) and the VECTOR argmax
// (a reduction's tree), alone, after a transpose, of int8 and fed back
// into a lookup, on the default hardware and with two vector units and
// three DMA engines (the stores on their own engine).
TEST(OracleCrossCheck, EmbeddingArgmax) { cross_check_two_configs("tests/functional/embedding_argmax.pto"); }

// Row reductions reading an on-chip matmul result and an on-chip
// element-wise result part by part (no loads: the vector unit reads the
// cluster's L1 where the matmul wrote), on the default hardware and with
// two vector units and three DMA engines.
TEST(OracleCrossCheck, OnChipRowReductions) { cross_check_two_configs("tests/functional/on_chip_reduce.pto"); }

// An online softmax kept on chip: row reductions computing their results in
// L1, row statistics read in place through (1, 0)-strided views by sub, mul
// and div, and loop-carried statistics whose L1 is reused after their last
// reader, on the default hardware and with two vector units and three DMA
// engines.
TEST(OracleCrossCheck, OnlineSoftmaxOnChip) { cross_check_two_configs("tests/functional/online_softmax_on_chip.pto"); }

// On-chip results in bands of rows, one per cluster: matmul blocks pinned to
// their band's cluster writing and reading L1 at band offsets, streams over
// bands, on the default hardware and with two vector units and three DMA
// engines.
TEST(OracleCrossCheck, OnChipBands) { cross_check_two_configs("tests/functional/on_chip_bands.pto"); }

// Vector streams reading on-chip parts in many chunks and storing their
// results on the one DMA engine: the result slots' release flags.
TEST(OracleCrossCheck, OnChipLittleL1) { cross_check_two_configs("tests/functional/on_chip_little_l1.pto"); }

// Weight-only int8: B's int8 panels loaded and dequantised in L1 by the
// vector unit (a cast, a multiply by per-column or one scale) before the
// cubes read them, on the default hardware and with two vector units and
// three DMA engines (the panels on their own engine).
TEST(OracleCrossCheck, WeightOnlyInt8) { cross_check_two_configs("tests/functional/weight_only_int8.pto"); }
