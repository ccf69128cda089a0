// Every example program in models/ goes through the front end, and its task
// graph renders. (Simulating all of them waits for the lowering of every
// operation; until then those stop with a clear "not lowered yet".)
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"
#include "tests/support/model_instances.h"

using namespace clitest;

namespace {

// Extra arguments a model needs (its header comment says so too).
std::string extra_args(const std::string& model) { return testmodels::instance_args(model); }

std::vector<std::string> models() {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(std::string(DAVINCI_SOURCE_DIR) + "/models"))
        if (e.path().extension() == ".pto") names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

class Model : public testing::TestWithParam<std::string> {};

TEST_P(Model, ElaboratesAndItsGraphRenders) {
    std::string dot = (scratch() / (GetParam() + ".dot")).string();
    Outcome o = run("--dump-graph --graph-dot '" + dot + "' " + extra_args(GetParam()) + "models/" + GetParam());
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out.rfind("task graph: ", 0), 0u) << o.out;
    EXPECT_EQ(std::system(("dot -Tsvg '" + dot + "' -o /dev/null").c_str()), 0);
}

// Every model simulates end to end, within its compute and DDR bounds, with
// no link over its peak, and every engine's cycle accounting (timing model
// §9) sums to the run: busy (link waits included) + flag wait + issue +
// idle = total, link waits only on DMA engines.
TEST_P(Model, SimulatesWithinItsBounds) {
    std::string json = (scratch() / (GetParam() + ".report.json")).string();
    Outcome o = run("-q --report-json '" + json + "' " + extra_args(GetParam()) + "models/" + GetParam());
    ASSERT_EQ(o.status, 0) << o.err;
    nlohmann::json r = testjson::parse(slurp(json));
    uint64_t total = r["total_cycles"];
    EXPECT_GT(total, 0u);
    EXPECT_GE(total, r["compute_bound_cycles"].get<uint64_t>());
    EXPECT_GE(total, r["ddr_bound_cycles"].get<uint64_t>());
    for (const auto& link : r["links"]) EXPECT_LE(link["max_instance_utilization"].get<double>(), 1.0) << link["name"];
    for (const auto& op : r["ops"]) EXPECT_LE(op.value("end", uint64_t{0}), total) << op["name"];
    for (const auto& u : r["units"]) {
        const uint64_t busy = u["busy_cycles"], link = u["link_wait_cycles"], flag = u["flag_wait_cycles"],
                       issue = u["issue_cycles"], idle = u["idle_cycles"];
        EXPECT_EQ(busy + flag + issue + idle, total) << u["name"];
        EXPECT_LE(link, busy) << u["name"];
        if (u["kind"] == "cube" || u["kind"] == "vector") {
            EXPECT_EQ(link, 0u) << u["name"];
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Models, Model, testing::ValuesIn(models()), [](const testing::TestParamInfo<std::string>& i) {
    std::string n = i.param.substr(0, i.param.size() - 4);
    for (char& c : n)
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
});

TEST(Models, ResidualBlockGraphHasTheThreeLevels) {
    Outcome o = run("--dump-graph models/resnet_block.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("task graph: 1 tasks, 7 operations, 0 data movements, 14 tensors\n"), std::string::npos);
    EXPECT_NE(o.out.find("  task residual_block  [placement cube]  @23:5\n"
                         "    op 0: conv2d_1 = conv2d(x, weights1, padding=(1, 1), stride=(1, 1))  -> (1, 64, 56, 56) "
                         "float16  [cube]  @13:13\n"),
              std::string::npos)
        << o.out;
}

// The residual block is one chain: every operation is on the critical path.
TEST(Models, ResidualBlockCriticalPath) {
    std::string json = (scratch() / "rb.json").string();
    ASSERT_EQ(run("-q --report-json '" + json + "' models/resnet_block.pto").status, 0);
    nlohmann::json r = testjson::parse(slurp(json));
    EXPECT_EQ(r["critical_path"], nlohmann::json({"conv2d_1", "format_convert_1", "batch_norm_1", "relu_1", "conv2d_2",
                                                  "format_convert_2", "batch_norm_2", "add_1", "y"}));
    EXPECT_EQ(r["format_conversions"], 2);
    EXPECT_EQ(r["ops"].back()["end"], r["total_cycles"]);
}

TEST(Models, ResNet50NeedsItsBatchSize) {
    Outcome o = run("--dump-graph models/resnet50.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_NE(o.err.find("error: pypo.shape_hint: dimension 0 of 'input' is None; bind it with --shape "
                         "input=N,3,224,224"),
              std::string::npos)
        << o.err;
}

// An operation (or a variant of one) without a lowering stops the
// simulation at its call, never silently skipped.
TEST(Models, UnloweredOperationStopsAtItsCall) {
    std::string pto = write_file("dma_transpose.pto",
                                 "import pypto as pypo\n"
                                 "x = pypo.input('x', shape=(4, 8, 16))\n"
                                 "y = pypo.op.transpose(x, perm=(2, 0, 1), engine='dma')\n"
                                 "pypo.output('y', y)\n");
    Outcome o = run("'" + pto + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.rfind(pto + ":3:5: error: ", 0), 0u) << o.err;
    EXPECT_NE(o.err.find("not lowered yet"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("\ny = pypo.op.transpose(x, perm=(2, 0, 1), engine='dma')\n    ^\n"), std::string::npos)
        << o.err;
}

}  // namespace
