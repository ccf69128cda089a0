// conv2d(groups=, bias=) end to end through the CLI (default hardware):
// a depthwise convolution runs on the vector units as weighted window taps
// (the cubes idle; its MACs still counted in its operation's `macs`), and a
// bias is a per-column operand of the GEMM's epilogue, fused: it costs its
// own bytes and nothing else.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

nlohmann::json report(const std::string& program, const std::string& name) {
    const std::string json = (scratch() / (name + ".json")).string();
    Outcome o = run("-q --report-json '" + json + "' " + program);
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

const nlohmann::json& op_named(const nlohmann::json& r, const std::string& name) {
    for (const auto& op : r["ops"])
        if (op["name"] == name) return op;
    ADD_FAILURE() << "no operation " << name;
    return r["ops"][0];
}

std::string pointwise(const std::string& bias) {
    return "import pypto as pypo\n"
           "x = pypo.input(\"x\", shape=(1, 8, 8, 16), layout=\"NHWC\")\n"
           "w = pypo.weight(\"w\", shape=(32, 16, 1, 1))\n"
           "b = pypo.weight(\"b\", shape=(32,))\n"
           "pypo.output(\"y\", pypo.op.clip(pypo.op.conv2d(x, w" +
           bias + "), 0.0, 6.0))\n";
}

}  // namespace

// The MobileNet-v1 block of ../shared/repro/mbv1_block.pto with a real
// depthwise convolution (tests/cli/mbv1_depthwise.pto): the depthwise
// conv2d and its ReLU6 are one vector chain, the pointwise conv2d, bias and
// ReLU6 one cube group. The depthwise operation's MACs are 112 * 112 * 32
// * 9 with no cube cycles; the run's (cube) MACs are the pointwise's
// 112 * 112 * 64 * 32. Writes: the depthwise result and the output,
// 112 * 112 * (32 + 64) * 2 B. It is faster and reads less than the
// avg_pool proxy of the same block (vector_fusion_test.cpp's
// MobileNetBlockDepthwiseIsOneChain: 206,968 cycles, 2,651,392 B read):
// 9 multiplies and 8 adds per output in place of 8 adds, 3 multiplies
// and two batch_norms' operands.
TEST(DepthwiseConv, MobileNetV1BlockRunsItsDepthwiseOnTheVectorUnits) {
    Outcome o = run("tests/cli/mbv1_depthwise.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("fusion groups      2\n"
                         "  depthwise_conv2d_1 (depthwise_conv2d -> clip)\n"
                         "  conv2d_1 (conv2d -> add -> clip)\n"),
              std::string::npos)
        << o.out;
    const nlohmann::json r = report("tests/cli/mbv1_depthwise.pto", "mbv1");
    const nlohmann::json& dw = op_named(r, "depthwise_conv2d_1");
    EXPECT_EQ(dw["kind"], "depthwise_conv2d");
    EXPECT_EQ(dw["macs"].get<uint64_t>(), 112u * 112 * 32 * 9);
    EXPECT_EQ(dw["cube_cycles"].get<uint64_t>(), 0u);
    EXPECT_GT(dw["vector_cycles"].get<uint64_t>(), 0u);
    EXPECT_EQ(r["macs"].get<uint64_t>(), 112u * 112 * 64 * 32);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 112u * 112 * (32 + 64) * 2);
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 2503296u);
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 203643u);
    EXPECT_LT(r["total_cycles"].get<uint64_t>(), 206968u);
    EXPECT_LT(r["ddr_bytes_read"].get<uint64_t>(), 2651392u);
}

// A depthwise chunk is, per window position, a MUL of the window's view by
// the channel's weights and (after the first) an ADD into the sum, then
// the bias ADD: 9 + 8 + 1 VECTOR commands for a 3x3 kernel, 9 + 8 without.
TEST(DepthwiseConv, EachTapIsAMultiplyAndAnAdd) {
    const std::string head =
        "import pypto as pypo\n"
        "x = pypo.input(\"x\", shape=(1, 12, 12, 8), layout=\"NHWC\")\n"
        "w = pypo.weight(\"w\", shape=(8, 1, 3, 3))\n"
        "b = pypo.weight(\"b\", shape=(8,))\n";
    auto vector_commands = [](const std::string& text) {
        size_t n = 0, taps = 0;
        for (size_t at = text.find("VECTOR "); at != std::string::npos; at = text.find("VECTOR ", at + 1)) {
            ++n;
            const size_t eol = text.find('\n', at);
            if (text.substr(at, eol - at).find(": tap") != std::string::npos) ++taps;
        }
        return std::make_pair(n, taps);
    };
    Outcome with_bias = run("--dump-program " + write_file("dwb.pto", head + "pypo.output(\"y\", pypo.op.conv2d(x, w, "
                                                                             "padding=1, groups=8, bias=b))\n"));
    ASSERT_EQ(with_bias.status, 0) << with_bias.err;
    Outcome plain = run("--dump-program " +
                        write_file("dw.pto", head + "pypo.output(\"y\", pypo.op.conv2d(x, w, padding=1, groups=8))\n"));
    ASSERT_EQ(plain.status, 0) << plain.err;
    const auto [nb, tb] = vector_commands(with_bias.out);
    const auto [np, tp] = vector_commands(plain.out);
    ASSERT_GT(tp, 0u);
    EXPECT_EQ(tp % 9, 0u);
    const size_t chunks = tp / 9;
    EXPECT_EQ(tb, tp);
    EXPECT_EQ(np, chunks * (9 + 8));
    EXPECT_EQ(nb, chunks * (9 + 8 + 1));
}

// The bias is read once per block (4 blocks of 16 output pixels, each
// loading the 32 float16 values) and adds no write: the conv2d, add and
// clip are one group whose result alone is stored.
TEST(DepthwiseConv, CubeBiasIsAFusedEpilogue) {
    const nlohmann::json with = report(write_file("pwb.pto", pointwise(", bias=b")), "pwb");
    const nlohmann::json without = report(write_file("pw.pto", pointwise("")), "pw");
    EXPECT_EQ(with["ddr_bytes_written"].get<uint64_t>(), 8u * 8 * 32 * 2);
    EXPECT_EQ(with["ddr_bytes_written"], without["ddr_bytes_written"]);
    EXPECT_EQ(with["ddr_bytes_read"].get<uint64_t>() - without["ddr_bytes_read"].get<uint64_t>(), 4u * 32 * 2);
    EXPECT_EQ(with["macs"], without["macs"]);
}
