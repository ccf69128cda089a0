// pypo.param: a program constant that --param sets (docs/language.md §3.4).
#include <gtest/gtest.h>

#include "dsl/frontend/frontend.h"
#include "dsl/ir/graph_format.h"
#include "tests/dsl/dsl_test_util.h"

namespace {

using Params = std::map<std::string, std::string>;

dsl::TaskGraph elaborate(const std::string& text, const Params& params) {
    return dsl::elaborate_source(dsl_test::source(text), {}, params);
}

std::string error(const std::string& text, const Params& params) {
    return dsl_test::error_of([&] { elaborate(text, params); });
}

// The program's constants as --dump-graph lists them ("" when none).
std::string params_line(const dsl::TaskGraph& g) {
    const std::string text = dsl::format_graph(g);
    const size_t at = text.find("\nparams: ");
    return at == std::string::npos ? "" : text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

// One constant of each type, all four in the input's name.
const char* kFourParams =
    "import pypto as pypo\n"
    "N = pypo.param('n', 3)\n"
    "S = pypo.param('scale', 0.5)\n"
    "F = pypo.param('fused', True)\n"
    "M = pypo.param('mode', 'fast')\n"
    "x = pypo.input('x_' + str(N * 2) + '_' + str(S * 2) + '_' + str(not F) + '_' + M, shape=(4, 4))\n"
    "pypo.output('y', pypo.op.relu(x))\n";

TEST(PypoParam, DefaultsWithoutBindings) {
    dsl::TaskGraph g = elaborate(kFourParams, {});
    EXPECT_EQ(g.tensors[0].name, "x_6_1.0_False_fast");
    EXPECT_EQ(params_line(g), "params: n=3, scale=0.5, fused=True, mode='fast'");
    ASSERT_EQ(g.params.size(), 4u);
    EXPECT_EQ(g.params[3].text, "fast");
    EXPECT_EQ(g.params[3].repr, "'fast'");
    EXPECT_TRUE(g.params[1].type == dsl::ProgramParam::Type::Float);
}

TEST(PypoParam, BindingsAreReadAsTheDefaultsType) {
    dsl::TaskGraph g = elaborate(kFourParams, {{"n", "-4"}, {"scale", "1e-1"}, {"fused", "False"}, {"mode", "3"}});
    EXPECT_EQ(g.tensors[0].name, "x_-8_0.2_True_3");
    EXPECT_EQ(params_line(g), "params: n=-4, scale=0.1, fused=False, mode='3'");
    // A float binding may be written as an integer, as float("2") reads.
    EXPECT_EQ(params_line(elaborate(kFourParams, {{"scale", "2"}})), "params: n=3, scale=2.0, fused=True, mode='fast'");
}

TEST(PypoParam, NoParamsLeavesTheGraphListingAsItWas) {
    dsl::TaskGraph g =
        elaborate("import pypto as pypo\nx = pypo.input('x', shape=(4, 4))\npypo.output('y', pypo.op.relu(x))\n", {});
    EXPECT_TRUE(g.params.empty());
    EXPECT_EQ(params_line(g), "");
    EXPECT_EQ(dsl::format_graph(g).find("params"), std::string::npos);
}

TEST(PypoParam, LoopRangeFollowsTheBinding) {
    const char* prog =
        "import pypto as pypo\n"
        "L = pypo.param('layers', 1)\n"
        "x = pypo.input('x', shape=(16, 16))\n"
        "for i in range(L):\n"
        "    x = pypo.op.matmul(x, pypo.weight('w' + str(i), shape=(16, 16)))\n"
        "pypo.output('y', pypo.op.relu(x))\n";
    // The layers' matmuls and the output's relu.
    EXPECT_EQ(elaborate(prog, {}).ops.size(), 2u);
    EXPECT_EQ(elaborate(prog, {{"layers", "3"}}).ops.size(), 4u);
}

TEST(PypoParam, SameDefaultTwiceIsOneConstant) {
    const char* prog =
        "import pypto as pypo\n"
        "A = pypo.param('n', 2)\n"
        "B = pypo.param('n', 2)\n"
        "x = pypo.input('x', shape=(A, B))\n"
        "pypo.output('y', pypo.op.relu(x))\n";
    dsl::TaskGraph g = elaborate(prog, {{"n", "5"}});
    EXPECT_EQ(g.tensors[0].shape, (std::vector<int64_t>{5, 5}));
    EXPECT_EQ(params_line(g), "params: n=5");
}

TEST(PypoParam, OtherDefaultTwiceIsAnError) {
    EXPECT_EQ(error("import pypto as pypo\nA = pypo.param('n', 2)\nB = pypo.param('n', 3)\n", {}),
              "t.pto:3:21: error: pypo.param: 'n' is declared at 2:21 with default 2, here with 3\n"
              "B = pypo.param('n', 3)\n"
              "                    ^\n");
    // 1 and 1.0 are equal in Python but of other types: other constants.
    EXPECT_EQ(error("import pypto as pypo\nA = pypo.param('n', 1)\nB = pypo.param('n', 1.0)\n", {}),
              "t.pto:3:21: error: pypo.param: 'n' is declared at 2:21 with default 1, here with 1.0\n"
              "B = pypo.param('n', 1.0)\n"
              "                    ^\n");
}

TEST(PypoParam, WrongTypeOfBinding) {
    const std::string prog = "import pypto as pypo\nN = pypo.param('n', 1)\nF = pypo.param('f', False)\n";
    EXPECT_EQ(error(prog, {{"n", "x"}}),
              "t.pto:2:21: error: --param n: 'x' is not an int (the program's default is 1)\n"
              "N = pypo.param('n', 1)\n"
              "                    ^\n");
    EXPECT_EQ(error(prog, {{"n", "1.5"}}),
              "t.pto:2:21: error: --param n: '1.5' is not an int (the program's default is 1)\n"
              "N = pypo.param('n', 1)\n"
              "                    ^\n");
    EXPECT_EQ(error(prog, {{"f", "true"}}),
              "t.pto:3:21: error: --param f: 'true' is not a bool (the program's default is False)\n"
              "F = pypo.param('f', False)\n"
              "                    ^\n");
    const std::string real = "import pypto as pypo\nS = pypo.param('s', 0.5)\n";
    for (const char* bad : {"inf", "nan", "0x10", "1.5x", ""})
        EXPECT_EQ(error(real, {{"s", bad}}), "t.pto:2:21: error: --param s: '" + std::string(bad) +
                                                 "' is not a float (the program's default is 0.5)\n"
                                                 "S = pypo.param('s', 0.5)\n"
                                                 "                    ^\n")
            << bad;
}

TEST(PypoParam, UnknownBindingListsTheParameters) {
    EXPECT_EQ(error("import pypto as pypo\nL = pypo.param('layers', 1)\nP = pypo.param('pos', 0)\n"
                    "x = pypo.input('x', shape=(4, 4))\npypo.output('y', pypo.op.relu(x))\n",
                    {{"lyers", "2"}}),
              "t.pto: error: --param: the program has no parameter 'lyers'; its parameters are layers, pos\n");
    EXPECT_EQ(error("import pypto as pypo\nx = pypo.input('x', shape=(4, 4))\npypo.output('y', pypo.op.relu(x))\n",
                    {{"n", "2"}}),
              "t.pto: error: --param: the program has no parameter 'n'; it declares none\n");
}

TEST(PypoParam, NameAndDefaultAreChecked) {
    EXPECT_EQ(error("import pypto as pypo\nN = pypo.param('2n', 1)\n", {}),
              "t.pto:2:16: error: pypo.param: name must be letters, digits and '_', not starting with a digit, "
              "got '2n'\n"
              "N = pypo.param('2n', 1)\n"
              "               ^\n");
    EXPECT_EQ(error("import pypto as pypo\nN = pypo.param('n', (1, 2))\n", {}),
              "t.pto:2:21: error: pypo.param: the default must be an int, float, bool or str, got tuple\n"
              "N = pypo.param('n', (1, 2))\n"
              "                    ^\n");
    EXPECT_EQ(error("import pypto as pypo\nN = pypo.param('n')\n", {}).substr(0, 60),
              "t.pto:2:5: error: pypo.param: missing required argument 'def");
}

TEST(PypoParam, OptionTextIsNameEqualsValue) {
    std::string name, value, err;
    EXPECT_TRUE(dsl::parse_param_option("layers=2", name, value, err));
    EXPECT_EQ(name, "layers");
    EXPECT_EQ(value, "2");
    EXPECT_TRUE(dsl::parse_param_option("mode=a=b", name, value, err));
    EXPECT_EQ(value, "a=b");
    EXPECT_TRUE(dsl::parse_param_option("s=", name, value, err));
    EXPECT_EQ(value, "");
    for (const char* bad : {"layers", "=2", "2x=1", "a-b=1"}) {
        EXPECT_FALSE(dsl::parse_param_option(bad, name, value, err)) << bad;
        EXPECT_EQ(err, "expected NAME=VALUE, NAME a pypo.param of the program (e.g. layers=2), got '" +
                           std::string(bad) + "'");
    }
}

}  // namespace
