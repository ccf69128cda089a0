// --param NAME=VALUE sets a program's pypo.param constants
// (docs/language.md §3.4): what a run with it reports, and each mistake's
// message (exit status 2, nothing written).
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>
#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

// A chain of `layers` 64x64x64 float16 matmuls: each reads the previous
// one's result, so the layers run one after another.
const char* const kChain =
    "import pypto as pypo\n"
    "LAYERS = pypo.param(\"layers\", 1)\n"
    "POS = pypo.param(\"pos\", 0)\n"
    "x = pypo.input(\"x\", shape=(64, 64))\n"
    "for i in range(LAYERS):\n"
    "    x = pypo.op.matmul(x, pypo.weight(\"w\" + str(i), shape=(64, 64)))\n"
    "pypo.output(\"y\", x)\n";

const std::string kUsageTail =
    "usage: davinci-sim [options] PROGRAM.pto\n"
    "       davinci-sim [options] MODEL.onnx   (an ONNX model: docs/onnx.md)\n"
    "       davinci-sim [options] --program-json PROGRAM.json\n"
    "       davinci-sim [options] --op matmul --shape M,K,N [--dtype float32]\n"
    "       davinci-sim [options] --op conv2d --shape H,W,C,R,S,F,stride [--dtype float32]\n"
    "       davinci-sim [options] --topology LAYERS.csv [--ops-csv REPORT.csv]\n"
    "       davinci-sim profile [options] PROGRAM.pto -o PROFILE.json   (= --profile PROFILE.json)\n"
    "try 'davinci-sim --help'\n";

nlohmann::json report(const std::string& prog, const std::string& params) {
    const std::string path = (scratch() / "param.json").string();
    Outcome o = run("-q --report-json '" + path + "' " + params + " '" + prog + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(path));
}

// One layer is one matmul of 64x64x64 on the default machine: 1,757 cycles;
// two layers, the second's blocks each waiting for the first's blocks that
// wrote the rows they read (timing model §10, "Block dependencies"), 4
// cycles short of twice that, and twice the DDR bytes read (32,768 B per layer: the operands of
// 8,192 B each as the matmul's tiling reads them, --dump-program's panels).
TEST(ParamOption, LayerCountScalesTheChain) {
    const std::string prog = write_file("chain.pto", kChain);
    const nlohmann::json one = report(prog, "");
    const nlohmann::json two = report(prog, "--param layers=2");
    EXPECT_EQ(one["total_cycles"], 1757);
    EXPECT_EQ(two["total_cycles"], 3510);
    EXPECT_EQ(one["ddr_bytes_read"], 32768);
    EXPECT_EQ(two["ddr_bytes_read"], 65536);
    EXPECT_EQ(one["params"], testjson::parse(R"({"layers": 1, "pos": 0})"));
    EXPECT_EQ(two["params"], testjson::parse(R"({"layers": 2, "pos": 0})"));
}

TEST(ParamOption, ValuesInTheReportsAndTheGraph) {
    const std::string prog = write_file("typed.pto",
                                        "import pypto as pypo\n"
                                        "S = pypo.param('scale', 0.5)\n"
                                        "F = pypo.param('fused', True)\n"
                                        "M = pypo.param('mode', 'fast')\n"
                                        "x = pypo.input('x', shape=(16, 16))\n"
                                        "pypo.output('y', pypo.op.relu(x))\n");
    const std::string set = "--param fused=False --param mode=slow --param scale=2";
    EXPECT_EQ(report(prog, set)["params"], testjson::parse(R"({"scale": 2.0, "fused": false, "mode": "slow"})"));
    Outcome text = run(set + " '" + prog + "'");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_EQ(text.out.rfind("davinci-sim: " + prog +
                                 " on built-in default\nparams: scale=2.0, fused=False, "
                                 "mode='slow'\nhardware: ",
                             0),
              0u)
        << text.out;
    Outcome graph = run("--dump-graph " + set + " '" + prog + "'");
    ASSERT_EQ(graph.status, 0) << graph.err;
    EXPECT_EQ(graph.out.rfind("task graph: 0 tasks, 1 operations, 0 data movements, 2 tensors\n"
                              "params: scale=2.0, fused=False, mode='slow'\n\ntensors\n",
                              0),
              0u)
        << graph.out;
}

// A program without pypo.param reports no params: its outputs are as before.
TEST(ParamOption, NoParamsNoKey) {
    const std::string path = (scratch() / "plain.json").string();
    Outcome o = run("-q --report-json '" + path + "' models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_FALSE(testjson::parse(slurp(path)).contains("params"));
    Outcome text = run("models/gemm_256.pto");
    EXPECT_EQ(text.out.find("params"), std::string::npos);
}

// Each mistake: exit status 2, one message, no report written.
Outcome refused(const std::string& args) {
    const std::filesystem::path path = scratch() / "refused.json";
    std::filesystem::remove(path);
    Outcome o = run("--report-json '" + path.string() + "' " + args);
    EXPECT_EQ(o.status, 2) << args;
    EXPECT_EQ(o.out, "") << args;
    EXPECT_FALSE(std::filesystem::exists(path)) << args;
    return o;
}

TEST(ParamOption, UnknownNameListsTheParameters) {
    const std::string prog = write_file("chain.pto", kChain);
    EXPECT_EQ(refused("--param lyers=2 '" + prog + "'").err,
              prog + ": error: --param: the program has no parameter 'lyers'; its parameters are layers, pos\n");
    EXPECT_EQ(refused("--param layers=2 models/gemm_256.pto").err,
              "models/gemm_256.pto: error: --param: the program has no parameter 'layers'; it declares none\n");
}

TEST(ParamOption, WrongTypeIsAnErrorAtTheDefault) {
    const std::string prog = write_file("chain.pto", kChain);
    EXPECT_EQ(refused("--param layers=x '" + prog + "'").err,
              prog +
                  ":2:31: error: --param layers: 'x' is not an int (the program's default is 1)\n"
                  "LAYERS = pypo.param(\"layers\", 1)\n"
                  "                              ^\n");
}

TEST(ParamOption, OptionMistakesBeforeTheProgramIsRead) {
    // The program does not exist: these are found before it is opened.
    EXPECT_EQ(refused("--param layers=1 --param layers=2 no_such.pto").err,
              "davinci-sim: error: --param: 'layers' is given twice\n" + kUsageTail);
    EXPECT_EQ(refused("--param layers no_such.pto").err,
              "davinci-sim: error: --param: expected NAME=VALUE, NAME a pypo.param of the program (e.g. layers=2), "
              "got 'layers'\n" +
                  kUsageTail);
    EXPECT_EQ(
        refused("--param layers=2 --op matmul --shape 16,16,16").err,
        "davinci-sim: error: --param sets a .pto program's constants; --op and --topology have none\n" + kUsageTail);
    EXPECT_EQ(refused("--param layers=2 --program-json no_such.json").err,
              "davinci-sim: error: --param needs a .pto program, not --program-json\n" + kUsageTail);
}

}  // namespace
