// bfloat16 end to end through the real binary (docs/language.md §3.3,
// docs/functional.md §3): the cube at the float16 rate, the write-back
// narrowed in flight, casts between every pair of float dtypes, --check at
// bfloat16's tolerance, and .npy files in float32 (NumPy has no bfloat16).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

nlohmann::json report(const std::string& args) {
    const std::string json = (scratch() / "bf16.json").string();
    Outcome o = run("-q --report-json '" + json + "' " + args);
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

// bfloat16 operands are 2 bytes, as float16's, and take one pass: the
// same cycles and bytes (7 + 4 steps for one 4x4x4 tile; 548,770 cycles
// for 512^3), float32 twice the passes.
TEST(BFloat16, MatmulRunsAtTheFloat16Rate) {
    EXPECT_EQ(report("--op matmul --shape 4,4,4 --dtype bfloat16")["ops"][0]["cube_cycles"].get<uint64_t>(), 11u);
    const nlohmann::json h = report("--op matmul --shape 512,512,512");
    const nlohmann::json b = report("--op matmul --shape 512,512,512 --dtype bf16");
    const nlohmann::json f = report("--op matmul --shape 512,512,512 --dtype float32");
    EXPECT_EQ(b["program"], "<--op matmul 512x512x512 bfloat16>");
    EXPECT_EQ(h["total_cycles"].get<uint64_t>(), 548770u);
    EXPECT_EQ(b["total_cycles"].get<uint64_t>(), 548770u);
    EXPECT_EQ(b["ops"][0]["cube_cycles"].get<uint64_t>(), 8402944u);
    EXPECT_EQ(f["ops"][0]["cube_cycles"].get<uint64_t>(), 16791552u);
    EXPECT_EQ(b["ddr_bytes_read"].get<uint64_t>(), 4194304u);
}

TEST(BFloat16, BadDtypeOfASingleOperation) {
    Outcome o = run("--op matmul --shape 4,4,4 --dtype int4");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.substr(0, o.err.find('\n')),
              "davinci-sim: error: --dtype: expected float16, bfloat16, float32 or int8, got 'int4'");
}

// The compiled program: the accumulator narrowed to bfloat16 by the cube's
// DMA engine, and a vector cast in each of the six directions.
TEST(BFloat16, WriteBackAndCastsInEveryDirection) {
    Outcome o = run("--dump-program tests/functional/bfloat16.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("32x32B stride 64/64 f32->bf16"), std::string::npos);
    for (const char* pair : {"float16->float32", "float16->bfloat16", "float32->float16", "float32->bfloat16",
                             "bfloat16->float16", "bfloat16->float32"})
        EXPECT_NE(o.out.find(std::string(" ") + pair + "  L1:"), std::string::npos) << pair;
}

TEST(BFloat16, CheckUsesBFloat16Tolerance) {
    Outcome o = run("-q --check tests/functional/bfloat16.pto");
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_NE(o.out.find("  y (64, 80) (bfloat16 tolerance 0.08 x (|ref| + "), std::string::npos) << o.out;
    // float16 + bfloat16 computes in float32, then is cast to float16.
    EXPECT_NE(o.out.find("  narrowed (64, 80) (bfloat16 tolerance 0.08"), std::string::npos) << o.out;
}

// A bfloat16 output is written as float32 (<f4), holding its values
// exactly, and reads back as a bfloat16 input; the same values give the
// same result.
TEST(BFloat16, NpyFilesAreFloat32) {
    const std::string dir = (scratch() / "bf16_out").string();
    const std::string prog = write_file("bf16_id.pto",
                                        "import pypto as pypo\n"
                                        "a = pypo.input(\"a\", shape=(4, 8), dtype=\"bfloat16\")\n"
                                        "pypo.output(\"b\", pypo.op.relu(a))\n");
    ASSERT_EQ(run("-q --outputs '" + dir + "' '" + prog + "'").status, 0);
    const std::string b = slurp(dir + "/b.npy");
    EXPECT_NE(b.find("'descr': '<f4'"), std::string::npos);
    EXPECT_EQ(b.size(), 128u + 4 * 8 * 4);
    const std::string again = (scratch() / "bf16_again").string();
    Outcome o = run("-q --input a='" + dir + "/b.npy' --outputs '" + again + "' '" + prog + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(slurp(again + "/b.npy"), b);  // relu(relu(a)) = relu(a)
}

}  // namespace
