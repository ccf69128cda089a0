// models/super_resolution.pto against models/super_resolution_naive.pto: the
// same network (same MACs, same output frame), and the gap between them comes
// from the mechanisms their header comments name, each visible in the report:
// float32's second cube pass and doubled bytes, the three format conversions
// of NCHW, and the pixel shuffle's extra round trip.
#include <gtest/gtest.h>

#include <map>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

constexpr uint64_t kH = 48, kW = 64;  // a reduced frame; the resolution is a shape_hint dimension

nlohmann::json report(const std::string& model, const std::string& extra = "") {
    std::string json = (scratch() / (model + ".json")).string();
    Outcome o = run("-q " + extra + " --report-json '" + json + "' --shape img=1,1," + std::to_string(kH) + "," +
                    std::to_string(kW) + " models/" + model + ".pto");
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

std::map<std::string, nlohmann::json> ops_by_name(const nlohmann::json& r) {
    std::map<std::string, nlohmann::json> ops;
    for (const auto& op : r["ops"]) ops[op["name"].get<std::string>()] = op;
    return ops;
}

TEST(SuperResolution, SameNetworkSameFrame) {
    for (const char* model : {"super_resolution", "super_resolution_naive"}) {
        Outcome o = run("--dump-graph --shape img=1,1,48,64 models/" + std::string(model) + ".pto");
        ASSERT_EQ(o.status, 0) << o.err;
        EXPECT_NE(o.out.find("  output  output  (1, 1, 144, 192) "), std::string::npos) << model << "\n" << o.out;
    }
    auto naive = ops_by_name(report("super_resolution_naive")), opt = ops_by_name(report("super_resolution"));
    for (const char* conv : {"conv2d_1", "conv2d_2", "conv2d_3"}) {
        EXPECT_EQ(naive[conv]["macs"], opt[conv]["macs"]) << conv;
        // float32 operands take cube.fp32_passes = 2 passes per MAC step of
        // the 16-MAC array: at least twice the float16 bound. (Not exactly
        // twice the float16 cycles: the tiles, and so the start-ups, differ.)
        uint64_t macs = opt[conv]["macs"], n = naive[conv]["cube_cycles"], o = opt[conv]["cube_cycles"];
        EXPECT_GE(o, macs / 16) << conv;
        EXPECT_GE(n, 2 * macs / 16) << conv;
        EXPECT_GT(double(n), 1.9 * double(o)) << conv;
    }
    // An activation streamed through the vector unit: twice the bytes in float32.
    for (const char* act : {"tanh_1", "tanh_2"})
        EXPECT_EQ(naive[act]["dma_bytes"].get<uint64_t>(), 2 * opt[act]["dma_bytes"].get<uint64_t>()) << act;
}

// Measured without fusion, where each conversion is an operation through
// DDR; fused, the next test.
TEST(SuperResolution, NaiveConvertsEveryConvolutionOutput) {
    nlohmann::json naive = report("super_resolution_naive", "--no-fusion"), opt = report("super_resolution");
    EXPECT_EQ(naive["format_conversions"], 3);
    EXPECT_EQ(opt["format_conversions"], 0);
    auto ops = ops_by_name(naive);
    // Each conversion reads and writes its conv2d's float32 output through DDR.
    const std::map<std::string, uint64_t> channels = {
        {"format_convert_1", 64}, {"format_convert_2", 32}, {"format_convert_3", 9}};
    for (const auto& [name, c] : channels) {
        ASSERT_TRUE(ops.count(name)) << name;
        EXPECT_EQ(ops[name]["kind"], "format_convert");
        EXPECT_EQ(ops[name]["dma_bytes"].get<uint64_t>(), 2 * c * kH * kW * 4) << name;
        EXPECT_GT(ops[name]["cycles"].get<uint64_t>(), 0u) << name;
    }
    EXPECT_EQ(ops_by_name(opt).count("pixel_shuffle_1"), 0u);
    EXPECT_EQ(ops_by_name(opt)["transpose_1"]["kind"], "transpose");
}

// Fused, each conversion transposes its conv2d's tiles in L1 (vector
// cycles, no DDR of its own); the one NCHW store of a group is charged to
// its last operation: tanh_1 and tanh_2 after the first two, the third
// conversion itself (its reader, pixel_shuffle, is a data movement).
TEST(SuperResolution, NaiveConversionsFusedIntoTheirConvolutions) {
    auto ops = ops_by_name(report("super_resolution_naive"));
    const std::map<std::string, uint64_t> stored = {
        {"format_convert_1", 0}, {"format_convert_2", 0}, {"format_convert_3", 9 * kH * kW * 4}};
    for (const auto& [name, bytes] : stored) {
        ASSERT_TRUE(ops.count(name)) << name;
        EXPECT_EQ(ops[name]["dma_bytes"].get<uint64_t>(), bytes) << name;
        EXPECT_GT(ops[name]["vector_cycles"].get<uint64_t>(), 0u) << name;
    }
    EXPECT_EQ(ops["tanh_1"]["dma_bytes"].get<uint64_t>(), 64u * kH * kW * 4);
    EXPECT_EQ(ops["tanh_2"]["dma_bytes"].get<uint64_t>(), 32u * kH * kW * 4);
}

// The gap, as the simulation measures it: more than twice the cycles and
// less than half the cube utilization, with more DDR traffic.
TEST(SuperResolution, OptimisedIsMoreThanTwiceAsFast) {
    nlohmann::json naive = report("super_resolution_naive"), opt = report("super_resolution");
    EXPECT_EQ(naive["macs"], opt["macs"]);
    EXPECT_GT(naive["total_cycles"].get<uint64_t>(), 2 * opt["total_cycles"].get<uint64_t>());
    EXPECT_GT(opt["cube_utilization"].get<double>(), 2 * naive["cube_utilization"].get<double>());
    EXPECT_GT(naive["ddr_bytes_read"].get<uint64_t>() + naive["ddr_bytes_written"].get<uint64_t>(),
              2 * (opt["ddr_bytes_read"].get<uint64_t>() + opt["ddr_bytes_written"].get<uint64_t>()));
}

}  // namespace
