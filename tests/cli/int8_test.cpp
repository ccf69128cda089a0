// int8 end to end through the real binary (docs/language.md §3.3,
// docs/timing-model.md §7.1): the cube's int8 rate (twice float16's on the
// documents' machine, 32 deep on the Ascend-class cube), the int32
// write-back, a decode-shaped GEMV whose weight bytes and cycles halve,
// --check exact for integers, and the language's rules for integer tensors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

nlohmann::json report(const std::string& args) {
    const std::string json = (scratch() / "int8.json").string();
    Outcome o = run("-q --report-json '" + json + "' " + args);
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

uint64_t n(const nlohmann::json& r, const char* key) { return r[key].get<uint64_t>(); }

// One 4x4x4 tile: 7 + ceil(4/2) = 9 cube cycles (float16: 7 + 4 = 11).
// 512^3: half float16's cube cycles (4,201,472 against 8,402,944) and
// half its DDR reads; C is int32, twice float16's bytes written.
TEST(Int8, MatmulRunsAtTwiceTheFloat16Rate) {
    EXPECT_EQ(n(report("--op matmul --shape 4,4,4 --dtype int8")["ops"][0], "cube_cycles"), 9u);
    const nlohmann::json h = report("--op matmul --shape 512,512,512");
    const nlohmann::json i = report("--op matmul --shape 512,512,512 --dtype int8");
    EXPECT_EQ(i["program"], "<--op matmul 512x512x512 int8>");
    EXPECT_EQ(n(h["ops"][0], "cube_cycles"), 8402944u);
    EXPECT_EQ(n(i["ops"][0], "cube_cycles"), 4201472u);
    EXPECT_EQ(n(h, "total_cycles"), 548770u);
    EXPECT_EQ(n(i, "total_cycles"), 303074u);
    EXPECT_EQ(n(h, "ddr_bytes_read"), 4194304u);
    EXPECT_EQ(n(i, "ddr_bytes_read"), 2097152u);
    EXPECT_EQ(n(i, "ddr_bytes_written"), 1048576u);  // 512 x 512 int32
    EXPECT_EQ(n(h, "compute_bound_cycles"), 524288u);
    EXPECT_EQ(n(i, "compute_bound_cycles"), 262144u);  // 512 int8 MACs a cycle
}

// The Ascend-class cube: 32 bytes of K a cycle, 32 int8 elements deep.
// float16: 64 MATMULs of 256 x 64 x 128, each 6 cycles of start-up and
// 16 * 4 * 8 = 512 of MACs; int8: 64 of 128 x 128 x 128, 6 + 8 * 4 * 8
// (the tiling search's choice once it costs the cubes' read path from
// L1, 3,936 cycles in all; 32 of 128 x 256 x 128 took 4,005).
TEST(Int8, AscendCubeGoesThirtyTwoDeep) {
    const std::string ascend = "--config configs/ascend_910b_class.json --op matmul --shape 512,512,512";
    EXPECT_EQ(n(report(ascend)["ops"][0], "cube_cycles"), 33152u);
    EXPECT_EQ(n(report(ascend + " --dtype int8")["ops"][0], "cube_cycles"), 16768u);
    EXPECT_EQ(n(report(ascend + " --dtype int8"), "compute_bound_cycles"), 683u);
}

// LLM decode: a 1 x 4096 x 4096 GEMV is DDR-bound; int8 weights move
// half the bytes (16 MiB + x instead of 32 MiB + x) and the cycles
// follow: 527,666 against 1,051,922 (ratio 0.5016), each within 0.5 % of
// its DDR bound.
TEST(Int8, DecodeGemvHalvesWeightBytesAndCycles) {
    const nlohmann::json h = report("--op matmul --shape 1,4096,4096");
    const nlohmann::json i = report("--op matmul --shape 1,4096,4096 --dtype int8");
    EXPECT_EQ(n(h, "ddr_bytes_read"), 33570816u);  // 4096 x 4096 x 2 + x, read once per cube column
    EXPECT_EQ(n(i, "ddr_bytes_read"), 16785408u);
    EXPECT_EQ(n(h, "total_cycles"), 1051922u);
    EXPECT_EQ(n(i, "total_cycles"), 527666u);
    EXPECT_LT(double(n(i, "total_cycles")), 1.005 * double(n(i, "ddr_bound_cycles")));
    EXPECT_LT(double(n(h, "total_cycles")), 1.005 * double(n(h, "ddr_bound_cycles")));
}

// Weight-only int8 (W8A16), the deployment's form: matmul(x,
// dequantize(w, scale)) loads the int8 weight's B panels (one byte an
// element) and dequantises each in L1 on the vector unit, a cast and a
// multiply by the columns' scales, before the cube reads it. The same
// 1 x 4096 x 4096 decode GEMV reads the int8 weight, x once per block (4
// x 8 KiB) and the scales once (8 KiB): 16,818,176 bytes, and takes
// 529,284 cycles, against 1,051,922 with a float16 weight and 2,625,912
// when the weight went through DDR in float16 first. The vector work
// (cast and multiply per panel) overlaps the panels' loads.
TEST(Int8, WeightOnlyGemvDequantisesInL1) {
    const std::string pto = write_file("w8a16.pto",
                                       "import pypto as pypo\n"
                                       "x = pypo.input(\"x\", shape=(1, 4096))\n"
                                       "w = pypo.weight(\"w\", shape=(4096, 4096), dtype=\"int8\")\n"
                                       "s = pypo.weight(\"s\", shape=(4096,))\n"
                                       "pypo.output(\"y\", pypo.op.matmul(x, pypo.op.dequantize(w, s)))\n");
    const nlohmann::json r = report("'" + pto + "'");
    EXPECT_EQ(n(r, "ddr_bytes_read"), 4096u * 4096 + 4 * 8192 + 8192);
    EXPECT_EQ(n(r, "ddr_bytes_written"), 8192u);
    EXPECT_EQ(n(r, "total_cycles"), 529284u);
    EXPECT_LT(double(n(r, "total_cycles")), 1.01 * double(n(r, "ddr_bound_cycles")));
    // The dequantize emits no block of its own; its vector work is charged
    // to it: the cast reads 16 MiB of int8 and the multiply 32 MiB of
    // float16 at 128 B a cycle (131,072 + 262,144), plus the 8-cycle
    // pipeline of each of its 1,024 commands (4 blocks of 1,024 columns,
    // 128 panels of 32 rows each, a cast and a multiply per panel): 401,408,
    // spread over the four clusters' vector units.
    ASSERT_EQ(r["ops"].size(), 2u);
    EXPECT_EQ(r["ops"][0]["kind"], "dequantize");
    EXPECT_EQ(n(r["ops"][0], "vector_cycles"), 131072u + 262144 + 8 * 1024);
    EXPECT_EQ(r["ops"][1]["kind"], "matmul");
}

TEST(Int8, CheckIsExactForIntegers) {
    Outcome o = run("-q --check tests/functional/int8.pto");
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_NE(o.out.find("  acc (64, 80) (int32 tolerance 0 x (|ref| + "), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("  q16 (64, 80) (int8 tolerance 0 x (|ref| + "), std::string::npos) << o.out;
}

// The int32 accumulator goes back to L1 as it is (no narrowing).
TEST(Int8, WriteBackKeepsTheInt32Accumulator) {
    Outcome o = run("--dump-program tests/functional/int8.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("MATMUL 16x16x32 int8  C:"), std::string::npos) << o.out.substr(0, 3000);
    EXPECT_EQ(o.out.find("f32->f16"), std::string::npos);
    EXPECT_NE(o.out.find("float32->int8  L1:"), std::string::npos);
    EXPECT_NE(o.out.find("float16->int8  L1:"), std::string::npos);
    EXPECT_NE(o.out.find("int32->float32  L1:"), std::string::npos);
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

TEST(Int8, LanguageRulesForIntegerTensors) {
    const std::string dir = scratch().string();
    auto error_of = [&](const std::string& body) {
        Outcome o = run("'" + write_file("bad.pto", "import pypto as pypo\n" + body) + "'");
        EXPECT_EQ(o.status, 2);
        return first_line(o.err);
    };
    EXPECT_EQ(error_of("a = pypo.input(\"a\", shape=(4, 4), dtype=\"int8\")\npypo.output(\"y\", pypo.op.relu(a))\n"),
              dir +
                  "/bad.pto:3:31: error: relu: a is int8: only cast, matmul, dequantize, embedding and argmax take "
                  "integer tensors (cast "
                  "it to a "
                  "float dtype first)");
    EXPECT_EQ(error_of("a = pypo.input(\"a\", shape=(4, 4), dtype=\"int8\")\nb = pypo.input(\"b\", shape=(4, 4))\n"
                       "pypo.output(\"y\", pypo.op.matmul(a, b))\n"),
              dir +
                  "/bad.pto:4:18: error: matmul: int8 operands multiply only int8 operands, got a is (4, 4) "
                  "int8, b is (4, 4) float16 (cast the other one to int8)");
    EXPECT_EQ(error_of("a = pypo.input(\"a\", shape=(4, 4), dtype=\"int8\")\n"
                       "pypo.output(\"y\", pypo.op.matmul(a, a, dtype=\"float16\"))\n"),
              dir +
                  "/bad.pto:3:45: error: matmul: an int8 matmul makes int32 (its accumulator), not float16: cast "
                  "its result");
    EXPECT_EQ(error_of("a = pypo.input(\"a\", shape=(4, 4))\npypo.output(\"y\", pypo.op.exp(a, dtype=\"int32\"))\n"),
              dir + "/bad.pto:3:39: error: exp: dtype int32: only cast, matmul and quantize make integer tensors");
}

}  // namespace
