// Vector streams spread over a cluster's vector units (docs/timing-model.md
// §10, "Vector operation lowering"): on the Ascend 910B2 preset (two vector
// units per cluster) a fused chain of six transcendental ops over a
// (2048, 4096) float16 tensor is bound by its vector work. Each of the 24
// blocks streams 6 chunks of 14 or 15 rows; with two units chunk i runs on
// vector(i mod 2), so the same VECTOR commands split between the two.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
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
    return nlohmann::json::parse(slurp(json));
}

TEST(VectorUnits, ChunksTakeTurnsOnTheVectorUnits) {
    const nlohmann::json two = chain_report("units2", "");
    const nlohmann::json one = chain_report("units1", "--set cluster.vector_units=1");
    // The same commands: one unit runs them all, two share them.
    EXPECT_EQ(unit_busy_cycles(one, "cluster0.vector0"), 33756u);
    EXPECT_EQ(unit_busy_cycles(two, "cluster0.vector0"), 16686u);
    EXPECT_EQ(unit_busy_cycles(two, "cluster0.vector1"), 17070u);
    EXPECT_EQ(one["total_cycles"], 38626);
    EXPECT_EQ(two["total_cycles"], 31902);
    EXPECT_EQ(two["ddr_bytes_read"], one["ddr_bytes_read"]);
}

// The split changes no value: the chain checks against the reference.
TEST(VectorUnits, SpreadChainChecks) {
    const std::string pto = write_file("units_check.pto", kChain);
    Outcome o = run("-q --config configs/ascend_910b2.json --check '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.out << o.err;
}

}  // namespace
