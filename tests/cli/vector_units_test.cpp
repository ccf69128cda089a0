// Vector streams spread over a cluster's vector units (docs/timing-model.md
// §10, "Vector operation lowering"): on the Ascend 910B2 preset (two vector
// units per cluster, each with its own Unified Buffer and load and store
// engines) a fused chain of six transcendental ops over a (2048, 4096)
// float16 tensor is bound by its vector work. Each of the 24 blocks streams
// 15 chunks of 5 or 6 rows; with two units chunk i runs on vector(i mod 2),
// through that unit's own buffer and engines, so the same VECTOR commands
// split between the two.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"
#include "vector_op_report.h"

using namespace clitest;

namespace {

const char* const kChain =
    "import pypto as pypo\n"
    "x = pypo.input(\"x\", shape=(2048, 4096), dtype=\"float16\")\n"
    "y = pypo.op.sigmoid(pypo.op.tanh(pypo.op.exp(pypo.op.sigmoid(pypo.op.tanh(pypo.op.exp(x))))))\n"
    "pypo.output(\"y\", y)\n";

nlohmann::json chain_report(const std::string& name, const std::string& options) {
    const std::string pto = write_file(name + ".pto", kChain);
    const std::string json = (scratch() / (name + ".json")).string();
    Outcome o = run("-q --config configs/ascend_910b2.json " + options + " --report-json '" + json + "' '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

TEST(VectorUnits, ChunksTakeTurnsOnTheVectorUnits) {
    const nlohmann::json two = chain_report("units2", "");
    const nlohmann::json one = chain_report("units1", "--set cluster.vector_units=1");
    // The same commands: one unit runs them all, two share them.
    EXPECT_EQ(unit_busy_cycles(one, "cluster0.vector0"), 35430u);
    EXPECT_EQ(unit_busy_cycles(two, "cluster0.vector0"), 18768u);
    EXPECT_EQ(unit_busy_cycles(two, "cluster0.vector1"), 16662u);
    EXPECT_EQ(one["total_cycles"], 38357);
    EXPECT_EQ(two["total_cycles"], 23471);
    EXPECT_EQ(two["ddr_bytes_read"], one["ddr_bytes_read"]);
}

// The split changes no value: the chain checks against the reference.
TEST(VectorUnits, SpreadChainChecks) {
    const std::string pto = write_file("units_check.pto", kChain);
    Outcome o = run("-q --config configs/ascend_910b2.json --check '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.out << o.err;
}

}  // namespace

namespace {

// README "Vector units with their own buffers": the MobileNetV2 block on
// the Ascend preset, whose vector units have the 910B's Unified Buffers
// and are cores of their own (configs/README.md gives the values): each
// vector unit loads, computes and stores through its own buffer and
// engines, the convolutions' epilogues run as vector chains of their own
// (the bias add and the clip, the bias add and the residual add), the
// depthwise convolution's clip apart (a note says why), and the block
// takes longer than with the vector units in L1 (--set
// vector.separate_cores=false --set vector.buffer_kib=0).
TEST(VectorUnits, UnifiedBuffersOnTheAscendPreset) {
    const std::string ub = "-q --config configs/ascend_910b2.json --shape x=1,56,56,24 models/mobilenet_v2_block.pto";
    const std::string l1 =
        "-q --config configs/ascend_910b2.json --set vector.separate_cores=false --set vector.buffer_kib=0 "
        "--shape x=1,56,56,24 models/mobilenet_v2_block.pto";
    const std::string a = (scratch() / "mbv2_ub.json").string(), b = (scratch() / "mbv2_l1.json").string();
    Outcome o = run(ub + " --report-json '" + a + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    ASSERT_EQ(run(l1 + " --report-json '" + b + "'").status, 0);
    const nlohmann::json with = testjson::parse(slurp(a)), without = testjson::parse(slurp(b));
    EXPECT_EQ(with["total_cycles"], 17909);
    EXPECT_EQ(without["total_cycles"], 15441);
    EXPECT_EQ(with["memory"]["ub"]["read"], 45007872);
    EXPECT_FALSE(without["memory"].contains("ub"));
    std::vector<std::string> engines;
    for (const auto& u : with["units"])
        if (u["cluster"] == 0) engines.push_back(u["name"]);
    EXPECT_EQ(engines,
              (std::vector<std::string>{"cluster0.dma0", "cluster0.dma1", "cluster0.cube0.dma", "cluster0.cube0",
                                        "cluster0.vector0.load", "cluster0.vector0", "cluster0.vector0.store",
                                        "cluster0.vector1.load", "cluster0.vector1", "cluster0.vector1.store"}));
    EXPECT_EQ(with["fusion_groups"], 2);
    ASSERT_EQ(with["notes"].size(), 1u);
    EXPECT_EQ(with["notes"][0],
              "fusion group 'clip_2' (depthwise_conv2d -> clip) ran unfused: not one output row of the group's "
              "buffers fits a vector unit's Unified Buffer; its operations were lowered one by one, through DDR");
    // The result is the same: the block checks against the reference.
    Outcome checked = run(ub + " --check");
    EXPECT_EQ(checked.status, 0) << checked.out << checked.err;
}

}  // namespace
