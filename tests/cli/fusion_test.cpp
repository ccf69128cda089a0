// Fusion (dsl/passes/pass_fusion.h, docs/timing-model.md §10 "Fusion"): a
// matmul or conv2d and the element-wise chain consuming its result run on
// the C tiles in L1, stored to DDR once.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "fusion_figures.h"

using namespace clitest;

namespace {

// One 16 x 16 cube tile (tile=(16, 16): one block, cube 0 alone) and the
// same program followed by batch_norm and relu.
const char* kMatmul = R"(import pypto as pypo
a = pypo.input("a", shape=(16, 16), dtype="float16")
b = pypo.weight("b", shape=(16, 16), dtype="float16")
pypo.output("y", pypo.op.matmul(a, b, tile=(16, 16)))
)";
const char* kMatmulBnRelu = R"(import pypto as pypo
a = pypo.input("a", shape=(16, 16), dtype="float16")
b = pypo.weight("b", shape=(16, 16), dtype="float16")
c = pypo.op.matmul(a, b, tile=(16, 16))
pypo.output("y", pypo.op.relu(pypo.op.batch_norm(c)))
)";

}  // namespace

// The GEMM alone ends with the store of its tile, which waits for the
// write-back to L1 (flag latency 1). Fused, that flag starts the epilogue
// on vector0 instead: batch_norm's mul by the scale column and add of the
// shift column, then relu, each a 16 x 16 float16 VECTOR of one pass
// (§8: P + ceil(256 * 2 / 128) = 8 + 4 = 12 cycles), back to back; the
// scale and shift (32 B each) are loaded on dma0 behind the panels, long
// before. The store then waits for relu's flag (1). So the fused program
// takes 1 + 3 * 12 = 37 cycles more than the GEMM alone, and reads the
// 64 bytes of scale and shift more; it writes the 512 B result once.
TEST(Fusion, MatmulBatchNormReluTileCyclesMatchTheHandDerivation) {
    const std::string one = "--set dma.max_outstanding=1 ";
    const FusionFigures gemm = measure_fusion(one + write_file("mm.pto", kMatmul));
    const FusionFigures fused = measure_fusion(one + write_file("mm_bn_relu.pto", kMatmulBnRelu));
    EXPECT_EQ(gemm.cycles, 645u);
    EXPECT_EQ(fused.cycles, gemm.cycles + 1 + 3 * (8 + 4));
    EXPECT_EQ(fused.cycles, 682u);
    EXPECT_EQ(fused.read, gemm.read + 64);
    EXPECT_EQ(fused.read, 1088u);
    EXPECT_EQ(fused.written, 512u);
    EXPECT_EQ(fused.groups, 1u);
    // Unfused, the intermediate goes to DDR and back for each operation.
    const FusionFigures apart = measure_fusion(one + "--no-fusion " + write_file("mm_bn_relu.pto", kMatmulBnRelu));
    EXPECT_EQ(apart.groups, 0u);
    EXPECT_EQ(apart.written, 3u * 512);
    EXPECT_GT(apart.cycles, fused.cycles);
}

TEST(Fusion, ConfigFusionFalseIsNoFusion) {
    std::string off = kMatmulBnRelu;
    off.insert(off.find('\n') + 1, "pypo.config.FUSION = False\n");
    const FusionFigures a = measure_fusion(write_file("off.pto", off));
    const FusionFigures b = measure_fusion("--no-fusion " + write_file("on.pto", kMatmulBnRelu));
    EXPECT_EQ(a.cycles, b.cycles);
    EXPECT_EQ(a.read, b.read);
    EXPECT_EQ(a.written, b.written);
    EXPECT_EQ(a.groups, 0u);
}

TEST(Fusion, ReportAndDumpGraphListTheGroups) {
    Outcome o = run("models/resnet_block.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("fusion groups      2\n"
                         "  conv2d_1 (conv2d -> format_convert -> batch_norm -> relu)\n"
                         "  conv2d_2 (conv2d -> format_convert -> batch_norm -> add -> relu)\n"),
              std::string::npos)
        << o.out;
    Outcome g = run("--dump-graph models/resnet_block.pto");
    ASSERT_EQ(g.status, 0) << g.err;
    EXPECT_NE(g.out.find("fusion groups: 2\n"
                         "  relu_1: conv2d -> format_convert -> batch_norm -> relu  (ops 0, 1, 2, 3)\n"
                         "  y: conv2d -> format_convert -> batch_norm -> add -> relu  (ops 4, 5, 6, 7, 8)\n"),
              std::string::npos)
        << g.out;
    Outcome n = run("--no-fusion models/resnet_block.pto");
    EXPECT_EQ(n.out.find("fusion groups"), std::string::npos) << n.out;
}

// README, "Examples": resnet_block fused and with --no-fusion.
TEST(Fusion, ReadmeResidualBlockExample) {
    Outcome f = run("models/resnet_block.pto");
    ASSERT_EQ(f.status, 0) << f.err;
    for (const char* line :
         {"total cycles       974,702  (974.702 us at 1 GHz, 56 blocks)\n",
          "DDR bytes          read 5,680,640, written 802,816\n", "format conversions 2\nfusion groups      2\n"})
        EXPECT_NE(f.out.find(line), std::string::npos) << line << f.out;
    Outcome n = run("--no-fusion models/resnet_block.pto");
    ASSERT_EQ(n.status, 0) << n.err;
    for (const char* line : {"total cycles       1,160,897  (1.161 ms at 1 GHz, 84 blocks)\n",
                             "DDR bytes          read 8,488,960, written 3,612,672\n"})
        EXPECT_NE(n.out.find(line), std::string::npos) << line << n.out;
}

// Fused, each model reads and writes fewer DDR bytes and takes fewer cycles.
struct FusedModel {
    const char* args;
};
class FusionPays : public ::testing::TestWithParam<FusedModel> {};

TEST_P(FusionPays, FewerBytesAndCycles) {
    const FusionFigures fused = measure_fusion(GetParam().args);
    const FusionFigures apart = measure_fusion(std::string("--no-fusion ") + GetParam().args);
    EXPECT_GT(fused.groups, 0u);
    EXPECT_LT(fused.cycles, apart.cycles);
    EXPECT_LT(fused.read, apart.read);
    EXPECT_LT(fused.written, apart.written);
}

INSTANTIATE_TEST_SUITE_P(Models, FusionPays,
                         ::testing::Values(FusedModel{"models/resnet_block.pto"},
                                           FusedModel{"--shape img=1,1,120,160 models/super_resolution.pto"},
                                           FusedModel{"tests/cli/mbv1_block.pto"}),
                         [](const ::testing::TestParamInfo<FusedModel>& i) {
                             return std::string(i.index == 0   ? "resnet_block"
                                                : i.index == 1 ? "super_resolution"
                                                               : "mbv1_block");
                         });

// The functional model runs the fused command programs: the outputs match
// the reference executor.
TEST(Fusion, FusedProgramsPassCheck) {
    for (const char* args : {"models/resnet_block.pto", "--shape img=1,1,120,160 models/super_resolution.pto"}) {
        Outcome o = run(std::string("-q --check ") + args);
        EXPECT_EQ(o.status, 0) << args << "\n" << o.out << o.err;
        EXPECT_NE(o.out.find("-> pass"), std::string::npos) << o.out;
    }
    Outcome o = run("-q --check " + write_file("mm_bn_relu.pto", kMatmulBnRelu));
    EXPECT_EQ(o.status, 0) << o.out << o.err;
}

namespace {

const char* kMatmulCastRelu = R"(import pypto as pypo
a = pypo.input("a", shape=(16, 16), dtype="float16")
b = pypo.weight("b", shape=(16, 16), dtype="float16")
c = pypo.op.matmul(a, b, tile=(16, 16))
pypo.output("y", pypo.op.relu(pypo.op.cast(c, "float32")))
)";
const char* kMatmulSilu = R"(import pypto as pypo
a = pypo.input("a", shape=(16, 16), dtype="float16")
b = pypo.weight("b", shape=(16, 16), dtype="float16")
c = pypo.op.matmul(a, b, tile=(16, 16))
pypo.output("y", pypo.op.silu(c))
)";

// Several blocks and cubes, casts both ways, silu before and after a cast,
// a float32 residual streamed in after the cast; a convolution whose NCHW
// result is cast, batch-normalised in float32 and silu'd; a batched matmul
// whose float32 residual is streamed per item.
const char* kCastsAndSilus = R"(import pypto as pypo
a = pypo.input("a", shape=(200, 96), dtype="float16")
b = pypo.weight("b", shape=(96, 130), dtype="float16")
r = pypo.input("r", shape=(200, 130), dtype="float32")
c = pypo.op.matmul(a, b)
pypo.output("y", pypo.op.silu(pypo.op.add(pypo.op.cast(c, "float32"), r)))
a2 = pypo.input("a2", shape=(64, 64), dtype="float32")
b2 = pypo.weight("b2", shape=(64, 64), dtype="float32")
pypo.output("z", pypo.op.mul(pypo.op.cast(pypo.op.silu(pypo.op.matmul(a2, b2)), "float16"), 0.5))
x = pypo.input("x", shape=(2, 8, 12, 12), dtype="float16")
w = pypo.weight("w", shape=(16, 8, 3, 3), dtype="float16")
s = pypo.weight("s", shape=(16,), dtype="float32")
t = pypo.weight("t", shape=(16,), dtype="float32")
conv = pypo.op.conv2d(x, w, padding=(1, 1))
pypo.output("v", pypo.op.silu(pypo.op.batch_norm(pypo.op.cast(conv, "float32"), s, t)))
q = pypo.input("q", shape=(3, 72, 64), dtype="float16")
k = pypo.input("k", shape=(64, 40), dtype="float16")
p = pypo.input("p", shape=(3, 72, 40), dtype="float32")
pypo.output("u", pypo.op.silu(pypo.op.add(pypo.op.cast(pypo.op.matmul(q, k), "float32"), p)))
)";

}  // namespace

// A fused cast (§10 "Fusion"): the GEMM alone as above (645 cycles), then
// on vector0 the cast of the 16 x 16 float16 tile into its float32 tile
// (§8: timed by its source, 8 + ceil(256 * 2 / 128) = 12) and relu on the
// float32 tile (8 + ceil(256 * 4 / 128) = 16), after the write-back's flag
// (1); the store then writes 1,024 bytes instead of 512, 16 cycles more at
// 32 B/cycle (1 + 32 + latency against 1 + 16 + latency). 645 + 1 + 12 +
// 16 + 16 = 690.
TEST(Fusion, MatmulCastTileCyclesMatchTheHandDerivation) {
    const std::string one = "--set dma.max_outstanding=1 ";
    const FusionFigures fused = measure_fusion(one + write_file("mm_cast.pto", kMatmulCastRelu));
    EXPECT_EQ(fused.cycles, 645u + 1 + (8 + 4) + (8 + 8) + (32 - 16));
    EXPECT_EQ(fused.cycles, 690u);
    EXPECT_EQ(fused.read, 1024u);
    EXPECT_EQ(fused.written, 1024u);  // the float32 result, once
    EXPECT_EQ(fused.groups, 1u);
    const FusionFigures apart = measure_fusion(one + "--no-fusion " + write_file("mm_cast.pto", kMatmulCastRelu));
    EXPECT_EQ(apart.groups, 0u);
    EXPECT_EQ(apart.written, 512u + 1024 + 1024);
    EXPECT_GT(apart.cycles, fused.cycles);
}

// A fused silu: sigmoid of the tile into a scratch tile (8 + 4 passes * 4 =
// 24) and the tile times it (8 + 4 = 12), after the write-back's flag (1):
// 645 + 1 + 24 + 12 = 682 cycles, the 512-byte result written once.
TEST(Fusion, MatmulSiluTileCyclesMatchTheHandDerivation) {
    const std::string one = "--set dma.max_outstanding=1 ";
    const FusionFigures fused = measure_fusion(one + write_file("mm_silu.pto", kMatmulSilu));
    EXPECT_EQ(fused.cycles, 645u + 1 + (8 + 4 * 4) + (8 + 4));
    EXPECT_EQ(fused.cycles, 682u);
    EXPECT_EQ(fused.read, 1024u);
    EXPECT_EQ(fused.written, 512u);
    EXPECT_EQ(fused.groups, 1u);
    Outcome g = run("--dump-graph " + write_file("mm_silu.pto", kMatmulSilu));
    EXPECT_NE(g.out.find("fusion groups: 1\n  y: matmul -> silu  (ops 0, 1)\n"), std::string::npos) << g.out;
}

// The functional model computes the fused casts and silus where they live
// (in L1, tile by tile): every output is byte-identical to --no-fusion's,
// and the check against the reference passes.
TEST(Fusion, FusedCastsAndSilusGiveTheUnfusedBytes) {
    const std::string pto = write_file("casts.pto", kCastsAndSilus);
    Outcome g = run("--dump-graph " + pto);
    EXPECT_NE(g.out.find("fusion groups: 4\n"
                         "  y: matmul -> cast -> add -> silu  (ops 0, 1, 2, 3)\n"
                         "  z: matmul -> silu -> cast -> mul  (ops 4, 5, 6, 7)\n"
                         "  v: conv2d -> format_convert -> cast -> batch_norm -> silu  (ops 8, 9, 10, 11, 12)\n"
                         "  u: matmul -> cast -> add -> silu  (ops 13, 14, 15, 16)\n"),
              std::string::npos)
        << g.out;
    const std::string fused = (scratch() / "casts_fused").string(), apart = (scratch() / "casts_apart").string();
    Outcome f = run("-q --functional --outputs '" + fused + "' " + pto);
    ASSERT_EQ(f.status, 0) << f.err;
    Outcome n = run("-q --functional --no-fusion --outputs '" + apart + "' " + pto);
    ASSERT_EQ(n.status, 0) << n.err;
    for (const char* y : {"y.npy", "z.npy", "v.npy", "u.npy"}) {
        const std::string a = slurp(fused + "/" + y), b = slurp(apart + "/" + y);
        EXPECT_FALSE(a.empty()) << y;
        EXPECT_EQ(a, b) << y;
    }
    Outcome c = run("-q --check " + pto);
    EXPECT_EQ(c.status, 0) << c.out << c.err;
    EXPECT_EQ(c.out.find("-> FAIL"), std::string::npos) << c.out;
}

// On a ws array the GEMMs take the fold-major schedule, which runs no
// epilogue: the groups run unfused, and every view says so.
TEST(Fusion, GroupsOnTheFoldMajorScheduleAreReportedUnfused) {
    const std::string pto = write_file("casts.pto", kCastsAndSilus);
    const std::string ws = "--set cube.dataflow=ws ";
    const FusionFigures f = measure_fusion(ws + pto);
    EXPECT_EQ(f.groups, 0u);
    Outcome o = run(ws + pto);
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out.find("fusion groups"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("  fusion group 'y' (matmul -> cast -> add -> silu) ran unfused: the weight-stationary "
                         "array's fold-major schedule runs no epilogue; its operations were lowered one by one, "
                         "through DDR\n"),
              std::string::npos)
        << o.out;
    Outcome g = run("--dump-graph " + ws + pto);
    EXPECT_NE(g.out.find("  z: matmul -> silu -> cast -> mul  (ops 4, 5, 6, 7)  [runs unfused: the "
                         "weight-stationary array's fold-major schedule runs no epilogue]\n"),
              std::string::npos)
        << g.out;
    const std::string explain = (scratch() / "casts_explain.txt").string();
    Outcome x = run("-q " + ws + "--explain '" + explain + "' " + pto);
    ASSERT_EQ(x.status, 0) << x.err;
    EXPECT_NE(slurp(explain).find("  fusion group: not fused (the weight-stationary array's fold-major schedule "
                                  "runs no epilogue): cast (op 1), add (op 2), silu (op 3) ran on their own\n"),
              std::string::npos);
    // A tile= keeps the k-stepped schedule, which fuses.
    Outcome t = run("--dump-graph " + ws + write_file("mm_silu.pto", kMatmulSilu));
    EXPECT_EQ(t.out.find("runs unfused"), std::string::npos) << t.out;
    EXPECT_EQ(measure_fusion(ws + write_file("mm_silu.pto", kMatmulSilu)).groups, 1u);
}
