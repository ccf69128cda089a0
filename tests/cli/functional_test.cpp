// --functional, --input/--seed/--outputs and --check through the real
// binary (docs/functional.md): the compiled programs compute what the
// programs mean, a corrupted lowering is caught, timing does not change,
// and mixed precision switches exactly the op that overflows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "checked_programs.h"
#include "cli_util.h"
#include "tests/support/model_instances.h"

using namespace clitest;

namespace {

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// GEMM, conv2d with stride and padding, transpose on both engines, slide,
// softmax, batch norm, pooling and the rest: every output within tolerance.
class Checked : public testing::TestWithParam<std::string> {};

TEST_P(Checked, MatchesTheReference) {
    Outcome o = run("-q --check " + extra_args(GetParam()) + GetParam());
    ASSERT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_NE(o.out.find("check of each operation against the reference executor"), std::string::npos) << o.out;
    EXPECT_GT(count(o.out, "-> pass\n"), 0u) << o.out;
    EXPECT_EQ(count(o.out, "FAIL"), 0u) << o.out;
}

INSTANTIATE_TEST_SUITE_P(Programs, Checked, testing::ValuesIn(checked_programs()), test_name);

// The same programs on vector units with their own Unified Buffers
// (vector.buffer_kib, docs/timing-model.md §2): every vector operation
// through its unit's load and store engines, on-chip operands and fused
// epilogues through DDR; the values stay right. The Ascend 910B's 192 KiB
// buffers (a depthwise convolution's smallest chunk needs 181,440 bytes).
class CheckedWithUnifiedBuffers : public testing::TestWithParam<std::string> {};

void expect_checked_with_unified_buffers(const std::string& program, bool separate_cores) {
    const std::string config =
        write_file("unified_buffers.json",
                   std::string(R"({"cluster": {"vector_units": 2, "dma_engines": 2}, "vector": )") +
                       R"({"buffer_kib": 192, "separate_cores": )" + (separate_cores ? "true" : "false") + "}}");
    Outcome o = run("-q --check --config '" + config + "' " + extra_args(program) + program);
    ASSERT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_GT(count(o.out, "-> pass\n"), 0u) << o.out;
    EXPECT_EQ(count(o.out, "FAIL"), 0u) << o.out;
}

TEST_P(CheckedWithUnifiedBuffers, MatchesTheReference) { expect_checked_with_unified_buffers(GetParam(), false); }

// And with the vector units as cores of their own (vector.separate_cores,
// §4): the program check then also requires every block the compiler
// makes to run on one side of its cluster.
class CheckedWithSeparateVectorCores : public testing::TestWithParam<std::string> {};

TEST_P(CheckedWithSeparateVectorCores, MatchesTheReference) { expect_checked_with_unified_buffers(GetParam(), true); }

INSTANTIATE_TEST_SUITE_P(Programs, CheckedWithSeparateVectorCores, testing::ValuesIn(checked_programs()), test_name);
INSTANTIATE_TEST_SUITE_P(Programs, CheckedWithUnifiedBuffers, testing::ValuesIn(checked_programs()), test_name);

// The timed run never sees the data: cycles, the timing CSV and the JSON
// report are byte-identical with and without --functional, for every model.
class SameTiming : public testing::TestWithParam<std::string> {};

TEST_P(SameTiming, WithAndWithoutFunctional) {
    const std::string stem = std::filesystem::path(GetParam()).stem().string();
    const std::string a = (scratch() / (stem + ".plain")).string(), b = (scratch() / (stem + ".func")).string();
    Outcome plain =
        run("--timing-csv '" + a + ".csv' --report-json '" + a + ".json' " + extra_args(GetParam()) + GetParam());
    ASSERT_EQ(plain.status, 0) << plain.err;
    Outcome func = run("--functional --timing-csv '" + b + ".csv' --report-json '" + b + ".json' " +
                       extra_args(GetParam()) + GetParam());
    ASSERT_EQ(func.status, 0) << func.err;
    EXPECT_EQ(slurp(a + ".csv"), slurp(b + ".csv"));
    EXPECT_EQ(slurp(a + ".json"), slurp(b + ".json"));
    // The text report is the same too; --functional only appends its section.
    EXPECT_EQ(func.out.rfind(plain.out, 0), 0u);
    EXPECT_NE(func.out.find("\nfunctional simulation\n"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Models, SameTiming, testing::ValuesIn(pto_files("models")), test_name);

// Other hardware, other tilings and queue assignments: the values stay right.
TEST(Functional, ChecksOnEveryHardwarePreset) {
    for (const auto& e : std::filesystem::directory_iterator(std::string(DAVINCI_SOURCE_DIR) + "/configs")) {
        if (e.path().extension() != ".json") continue;
        for (const char* program : {"models/resnet_block.pto", "tests/functional/softmax_norm.pto"}) {
            Outcome o = run("-q --check --config '" + e.path().string() + "' " + program);
            EXPECT_EQ(o.status, 0) << e.path() << " " << program << "\n" << o.out << o.err;
            EXPECT_EQ(count(o.out, "FAIL"), 0u) << e.path() << " " << program << "\n" << o.out;
        }
    }
}

TEST(Functional, CorruptedLoweringIsCaught) {
    // One DMA's DDR source moved by one element (DAVINCI_SIM_INJECT_FAULT):
    // the check names the operation the corrupted load fed.
    const std::pair<const char*, const char*> cases[] = {
        {"models/gemm_256.pto", "operation 'c' (matmul at models/gemm_256.pto:8:5)"},
        {"models/resnet_block.pto", "operation 'relu_1' (relu at models/resnet_block.pto:15:13)"},
        {"tests/functional/pooling.pto", "operation 'mp' (max_pool at tests/functional/pooling.pto:9:6)"}};
    for (const auto& [program, named] : cases) {
        Outcome good = run("-q --check " + std::string(program));
        ASSERT_EQ(good.status, 0) << good.err;
        ::setenv("DAVINCI_SIM_INJECT_FAULT", "3", 1);
        Outcome bad = run("-q --check " + std::string(program));
        ::unsetenv("DAVINCI_SIM_INJECT_FAULT");
        EXPECT_EQ(bad.status, 1) << bad.out << bad.err;
        EXPECT_NE(bad.err.find("davinci-sim: fault injected (DAVINCI_SIM_INJECT_FAULT): block "), std::string::npos)
            << bad.err;
        EXPECT_NE(bad.err.find(std::string("davinci-sim: error: --check: ") + named +
                               " differs from the reference applied to its simulated inputs at "),
                  std::string::npos)
            << bad.err;
        EXPECT_NE(bad.out.find("-> FAIL"), std::string::npos) << bad.out;
    }
}

TEST(Functional, SeededInputsAreDeterministic) {
    const std::string d1 = (scratch() / "seed1").string(), d2 = (scratch() / "seed2").string(),
                      d3 = (scratch() / "seed3").string();
    ASSERT_EQ(run("-q --seed 7 --outputs '" + d1 + "' models/gemm_256.pto").status, 0);
    ASSERT_EQ(run("-q --seed 7 --outputs '" + d2 + "' models/gemm_256.pto").status, 0);
    ASSERT_EQ(run("-q --seed 8 --outputs '" + d3 + "' models/gemm_256.pto").status, 0);
    const std::string c1 = slurp(d1 + "/c.npy");
    EXPECT_EQ(c1.size(), 128u + 256u * 256u * 2u);
    EXPECT_EQ(c1, slurp(d2 + "/c.npy"));
    EXPECT_NE(c1, slurp(d3 + "/c.npy"));
}

TEST(Functional, InputsGivenAsNpyAreUsed) {
    // Write b as the .npy of c from one run, feed it back: outputs change
    // exactly when an input does, and the report names the file.
    const std::string d = (scratch() / "npy_in").string();
    ASSERT_EQ(run("-q --outputs '" + d + "' models/gemm_256.pto").status, 0);
    Outcome o = run("-q --input b='" + d + "/c.npy' --outputs '" + d + "/2' models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("b: " + d + "/c.npy"), std::string::npos) << o.out;
    EXPECT_NE(slurp(d + "/c.npy"), slurp(d + "/2/c.npy"));
}

TEST(Functional, BadInputsAreUsageErrors) {
    const std::string d = (scratch() / "bad_in").string();
    ASSERT_EQ(run("-q --outputs '" + d + "' tests/functional/transpose_engines.pto").status, 0);
    Outcome shape = run("-q --input a='" + d + "/v.npy' models/gemm_256.pto");
    EXPECT_EQ(shape.status, 2);
    EXPECT_EQ(shape.err, "davinci-sim: error: --input a: " + d +
                             "/v.npy is (3, 72, 40) float16, the program declares (256, 256) float16\n");
    Outcome name = run("-q --input q='" + d + "/v.npy' models/gemm_256.pto");
    EXPECT_EQ(name.status, 2);
    EXPECT_EQ(name.err, "davinci-sim: error: --input: the program has no input or weight 'q' (it has: a, b)\n");
    Outcome missing = run("-q --input a=/nonexistent.npy models/gemm_256.pto");
    EXPECT_EQ(missing.status, 2);
    EXPECT_EQ(missing.err, "davinci-sim: error: --input a: /nonexistent.npy: cannot open: No such file or directory\n");
    Outcome form = run("-q --input a models/gemm_256.pto");
    EXPECT_EQ(form.status, 2);
    EXPECT_NE(form.err.find("davinci-sim: error: --input: expected NAME=FILE.npy, got 'a'\n"), std::string::npos);
    Outcome json = run("-q --functional --program-json x.json");
    EXPECT_EQ(json.status, 2);
    EXPECT_NE(json.err.find("--functional needs a .pto program"), std::string::npos) << json.err;
    Outcome seed = run("-q --seed 3 models/gemm_256.pto");
    EXPECT_EQ(seed.status, 2);
    EXPECT_NE(seed.err.find("--seed is for --functional"), std::string::npos) << seed.err;
}

TEST(Functional, MixedPrecisionSwitchesExactlyTheOverflowingOp) {
    Outcome o = run("-q --check tests/functional/mixed_overflow.pto");
    ASSERT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_NE(
        o.out.find("  mixed precision: 1 operation switched to float32 (decided in 2 functional runs)\n"
                   "    mul_2 (mul at tests/functional/mixed_overflow.pto:10:11): float16 result overflows to inf; "
                   "cycles (with its casts) "),
        std::string::npos)
        << o.out;
    EXPECT_EQ(count(o.out, "overflows"), 1u) << o.out;
    EXPECT_NE(o.out.find("cycles all-float16, "), std::string::npos) << o.out;
    // The switched program is the one timed: its graph has the cast of mul_2's input.
    EXPECT_NE(o.out.find("peak ("), std::string::npos);
    EXPECT_EQ(count(o.out, "FAIL"), 0u) << o.out;
}

// x * 0 switched to float32 runs in a vector chain, cast(x) -> mul -> cast
// back to the float16 output: its float32 result never reaches memory, so
// the group's stored result is judged, and it is all zeros still.
TEST(Functional, MixedPrecisionUnderflowSwitchesAndUselessSwitchesAreUndone) {
    Outcome o = run("-q --check tests/functional/mixed_underflow.pto");
    ASSERT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_NE(o.out.find("  mixed precision: 1 operation switched to float32 (decided in 3 functional runs)\n"
                         "    mul_2 (mul at tests/functional/mixed_underflow.pto:10:14): float16 result underflows to "
                         "all zeros; cycles (with its casts) "),
              std::string::npos)
        << o.out;
    EXPECT_NE(
        o.out.find("    kept in float16: nothing (mul at tests/functional/mixed_underflow.pto:12:15): float16 "
                   "result underflows to all zeros; its fusion group's float16 result underflows to all zeros too\n"),
        std::string::npos)
        << o.out;
}

TEST(Functional, MixedPrecisionKeepsFloat16WhenFloat32DoesNotFit) {
    Outcome o = run("-q --functional tests/functional/mixed_too_big.pto");
    ASSERT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_NE(o.out.find("  mixed precision: 0 operations switched to float32 (decided in 2 functional runs)\n"
                         "    kept in float16: pooled (avg_pool at tests/functional/mixed_too_big.pto:10:14): float16 "
                         "result overflows to inf; its float32 form does not compile: avg_pool does not fit the "
                         "hardware: one chunk needs 264000 bytes of L1, a cluster has 262144\n"),
              std::string::npos)
        << o.out;
    // The overflow stays, and --check says so.
    Outcome c = run("-q --check tests/functional/mixed_too_big.pto");
    EXPECT_EQ(c.status, 1);
    EXPECT_NE(c.err.find("davinci-sim: error: --check: operation 'pooled' (avg_pool at "
                         "tests/functional/mixed_too_big.pto:10:14) differs from the reference applied to its "
                         "simulated inputs at (0, 0, "),
              std::string::npos)
        << c.err;
    EXPECT_NE(c.err.find(": inf computed, "), std::string::npos) << c.err;
}

TEST(Functional, WithoutFunctionalNothingSwitches) {
    Outcome o = run("tests/functional/mixed_overflow.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out.find("mixed precision"), std::string::npos);
    EXPECT_EQ(o.out.find("functional simulation"), std::string::npos);
}

}  // namespace

// Rounding that compounds from operation to operation does not fail the
// check: tests/functional/large_reductions.pto's MLP (issue 23's report)
// passes at every seed, each operation against its own simulated inputs,
// while its softmax's output is 0.018 from the float64 run of the whole
// program, shown as information.
TEST(Functional, CompoundedRoundingIsInformationNotAFailure) {
    for (int seed = 0; seed < 4; ++seed) {
        const Outcome o = run("-q --check --seed " + std::to_string(seed) + " tests/functional/large_reductions.pto");
        EXPECT_EQ(o.status, 0) << seed << "\n" << o.out << o.err;
        EXPECT_EQ(count(o.out, "FAIL"), 0u) << o.out;
        EXPECT_EQ(count(o.out, "-> pass\n"), 7u)
            << o.out;  // dot16, rows16, dot_bf16, rows_bf16, relu_1, matmul_4, probs
        EXPECT_NE(o.out.find("  outputs against the reference from the program's inputs (float64, no lowering; "
                             "information: rounding compounds from operation to operation):\n"),
                  std::string::npos);
    }
    const Outcome o = run("-q --check tests/functional/large_reductions.pto");
    EXPECT_NE(
        o.out.find("  probs (256, 128) (float16 tolerance 0.01 x (|ref| + 1)): max abs error 0.01827 at (168, 36)"),
        std::string::npos)
        << o.out;
}

// A strand's results in DDR reuse their operation's buffers in turn (timing
// model §10, "Workspace"): the sixth step's scores take the first's bytes,
// so at the end those hold the sixth's values. Each step's scores are still
// checked on their own, as they were after the block that completed them.
TEST(CheckedWorkspace, AResultWhoseBytesALaterOneTakesIsCheckedAsItWas) {
    const std::string program = write_file("workspace_steps.pto",
                                           "import pypto as pypo\n"
                                           "q = pypo.input(\"q\", shape=(64, 64), dtype=\"float16\")\n"
                                           "for j in range(8):\n"
                                           "    k = pypo.input(\"k\" + str(j), shape=(64, 64), dtype=\"float16\")\n"
                                           "    s = pypo.op.matmul(q, k)\n"
                                           "    mj = pypo.op.reduce_max(s, axis=-1, keepdims=True, target='L1')\n"
                                           "    m = mj if j == 0 else pypo.op.maximum(m, mj, target='L1')\n"
                                           "pypo.output(\"y\", pypo.op.sub(q, m))\n");
    const std::string config = write_file("workspace.json", R"({"cluster": {"vector_units": 2, "dma_engines": 2}, )"
                                                            R"("vector": {"buffer_kib": 192}})");
    Outcome o = run("-q --check --config '" + config + "' " + program);
    ASSERT_EQ(o.status, 0) << o.out << o.err;
    for (int j = 1; j <= 8; ++j) {
        const std::string line = "workspace_steps.pto:5:9: matmul_" + std::to_string(j) + " (64, 64)";
        const size_t at = o.out.find(line);
        ASSERT_NE(at, std::string::npos) << line << "\n" << o.out;
        EXPECT_EQ(o.out.substr(o.out.find('\n', at) - 6, 6), "> pass") << line;
    }
    EXPECT_EQ(count(o.out, "FAIL"), 0u) << o.out;
}
