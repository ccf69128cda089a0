// Relative effects the issue asks for, each derived from the timing model
// (docs/timing-model.md): fp16 vs fp32 cube work, what a layout annotation
// saves, and the bytes per memory level of a GEMM.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

nlohmann::json report(const std::string& pto_path, const std::string& extra = "") {
    std::string json = (scratch() / (std::filesystem::path(pto_path).filename().string() + ".json")).string();
    Outcome o = run("-q " + extra + " --report-json '" + json + "' '" + pto_path + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

std::string gemm_512(const std::string& dtype) {
    return "import pypto as pypo\n"
           "a = pypo.input(\"a\", shape=(512, 512), dtype=\"" +
           dtype +
           "\")\n"
           "b = pypo.input(\"b\", shape=(512, 512), dtype=\"" +
           dtype +
           "\")\n"
           "pypo.output(\"c\", pypo.op.matmul(a, b))\n";
}

// MATMUL commands of a --timing-csv: their count and the sum of
// (end - start - cube.pipeline_cycles), the MAC part of each (§7).
struct MatmulTime {
    uint64_t commands = 0, mac_part = 0;
};
MatmulTime matmul_time(const std::string& csv_path, uint64_t pipeline) {
    MatmulTime t;
    for (const TimingRow& row : read_timing_csv(csv_path)) {
        if (row.command_kind != "matmul") continue;
        ++t.commands;
        t.mac_part += row.end - row.start - pipeline;
    }
    return t;
}

// 512 x 512 x 512 on the default cube (4 x 4 MACs, fp32 at 2 passes, L0
// 32 KiB). The compiler chooses 64 x 16 x 64 tiles (16-deep panels) for
// both: float16 could have 32-deep tiles in L0, but at this size the
// shallower k-steps start the cubes sooner (tests/dsl/gemm_cost_test.cpp).
// 2048 MATMULs each, of (64/4)*(64/4) blocks x 16 steps = 4096 MAC cycles
// in float16 and 4096 x 2 passes = 8192 in float32. Each MATMUL's operand
// stream (k*(m*n/4 + n*m/4)*e bytes at 512 B/cycle: 128 or 256 cycles) is
// far below its MAC cycles, so every one lasts pipeline (7) + MAC cycles
// (the timing CSV's start is after the loop control), and the MAC part is
// exactly twice as long in float32: 2048 x 8192 = 16777216 vs 2048 x 4096
// = 8388608 cycles (M*N*K / 16 MACs per cycle, times the passes; whatever
// the tiling, as long as its tiles are whole MAC blocks).
TEST(RelativeEffects, Float32DoublesTheCubesMacCycles) {
    std::string p16 = write_file("gemm512_f16.pto", gemm_512("float16"));
    std::string p32 = write_file("gemm512_f32.pto", gemm_512("float32"));
    std::string c16 = (scratch() / "gemm512_f16.csv").string(), c32 = (scratch() / "gemm512_f32.csv").string();
    nlohmann::json r16 = report(p16, "--timing-csv '" + c16 + "'");
    nlohmann::json r32 = report(p32, "--timing-csv '" + c32 + "'");
    MatmulTime t16 = matmul_time(c16, 7), t32 = matmul_time(c32, 7);
    EXPECT_EQ(t16.commands, 2048u);
    EXPECT_EQ(t32.commands, 2048u);
    EXPECT_EQ(t16.mac_part, 8388608u);
    EXPECT_EQ(t32.mac_part, 16777216u);
    EXPECT_EQ(t32.mac_part, 2 * t16.mac_part);
    // The same MACs either way; float32 takes longer overall.
    EXPECT_EQ(r16["macs"], r32["macs"]);
    EXPECT_GT(r32["total_cycles"].get<uint64_t>(), r16["total_cycles"].get<uint64_t>());
}

// Bytes per memory level for the float16 GEMM above. 16 blocks of 128 x
// 128 (2 x 2 cubes of 64 x 64), each reading its A and B panels over all
// of K: 16 x (128*512 + 512*128) x 2 B = 4194304 B from DDR into L1; C
// written once, 512*512*2 = 524288 B, from L1 to DDR. Each of the 64 cubes
// loads 32 k-steps of a 64x16 A tile and a 16x64 B tile (4096 B) from L1
// into L0: 8388608 B; and writes its 64x64 float32 accumulator back to L1
// as float16: 524288 B written to L1, 1048576 B read from L0. The MATMULs
// read 2048 x 16*(64*16 + 64*16)*2 = 134217728 operand bytes from L0.
TEST(RelativeEffects, BytesPerMemoryLevel) {
    nlohmann::json r = report(write_file("gemm512_levels.pto", gemm_512("float16")));
    const nlohmann::json& m = r["memory"];
    EXPECT_EQ(m["ddr"]["read"].get<uint64_t>(), 4194304u);
    EXPECT_EQ(m["ddr"]["written"].get<uint64_t>(), 524288u);
    EXPECT_EQ(m["ddr"]["read"], r["ddr_bytes_read"]);
    EXPECT_EQ(m["ddr"]["written"], r["ddr_bytes_written"]);
    EXPECT_EQ(m["l1"]["written"].get<uint64_t>(), 4194304u + 524288u);
    EXPECT_EQ(m["l1"]["read"].get<uint64_t>(), 8388608u + 524288u);
    EXPECT_EQ(m["l0"]["written"].get<uint64_t>(), 8388608u);
    EXPECT_EQ(m["l0"]["read"].get<uint64_t>(), 134217728u + 1048576u);
    EXPECT_EQ(r["format_conversions"].get<uint64_t>(), 0u);
}

// models/resnet_block.pto as written (NCHW input) and with its input
// annotated NHWC. Every conv2d computes NHWC (output pixels x filters);
// NCHW-labelled outputs each get a format_convert on the vector unit, a
// per-image (3136 x 64) transpose that reads and writes the 401408-byte
// activation through DDR. With layout="NHWC" on the input, every tensor
// after it inherits NHWC and no conversion is needed. Measured without
// fusion, where each conversion is an operation of its own through DDR
// (fused, the next test, it is a transpose of each tile in L1).
TEST(RelativeEffects, MatchingLayoutAnnotationRemovesTheConversions) {
    std::string model = slurp(std::string(DAVINCI_SOURCE_DIR) + "/models/resnet_block.pto");
    const std::string nchw = "x = pypo.input(\"x\", shape=(1, 64, 56, 56), dtype=\"float16\")";
    const std::string nhwc = "x = pypo.input(\"x\", shape=(1, 56, 56, 64), dtype=\"float16\", layout=\"NHWC\")";
    ASSERT_NE(model.find(nchw), std::string::npos);
    model.replace(model.find(nchw), nchw.size(), nhwc);
    nlohmann::json plain = report("models/resnet_block.pto", "--no-fusion");
    nlohmann::json annotated = report(write_file("resnet_block_nhwc.pto", model), "--no-fusion");

    EXPECT_EQ(plain["format_conversions"].get<uint64_t>(), 2u);
    EXPECT_EQ(annotated["format_conversions"].get<uint64_t>(), 0u);
    uint64_t conversion_cycles = 0, conversion_vector = 0;
    for (const nlohmann::json& op : plain["ops"])
        if (op["kind"] == "format_convert") {
            conversion_cycles += op["cycles"].get<uint64_t>();
            conversion_vector += op["vector_cycles"].get<uint64_t>();
            EXPECT_EQ(op["dma_bytes"].get<uint64_t>(), 2u * 401408) << op;
        }
    for (const nlohmann::json& op : annotated["ops"]) EXPECT_NE(op["kind"], "format_convert") << op;
    // Each conversion reads and writes the activation once.
    EXPECT_EQ(plain["ddr_bytes_read"].get<uint64_t>() - annotated["ddr_bytes_read"].get<uint64_t>(), 2u * 401408);
    EXPECT_EQ(plain["ddr_bytes_written"].get<uint64_t>() - annotated["ddr_bytes_written"].get<uint64_t>(), 2u * 401408);
    // The conversions sit on the critical path between a conv2d and its
    // batch_norm; the annotated run saves their 25189 + 25189 cycles and the
    // dispatch cycle after each: 50378 + 2 = 50380.
    EXPECT_EQ(conversion_cycles, 50378u);
    EXPECT_EQ(plain["total_cycles"].get<uint64_t>(), 1160897u);
    EXPECT_EQ(annotated["total_cycles"].get<uint64_t>(), 1110506u);
    EXPECT_EQ(plain["vector_busy"].get<double>() > annotated["vector_busy"].get<double>(), true);
    EXPECT_GT(conversion_vector, 0u);
}

// Fused (the default), each conversion is the transpose of every C tile
// in L1 before its one store, NCHW (charged to the group's last
// operation): the plain model moves exactly the
// annotated one's DDR bytes, and its vector units do the transposes.
TEST(RelativeEffects, FusedConversionsCostNoDdrBytes) {
    std::string model = slurp(std::string(DAVINCI_SOURCE_DIR) + "/models/resnet_block.pto");
    const std::string nchw = "x = pypo.input(\"x\", shape=(1, 64, 56, 56), dtype=\"float16\")";
    const std::string nhwc = "x = pypo.input(\"x\", shape=(1, 56, 56, 64), dtype=\"float16\", layout=\"NHWC\")";
    model.replace(model.find(nchw), nchw.size(), nhwc);
    nlohmann::json plain = report("models/resnet_block.pto");
    nlohmann::json annotated = report(write_file("resnet_block_nhwc_fused.pto", model));
    EXPECT_EQ(plain["ddr_bytes_read"], annotated["ddr_bytes_read"]);
    EXPECT_EQ(plain["ddr_bytes_written"], annotated["ddr_bytes_written"]);
    EXPECT_EQ(plain["fusion_groups"].get<uint64_t>(), 2u);
    EXPECT_EQ(annotated["fusion_groups"].get<uint64_t>(), 2u);
    for (const nlohmann::json& op : plain["ops"])
        if (op["kind"] == "format_convert") {
            EXPECT_EQ(op["dma_bytes"].get<uint64_t>(), 0u) << op;  // the store is the group's last op's
            EXPECT_GT(op["vector_cycles"].get<uint64_t>(), 0u) << op;
        }
}

}  // namespace
