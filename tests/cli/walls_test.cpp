// Work that can be tiled has no "does not fit" wall (issue 17, item 3):
// the acceptance programs simulate on the default hardware, and the
// functional simulation computes the multi-pass, staged, tiled and gathered
// lowerings' values as the reference does (--check, small shapes, with a
// small L1 so the multi-pass forms are taken).
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tests/cli/cli_util.h"

namespace {

// A figure of the report ("total cycles       384,102  (...").
uint64_t figure(const std::string& out, const std::string& label) {
    std::smatch m;
    if (!std::regex_search(out, m, std::regex(label + R"(\s+([0-9,]+))"))) return 0;
    std::string digits;
    for (char c : m[1].str())
        if (c != ',') digits += c;
    return std::stoull(digits);
}

struct Ddr {
    uint64_t read = 0, written = 0;
};
Ddr ddr_of(const std::string& out) {
    std::smatch m;
    Ddr d;
    if (std::regex_search(out, m, std::regex(R"(DDR bytes\s+read ([0-9,]+), written ([0-9,]+))"))) {
        auto num = [](std::string s) {
            s.erase(std::remove(s.begin(), s.end(), ','), s.end());
            return std::stoull(s);
        };
        d.read = num(m[1].str()), d.written = num(m[2].str());
    }
    return d;
}

// softmax over (64, 32000) float16: a 64,000-byte row does not fit L1 with
// its buffers, so it runs in two passes (timing-model §10, multi-pass row
// operations): DDR reads the input twice and writes the output once. The
// passes keep DDR busy: the run is DDR-bound, bytes / 32 B per cycle, plus
// the fill and drain of one piece pipeline (under 0.1 %).
TEST(Walls, VocabularySoftmaxIsTwoPassesAtTheDdrBound) {
    for (const char* dtype : {"float16", "float32"}) {
        SCOPED_TRACE(dtype);
        const int64_t e = std::string(dtype) == "float16" ? 2 : 4;
        const std::string prog = clitest::write_file(
            "softmax.pto", std::string("import pypto as pypo\nx = pypo.input(\"x\", shape=(64, 32000), dtype=\"") +
                               dtype + "\")\npypo.output(\"y\", pypo.op.softmax(x))\n");
        const clitest::Outcome o = clitest::run("'" + prog + "'");
        ASSERT_EQ(o.status, 0) << o.err;
        const Ddr d = ddr_of(o.out);
        EXPECT_EQ(d.read, uint64_t(2 * 64 * 32000 * e));
        EXPECT_EQ(d.written, uint64_t(64 * 32000 * e));
        const uint64_t bound = (d.read + d.written) / 32, cycles = figure(o.out, "total cycles");
        EXPECT_GE(cycles, bound);
        EXPECT_LE(cycles, bound + bound / 1000);
    }
}

// (32, 512, 128) perm (1, 0, 2): one a-value's 512 rows of 128 float16 are
// 128 KiB, so the swap is tiled 16 x 16 rows; every byte crosses DDR once
// each way and the run is DDR-bound.
TEST(Walls, HeadTransposeIsTiled) {
    const std::string prog = clitest::write_file("transpose.pto",
                                                 "import pypto as pypo\nx = pypo.input(\"x\", shape=(32, 512, 128))\n"
                                                 "pypo.output(\"y\", pypo.op.transpose(x, perm=(1, 0, 2)))\n");
    const clitest::Outcome o = clitest::run("'" + prog + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    const Ddr d = ddr_of(o.out);
    EXPECT_EQ(d.read, 32u * 512 * 128 * 2);
    EXPECT_EQ(d.written, 32u * 512 * 128 * 2);
    const uint64_t bound = (d.read + d.written) / 32, cycles = figure(o.out, "total cycles");
    EXPECT_GE(cycles, bound);
    EXPECT_LE(cycles, bound + bound / 100);
}

// models/attention.pto in float32 (no mixed precision) compiles and simulates.
TEST(Walls, AttentionInFloat32Simulates) {
    std::string text = clitest::slurp(std::string(DAVINCI_SOURCE_DIR) + "/models/attention.pto");
    text = std::regex_replace(text, std::regex("float16"), "float32");
    text = std::regex_replace(text, std::regex(R"(with pypo\.precision\(mode='mixed'\):)"), "if True:");
    const clitest::Outcome o = clitest::run("'" + clitest::write_file("attention32.pto", text) + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_GT(figure(o.out, "total cycles"), 0u);
}

// --check of every new lowering on small shapes, with 8 KiB of L1 so that
// rows of 3000 float16 values take the multi-pass forms.
TEST(Walls, NewLoweringsComputeTheReferenceValues) {
    const std::string prog = clitest::write_file("walls_check.pto", R"(import pypto as pypo
x = pypo.input("x", shape=(6, 3000))
pypo.output("y", pypo.op.softmax(x))
pypo.output("z", pypo.op.softmax(x, dtype="float32"))
pypo.output("r", pypo.op.reduce_mean(x, axis=-1))
pypo.output("m", pypo.op.reduce_max(x, axis=1))
s = pypo.input("s", shape=(3, 40, 3000))
pypo.output("n", pypo.op.layer_norm(s, axis=1))
pypo.output("q", pypo.op.softmax(s, 1))
pypo.output("a", pypo.op.reduce_mean(s, axis=(0, 2), keepdims=True))
pypo.output("b", pypo.op.reduce_sum(s, axis=(0, 2)))
t = pypo.input("t", shape=(8, 64, 40))
pypo.output("tt", pypo.op.transpose(t, perm=(1, 0, 2)))
pypo.output("t2", pypo.op.transpose(t, perm=(2, 1, 0)))
pypo.output("t3", pypo.op.transpose(t, perm=(1, 2, 0)))
mask = pypo.input("mask", shape=(64, 40))
pypo.output("g", pypo.op.add(t, mask))
col = pypo.input("col", shape=(8, 64, 1))
pypo.output("h", pypo.op.mul(t, col))
)");
    const clitest::Outcome o = clitest::run("'" + prog + "' --set cluster.l1_kib=8 --check");
    ASSERT_EQ(o.status, 0) << o.err << o.out;
    for (const char* name : {"y", "z", "r", "m", "n", "q", "a", "b", "tt", "t2", "t3", "g", "h"})
        EXPECT_NE(o.out.find(std::string("  ") + name + " ("), std::string::npos) << name;
    EXPECT_EQ(o.out.find("-> fail"), std::string::npos) << o.out;
    // 13 outputs, each checked.
    size_t passes = 0;
    for (size_t at = 0; (at = o.out.find("-> pass", at)) != std::string::npos; ++at) ++passes;
    EXPECT_EQ(passes, 13u) << o.out;
}

// A causal mask broadcast over heads, (512, 512) float16 (512 KiB, more than
// L1 / 8) onto (12, 512, 512): gathered chunk by chunk, read once per head.
TEST(Walls, LargeBroadcastOperandIsGathered) {
    const std::string prog = clitest::write_file("mask.pto", R"(import pypto as pypo
s = pypo.input("s", shape=(12, 512, 512))
mask = pypo.input("mask", shape=(512, 512))
pypo.output("y", pypo.op.add(s, mask))
)");
    const clitest::Outcome o = clitest::run("'" + prog + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    const Ddr d = ddr_of(o.out);
    EXPECT_EQ(d.read, 2u * 12 * 512 * 512 * 2);
    EXPECT_EQ(d.written, 12u * 512 * 512 * 2);
}

}  // namespace
