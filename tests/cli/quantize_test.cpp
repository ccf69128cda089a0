// quantize / dequantize end to end through the CLI (default hardware, one
// DMA command in flight per engine, as vector_ops_test.cpp's derivations
// assume): the vector commands of each, their cycles, the DDR bytes, and
// the diagnostics of the language's rules (docs/language.md "quantize,
// dequantize").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_util.h"
#include "vector_op_report.h"

using namespace clitest;

namespace {

uint64_t n(const nlohmann::json& r, const char* key) { return r[key].get<uint64_t>(); }

}  // namespace

// quantize of a (64, 256) float16 x by a float16 (256,) scale: 16 rows per
// cluster, one chunk (N = 4096 elements). Per vector unit (W = 128 B, P = 8,
// vector.divide.cycles_per_repeat 4): the resident scale's cast to float32 once per
// block, 8 + 512 / 128 = 12; the chunk's cast to float32, 8 + 8192 / 128 =
// 72; the division, 8 + 4 x 16384 / 128 = 520; the cast float32 -> int8
// (timed by its source bytes), 8 + 16384 / 128 = 136: 740. DDR: x once
// (32,768 B), the scale once per block (4 x 512 B), the int8 result
// (16,384 B).
TEST(Quantize, CastDivideCastPerChunk) {
    nlohmann::json r = program_report("quantize",
                                      "import pypto as pypo\n"
                                      "x = pypo.input(\"x\", shape=(64, 256))\n"
                                      "s = pypo.input(\"s\", shape=(256,))\n"
                                      "pypo.output(\"q\", pypo.op.quantize(x, s))\n");
    EXPECT_EQ(n(r, "ddr_bytes_read"), 32768u + 4 * 512);
    EXPECT_EQ(n(r, "ddr_bytes_written"), 16384u);
    EXPECT_EQ(n(r, "total_cycles"), 2634u);
    for (int c = 0; c < 4; ++c)
        EXPECT_EQ(unit_busy_cycles(r, "cluster" + std::to_string(c) + ".vector0"), 12u + 72 + 520 + 136);
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["kind"], "quantize");
    // Per block: the scale's load and cast, x's load and cast, the
    // division, the cast to int8, the store.
    EXPECT_EQ(n(r["ops"][0], "commands"), 4u * 7);
}

// A float32 x needs no cast on arrival, and a float32 scale none in the
// prologue: the division and the cast to int8 alone, 520 + 136.
TEST(Quantize, Float32InputsAreNotCast) {
    nlohmann::json r = program_report("quantize_f32",
                                      "import pypto as pypo\n"
                                      "x = pypo.input(\"x\", shape=(64, 256), dtype=\"float32\")\n"
                                      "s = pypo.input(\"s\", shape=(1,), dtype=\"float32\")\n"
                                      "pypo.output(\"q\", pypo.op.quantize(x, s))\n");
    EXPECT_EQ(unit_busy_cycles(r, "cluster0.vector0"), 520u + 136);
    EXPECT_EQ(n(r["ops"][0], "commands"), 4u * 5);
}

// dequantize of a (64, 256) int8 q by a float16 (256,) scale into float16:
// q cast to float16 as it arrives, 8 + 4096 / 128 = 40, and one multiply,
// 8 + 8192 / 128 = 72 (the scale has the output's dtype: no cast). DDR: q
// (16,384 B), the scale per block (4 x 512 B), the float16 result (32,768 B).
TEST(Dequantize, CastOnArrivalAndOneMultiply) {
    nlohmann::json r = program_report("dequantize",
                                      "import pypto as pypo\n"
                                      "q = pypo.input(\"q\", shape=(64, 256), dtype=\"int8\")\n"
                                      "s = pypo.input(\"s\", shape=(256,))\n"
                                      "pypo.output(\"y\", pypo.op.dequantize(q, s))\n");
    EXPECT_EQ(n(r, "ddr_bytes_read"), 16384u + 4 * 512);
    EXPECT_EQ(n(r, "ddr_bytes_written"), 32768u);
    EXPECT_EQ(n(r, "total_cycles"), 2006u);
    for (int c = 0; c < 4; ++c) EXPECT_EQ(unit_busy_cycles(r, "cluster" + std::to_string(c) + ".vector0"), 40u + 72);
    EXPECT_EQ(r["ops"][0]["kind"], "dequantize");
    EXPECT_EQ(n(r["ops"][0], "commands"), 4u * 5);
}

// The diagnostics of the shape and dtype rules.
TEST(Quantize, Errors) {
    struct Case {
        const char* call;
        const char* message;
    };
    for (const Case& c :
         {Case{"pypo.op.quantize(x, t)",
               "bad.pto:7:25: error: quantize: scale must have shape (96,) (one per channel, the last axis of the "
               "input) or (1,): t is (16,) float16, x is (16, 96) float16"},
          Case{"pypo.op.quantize(q8, s)",
               "bad.pto:7:22: error: quantize: x must be a float tensor: q8 is (16, 96) int8"},
          Case{"pypo.op.quantize(x, si)",
               "bad.pto:7:25: error: quantize: scale must be a float tensor: si is (96,) int8"},
          Case{"pypo.op.quantize(x, s, \"int32\")", "bad.pto:7:28: error: quantize: dtype must be int8, got int32"},
          Case{"pypo.op.quantize(x, 0.5)", "bad.pto:7:25: error: quantize: scale must be a tensor, got float"},
          Case{"pypo.op.dequantize(x, s)",
               "bad.pto:7:24: error: dequantize: q must be an int8 tensor: x is (16, 96) float16"},
          Case{"pypo.op.dequantize(q8, s, dtype=\"int8\")",
               "bad.pto:7:37: error: dequantize: dtype must be a float dtype, got int8"}}) {
        std::string pto = write_file("bad.pto", std::string("import pypto as pypo\n"
                                                            "x = pypo.input(\"x\", shape=(16, 96))\n"
                                                            "q8 = pypo.input(\"q8\", shape=(16, 96), dtype=\"int8\")\n"
                                                            "s = pypo.input(\"s\", shape=(96,))\n"
                                                            "t = pypo.input(\"t\", shape=(16,))\n"
                                                            "si = pypo.input(\"si\", shape=(96,), dtype=\"int8\")\n"
                                                            "y = ") +
                                                    c.call + "\n");
        Outcome o = run("'" + pto + "'");
        EXPECT_EQ(o.status, 2) << c.call;
        EXPECT_NE(o.err.find(c.message), std::string::npos) << o.err;
    }
}

// The rounding on chosen values, through the functional model and --check
// (exact for int8): ties to even (45.5 / 7 = 6.5 -> 6, where a multiply by
// float32(1/7) would give 6.5000005 -> 7; 2.5 -> 2; -0.5 -> 0; 3.5 -> 4),
// saturation (300 -> 127, -300 -> -128), a division by zero (1 / 0 -> 127)
// and NaN (0 / 0 -> 0).
TEST(Quantize, RoundsHalfToEvenAndSaturates) {
    const std::string x = write_file("ties_x.npy", npy_f32("(1, 8)", {45.5f, 2.5f, -0.5f, 3.5f, 300, -300, 1, 0}));
    const std::string s = write_file("ties_s.npy", npy_f32("(8,)", {7, 1, 1, 1, 1, 1, 0, 0}));
    const std::string pto = write_file("ties.pto",
                                       "import pypto as pypo\n"
                                       "x = pypo.input(\"x\", shape=(1, 8), dtype=\"float32\")\n"
                                       "s = pypo.input(\"s\", shape=(8,), dtype=\"float32\")\n"
                                       "pypo.output(\"q\", pypo.op.quantize(x, s))\n");
    const std::string out = (scratch() / "ties_out").string();
    Outcome o = run("-q --functional --check --input x='" + x + "' --input s='" + s + "' --outputs '" + out + "' '" +
                    pto + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    const std::string q = slurp(out + "/q.npy");
    ASSERT_GE(q.size(), 8u);
    const std::string values = q.substr(q.size() - 8);
    EXPECT_EQ(std::vector<int>(values.begin(), values.end()), (std::vector<int>{6, 2, 0, 4, 127, -128, 127, 0}));
}
