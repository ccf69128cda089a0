// Row groups (docs/timing-model.md §10, "Fusion"): the softmax of
// tests/cli/softmax_steps.pto, written out of its five steps, runs as one
// pass over each chunk of rows. Fused it reads x once and writes y once
// (512 x 256 float16: 262,144 bytes each); --no-fusion streams every step
// through DDR (the row statistics, the differences, the exponentials),
// reading 1,318,912 bytes and writing 788,480. Both check against the
// reference, with the vector units in L1 and in buffers of their own.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"

using namespace clitest;

namespace {

nlohmann::json report(const std::string& args, const std::string& name) {
    const std::string json = (scratch() / (name + ".json")).string();
    Outcome o = run("-q " + args + " tests/cli/softmax_steps.pto --report-json '" + json + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return nlohmann::json::parse(slurp(json));
}

TEST(RowGroups, ASoftmaxOutOfItsStepsTakesOnePass) {
    const nlohmann::json fused = report("", "rows_fused"), apart = report("--no-fusion", "rows_apart");
    EXPECT_EQ(fused["fusion_groups"], 1);
    EXPECT_EQ(fused["ddr_bytes_read"], 262144);
    EXPECT_EQ(fused["ddr_bytes_written"], 262144);
    EXPECT_EQ(apart["ddr_bytes_read"], 1318912);
    EXPECT_EQ(apart["ddr_bytes_written"], 788480);
    EXPECT_EQ(fused["total_cycles"], 16486);
    EXPECT_EQ(apart["total_cycles"], 71289);
    // Every member's VECTOR commands are charged to it.
    for (const nlohmann::json& op : fused["ops"]) EXPECT_GT(op["vector_cycles"].get<uint64_t>(), 0u) << op;
}

TEST(RowGroups, OnTheAscendPresetToo) {
    const std::string preset = "--config configs/ascend_910b2.json";
    const nlohmann::json fused = report(preset, "rows_ub"), apart = report(preset + " --no-fusion", "rows_ub_apart");
    EXPECT_EQ(fused["total_cycles"], 1693);
    EXPECT_EQ(apart["total_cycles"], 4943);
    EXPECT_EQ(fused["ddr_bytes_written"], 262144);
}

// The functional model runs the fused commands: every output of
// tests/functional/row_groups.pto (a softmax and a layer norm out of their
// steps, two flash-attention steps) is the one --no-fusion computes, byte
// for byte, with the vector units in L1 and in buffers of their own (where
// the output's update is a vector chain run after its matmul).
TEST(RowGroups, FusedOutputsAreTheUnfusedOnes) {
    for (const std::string config : {"", "--config configs/ascend_910b2.json "}) {
        const std::string fused = (scratch() / "rows_fused").string(), apart = (scratch() / "rows_apart").string();
        const std::string program = " tests/functional/row_groups.pto";
        ASSERT_EQ(run("-q " + config + "--outputs '" + fused + "'" + program).status, 0);
        ASSERT_EQ(run("-q --no-fusion " + config + "--outputs '" + apart + "'" + program).status, 0);
        int files = 0;
        for (const auto& entry : std::filesystem::directory_iterator(fused)) {
            const std::string name = entry.path().filename().string();
            EXPECT_EQ(slurp(entry.path().string()), slurp(apart + "/" + name)) << config << name;
            ++files;
        }
        EXPECT_EQ(files, 3) << config;
    }
}

TEST(RowGroups, CheckAgainstTheReference) {
    for (const std::string args : {"", "--config configs/ascend_910b2.json"})
        for (const char* program : {" tests/cli/softmax_steps.pto", " tests/functional/row_groups.pto"}) {
            Outcome o = run("-q --check " + args + program);
            EXPECT_EQ(o.status, 0) << args << program << "\n" << o.out << o.err;
        }
}

}  // namespace
