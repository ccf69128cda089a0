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
// rows of 3000 float16 values take the multi-pass forms, the transposes
// are tiled, the (64, 40) and (8, 64, 1) operands gathered (over 1 KiB)
// upsample (bilinear, and nearest whose planes do not fit) runs in bands
// of a few rows, and a column of 3000 values over the middle axis of
// (2, 3000, 3) is transposed through DDR scratch first.
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
img = pypo.input("img", shape=(1, 3, 20, 24))
pypo.output("u", pypo.op.upsample(img, factor=(2, 3), mode="bilinear"))
pypo.output("u32", pypo.op.upsample(img, factor=(3, 1), mode="bilinear", dtype="float32"))
nhwc = pypo.input("nhwc", shape=(2, 7, 5, 4), layout="NHWC")
pypo.output("un", pypo.op.upsample(nhwc, factor=4, mode="bilinear"))
pypo.output("nu", pypo.op.upsample(img, factor=(2, 3)))
deep = pypo.input("deep", shape=(2, 3000, 3))
pypo.output("dr", pypo.op.reduce_mean(deep, axis=1))
pypo.output("ds", pypo.op.softmax(deep, 1, dtype="float32"))
)");
    const clitest::Outcome o = clitest::run("'" + prog + "' --set cluster.l1_kib=8 --check");
    ASSERT_EQ(o.status, 0) << o.err << o.out;
    for (const char* name :
         {"y", "z", "r", "m", "n", "q", "a", "b", "tt", "t2", "t3", "g", "h", "u", "u32", "un", "nu", "dr", "ds"})
        EXPECT_NE(o.out.find(std::string("  ") + name + " ("), std::string::npos) << name;
    EXPECT_EQ(o.out.find("-> fail"), std::string::npos) << o.out;
    // 19 outputs, each checked.
    size_t passes = 0;
    for (size_t at = 0; (at = o.out.find("-> pass", at)) != std::string::npos; ++at) ++passes;
    EXPECT_EQ(passes, 19u) << o.out;
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

// A softmax row of 2,000 float16 values in 8 KiB of L1: the one-pass
// buffers need 5 x 4,000 bytes, so it runs in passes, and P = 4 pieces of
// w = 500 are the fewest that fit (x and y 2 slots each, work, partials,
// stats, each rounded up to 32 bytes: 7,168 bytes; 3 pieces of 667 need
// 9,440). Each VECTOR command takes §8's cycles
// (W = 128 B/cycle, pipeline 8, exp and div 4 passes): on a piece (1 x 500,
// 1,000 bytes, 8 beats) reduce_max and reduce_sum 8 + 8 + ceil(log2(64)) =
// 22, sub 16, exp 8 + 4 * 8 = 40, div 40; on the 4 partials (1 beat)
// reduce 8 + 1 + 2 = 11, sub and mul 9, exp 12. Pass 1: 4 x (reduce_max,
// sub, exp, reduce_sum) then the combine (reduce_max, sub, exp, mul,
// reduce_sum); pass 2: 4 x (sub, exp, div). 4 x 100 + 52 + 4 x 96 = 836
// vector cycles, each command after the previous one on vector0.
TEST(Walls, MultiPassSoftmaxCommandsTakeTheirVectorCycles) {
    const std::string prog = clitest::write_file("softmax2k.pto",
                                                 "import pypto as pypo\nx = pypo.input(\"x\", shape=(1, 2000))\n"
                                                 "pypo.output(\"y\", pypo.op.softmax(x))\n");
    const std::string csv = (clitest::scratch() / "softmax2k.csv").string();
    const clitest::Outcome o = clitest::run("'" + prog + "' --set cluster.l1_kib=8 --timing-csv '" + csv + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    struct Expected {
        const char* op;
        uint64_t cycles;
    };
    std::vector<Expected> want;
    for (int j = 0; j < 4; ++j)
        want.insert(want.end(), {{"reduce_max", 22}, {"sub", 16}, {"exp", 40}, {"reduce_sum", 22}});
    want.insert(want.end(), {{"reduce_max", 11}, {"sub", 9}, {"exp", 12}, {"mul", 9}, {"reduce_sum", 11}});
    for (int j = 0; j < 4; ++j) want.insert(want.end(), {{"sub", 16}, {"exp", 40}, {"div", 40}});
    std::vector<clitest::TimingRow> vec;
    for (const clitest::TimingRow& r : clitest::read_timing_csv(csv))
        if (r.engine == "vector0") vec.push_back(r);
    ASSERT_EQ(vec.size(), want.size());
    uint64_t busy = 0;
    for (size_t k = 0; k < vec.size(); ++k) {
        SCOPED_TRACE(k);
        EXPECT_EQ(vec[k].tag, std::string("\"y: ") + want[k].op + "\"");
        EXPECT_EQ(vec[k].end - vec[k].start, want[k].cycles);
        if (k > 0) EXPECT_GE(vec[k].start, vec[k - 1].end);
        busy += vec[k].end - vec[k].start;
    }
    EXPECT_EQ(busy, 836u);
    const Ddr d = ddr_of(o.out);
    EXPECT_EQ(d.read, 2u * 2000 * 2);
    EXPECT_EQ(d.written, 2000u * 2);
}

}  // namespace
