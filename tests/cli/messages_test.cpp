// print and pypo.log (docs/language.md §3.11) in the outputs: the text
// report, --report-json and the Chrome trace give each message with the
// cycle it executed at (sim/trace/messages.h), and with --functional the
// statistics of the tensors it shows (sim/cli/driver/message_values.h).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_report.h"
#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

// On the 910B2 preset, whose vector cores take blocks apart from the cube
// cores, a short relu runs beside a long matmul and ends first. A log after
// the relu executes when the relu (the operation before it) has finished,
// a print after it when both have.
const char* kProgram =
    "import pypto as pypo\n"
    "z = pypo.input(\"z\", shape=(512, 512))\n"
    "w = pypo.input(\"w\", shape=(512, 512))\n"
    "x = pypo.input(\"x\", shape=(64, 64))\n"
    "big = pypo.op.matmul(z, w)\n"
    "small = pypo.op.relu(x)\n"
    "pypo.log(\"small done\", small.shape)\n"
    "print(\"all\", \"done\", sep=\"-\")\n"
    "pypo.output(\"big\", big)\n"
    "pypo.output(\"y\", pypo.op.add(small, small))\n";

uint64_t op_end(const nlohmann::json& r, const std::string& kind) {
    for (const auto& o : r["ops"])
        if (o["kind"] == kind) return o["end"].get<uint64_t>();
    ADD_FAILURE() << "no " << kind;
    return 0;
}

}  // namespace

TEST(Messages, EachHasTheCycleItExecutedAt) {
    const std::string pto = write_file("messages.pto", kProgram);
    const std::string args = "--config configs/ascend_910b2.json '" + pto + "'";
    const nlohmann::json r = run_report(args, "messages");
    ASSERT_EQ(r["messages"].size(), 2u);
    const uint64_t relu = op_end(r, "relu"), matmul = op_end(r, "matmul");
    ASSERT_LT(relu, matmul);  // the relu is done first: the two cycles differ
    EXPECT_EQ(
        r["messages"][0],
        (nlohmann::json{{"text", "small done (64, 64)"}, {"kind", "log"}, {"cycle", relu}, {"where", pto + ":7:1"}}));
    EXPECT_EQ(r["messages"][1],
              (nlohmann::json{{"text", "all-done"}, {"kind", "print"}, {"cycle", matmul}, {"where", pto + ":8:1"}}));
    // The operation after the print waits for the drain.
    EXPECT_GT(op_end(r, "add"), matmul);

    const Outcome text = run(args);
    EXPECT_NE(text.out.find("\nmessages (print, pypo.log)\n  log at cycle " + std::to_string(relu) +
                            ": small done (64, 64)  (" + pto + ":7:1)\n"),
              std::string::npos)
        << text.out;

    // The Chrome trace: an instant event on the chip for each.
    const std::string trace = (scratch() / "messages.trace.json").string();
    ASSERT_EQ(run("-q --trace '" + trace + "' " + args).status, 0);
    const nlohmann::json events = testjson::parse(slurp(trace))["traceEvents"];
    std::vector<nlohmann::json> instants;
    for (const auto& e : events)
        if (e["ph"] == "i") instants.push_back(e);
    ASSERT_EQ(instants.size(), 2u);
    EXPECT_EQ(instants[0]["name"], "small done (64, 64)");
    EXPECT_EQ(instants[0]["cat"], "log");
    EXPECT_EQ(instants[0]["args"]["cycle"], relu);
    EXPECT_EQ(instants[1]["cat"], "print");
    EXPECT_EQ(instants[1]["args"]["cycle"], matmul);
}

// A program without messages has no "messages" key (other reports are unchanged).
TEST(Messages, NoneNoKey) { EXPECT_FALSE(run_report("models/gemm_256.pto", "no_messages").contains("messages")); }

// With --functional a tensor a message shows carries its values'
// statistics: an input's as given, a result's as computed (the relu of the
// input below: 0, 0, 0.5, 2, 0, 3, 0, 0), NaNs and infinities counted
// (0 / 0 five times in d; the input over +0 in e: -inf four times, +inf
// three, 0 / 0 once); an on-chip result's values are not kept.
TEST(Messages, FunctionalRunShowsTheTensorsValues) {
    const std::string npy =
        write_file("m.npy", npy_f32("(2, 4)", {-1.0f, -2.5f, 0.5f, 2.0f, -0.5f, 3.0f, -4.0f, 0.0f}));
    const std::string pto = write_file("values.pto",
                                       "import pypto as pypo\n"
                                       "a = pypo.input('a', shape=(2, 4), dtype='float32')\n"
                                       "b = pypo.op.relu(a)\n"
                                       "c = pypo.op.exp(b, target='L1')\n"
                                       "d = pypo.op.div(b, b)\n"
                                       "e = pypo.op.div(a, pypo.op.sub(b, b))\n"
                                       "print('in', a, 'out', [b, {'c': c}])\n"
                                       "pypo.log(d, e)\n"
                                       "pypo.output('y', pypo.op.add(c, d))\n"
                                       "pypo.output('z', e)\n");
    const nlohmann::json r = run_report("--functional --input a='" + npy + "' '" + pto + "'", "values");
    ASSERT_EQ(r["messages"].size(), 2u);
    EXPECT_EQ(r["messages"][0]["text"],
              "in <tensor a (2, 4) float32: min -4, max 3, mean -0.3125> out [<tensor relu_1 (2, 4) float32: min 0, "
              "max 3, mean 0.6875>, {'c': <tensor exp_1 (2, 4) float32: values not kept in memory>}]");
    EXPECT_EQ(r["messages"][1]["text"],
              "<tensor div_1 (2, 4) float32: min 1, max 1, mean 1, nan 5> <tensor div_2 (2, 4) float32: min -inf, "
              "max inf, nan 1, inf 7>");
    // Without --functional: no values.
    const nlohmann::json t = run_report("'" + pto + "'", "values_timing");
    ASSERT_EQ(t["messages"].size(), 2u);
    EXPECT_EQ(
        t["messages"][0]["text"],
        "in <tensor a (2, 4) float32> out [<tensor relu_1 (2, 4) float32>, {'c': <tensor exp_1 (2, 4) float32>}]");
}
