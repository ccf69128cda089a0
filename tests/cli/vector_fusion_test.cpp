// Vector fusion groups (dsl/passes/pass_fusion.h, docs/timing-model.md
// §10 "Fusion"): a chain of element-wise operations with no cube
// operation in front is one streamed vector op (lower_vector_chain.h),
// its intermediates never leaving L1.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "fusion_figures.h"

using namespace clitest;

namespace {

// One block (MAX_PARALLEL = 1) of one chunk: a (1, 4, 8, 8) float16
// batch_norm, rows of one channel plane (64 elements), 4 rows in a chunk;
// then the same batch_norm followed by relu and sub(6, .).
const char* kBatchNorm = R"(import pypto as pypo
pypo.config.MAX_PARALLEL = 1
x = pypo.input("x", shape=(1, 4, 8, 8), dtype="float16")
pypo.output("y", pypo.op.batch_norm(x))
)";
const char* kChain = R"(import pypto as pypo
pypo.config.MAX_PARALLEL = 1
x = pypo.input("x", shape=(1, 4, 8, 8), dtype="float16")
pypo.output("y", pypo.op.sub(6.0, pypo.op.relu(pypo.op.batch_norm(x))))
)";

}  // namespace

// batch_norm alone (§5, §6 with the default DDR: 32 B/cycle, latency 100;
// §8: P = 8, 128 B/cycle): the block starts at cycle 1; dma0 requests
// scale at 1 and shift at 2 (8 B each, the block's prologue; each granted
// the cycle after, when dma0 may issue the next), and the chunk x (512 B)
// at 3: it is on the link in cycles 4..19 and ends 3 + 1 + 16 + 100 = 120.
// vector0 runs mul and add from 121 (flag latency 1), each a 4 x 64
// float16 VECTOR of one pass, 8 + ceil(512 / 128) = 12 cycles: add ends at
// 145. The store starts at 146 and ends 146 + 1 + 16 + 100 = 263. Fused,
// relu and sub (one pass each, 12 cycles) follow add on vector0 in place,
// and the store waits for sub's flag instead of add's: 2 * 12 = 24 cycles
// more, the same loads (the number 6 is an immediate), the result written
// once. Apart, relu and sub each load and store the 512 B tensor again.
TEST(VectorFusion, ChainCyclesMatchTheHandDerivation) {
    const FusionFigures alone = measure_fusion(write_file("bn.pto", kBatchNorm));
    const FusionFigures fused = measure_fusion(write_file("chain.pto", kChain));
    EXPECT_EQ(alone.cycles, (3 + 1 + 16 + 100) + 1 + 2 * (8 + 4) + 1 + (1 + 16 + 100));
    EXPECT_EQ(alone.cycles, 263u);
    EXPECT_EQ(fused.cycles, alone.cycles + 2 * (8 + 4));
    EXPECT_EQ(fused.cycles, 287u);
    EXPECT_EQ(fused.read, alone.read);
    EXPECT_EQ(fused.read, 512u + 8 + 8);
    EXPECT_EQ(fused.written, 512u);
    EXPECT_EQ(fused.groups, 1u);
    const FusionFigures apart = measure_fusion("--no-fusion " + write_file("chain.pto", kChain));
    EXPECT_EQ(apart.groups, 0u);
    EXPECT_EQ(apart.read, 3u * 512 + 16);
    EXPECT_EQ(apart.written, 3u * 512);
    EXPECT_GT(apart.cycles, fused.cycles);
}

// A cast and a silu in a chain, both ways (§5, §6, §8 with the defaults, as
// above: one block, one chunk of 32 rows of 8 elements, N = 256).
// relu -> cast(float32) -> silu: dma0 loads x (512 B) at 1, ending
// 1 + 1 + 512 / 32 + 100 = 118; vector0 from 119: relu (float16, one pass)
// 8 + ceil(512 / 128) = 12 cycles into its result buffer, the cast (timed
// by its float16 source) 12 into a float32 buffer of its own, then silu in
// float32: sigmoid (4 passes) 8 + 4 * ceil(1024 / 128) = 40 into a scratch
// buffer and the mul 8 + 8 = 16 in place: 119 + 12 + 12 + 40 + 16 = 199;
// the store of 1,024 B from 200 ends 200 + 1 + 32 + 100 = 333.
// silu -> cast(float16) -> relu, from float32: the load of 1,024 B ends
// 1 + 1 + 32 + 100 = 134; sigmoid 40 and mul 16 (silu as a head reads x
// again: sigmoid into the result, the product in place), the cast of the
// float32 source 8 + 8 = 16, relu in float16 12: 135 + 84 = 219; the 512 B
// store from 220 ends 220 + 1 + 16 + 100 = 337.
// Apart, each of the three operations loads and stores its tensor.
TEST(VectorFusion, CastAndSiluChainCyclesMatchTheHandDerivation) {
    const std::string up = write_file("up.pto", R"(import pypto as pypo
pypo.config.MAX_PARALLEL = 1
x = pypo.input("x", shape=(1, 4, 8, 8), dtype="float16")
pypo.output("y", pypo.op.silu(pypo.op.cast(pypo.op.relu(x), dtype="float32")))
)");
    const FusionFigures f = measure_fusion(up);
    EXPECT_EQ(f.cycles, (1 + 1 + 16 + 100) + 1 + (12 + 12 + 40 + 16) + 1 + (1 + 32 + 100));
    EXPECT_EQ(f.cycles, 333u);
    EXPECT_EQ(f.read, 512u);
    EXPECT_EQ(f.written, 1024u);
    EXPECT_EQ(f.groups, 1u);
    const FusionFigures a = measure_fusion("--no-fusion " + up);
    EXPECT_EQ(a.groups, 0u);
    EXPECT_EQ(a.read, 512u + 512 + 1024);
    EXPECT_EQ(a.written, 512u + 1024 + 1024);
    EXPECT_GT(a.cycles, f.cycles);
    const std::string down = write_file("down.pto", R"(import pypto as pypo
pypo.config.MAX_PARALLEL = 1
x = pypo.input("x", shape=(1, 4, 8, 8), dtype="float32")
pypo.output("y", pypo.op.relu(pypo.op.cast(pypo.op.silu(x), dtype="float16")))
)");
    const FusionFigures g = measure_fusion(down);
    EXPECT_EQ(g.cycles, (1 + 1 + 32 + 100) + 1 + (40 + 16 + 16 + 12) + 1 + (1 + 16 + 100));
    EXPECT_EQ(g.cycles, 337u);
    EXPECT_EQ(g.read, 1024u);
    EXPECT_EQ(g.written, 512u);
    const FusionFigures b = measure_fusion("--no-fusion " + down);
    EXPECT_EQ(b.read, 1024u + 1024 + 512);
    EXPECT_EQ(b.written, 1024u + 512 + 512);
    EXPECT_GT(b.cycles, g.cycles);
    // The commands: the cast from the relu's buffer into one of its own in
    // float32, where silu's sigmoid goes to a scratch buffer and the mul
    // reads both.
    Outcome o = run("--dump-program " + up);
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("    0: VECTOR relu 32x8 float16  L1:0x0 -> L1:0x400  wait(f0)  ; relu_1: relu\n"
                         "    1: VECTOR cast 32x8 float16->float32  L1:0x400 -> L1:0x600  ; cast_1: cast\n"
                         "    2: VECTOR sigmoid 32x8 float32  L1:0x600 -> L1:0xe00  ; y: sigmoid\n"
                         "    3: VECTOR mul 32x8 float32  L1:0x600, L1:0xe00 -> L1:0x600  set(f2)  ; y: mul\n"),
              std::string::npos)
        << o.out;
    EXPECT_NE(o.out.find("    1: DMA    L1:0x600 -> DDR:0x3000  1x1024B  wait(f2)  ; y -> DDR\n"), std::string::npos)
        << o.out;
}

// Each command is charged to the operation it implements: the loads and
// batch_norm's mul and add to batch_norm, relu's VECTOR to relu, sub's
// VECTOR and the store to sub, the group's last operation.
TEST(VectorFusion, CommandsAreChargedToTheirOperations) {
    const std::string csv = (scratch() / "ops.csv").string();
    Outcome o = run("-q --ops-csv '" + csv + "' " + write_file("chain.pto", kChain));
    ASSERT_EQ(o.status, 0) << o.err;
    const std::string rows = slurp(csv);
    // op,kind,task,start,end,cycles,stall,commands,cube,vector,dma,...,ddr read,ddr written,...
    EXPECT_NE(rows.find("\nbatch_norm_1,batch_norm,,1,145,144,1,5,0,24,119,0,0.0000,0,17,528,0,"), std::string::npos)
        << rows;
    EXPECT_NE(rows.find("\nrelu_1,relu,,145,157,12,0,1,0,12,0,0,0.0000,0,0,0,0,"), std::string::npos) << rows;
    EXPECT_NE(rows.find("\ny,sub,,157,287,130,1,2,0,12,117,0,0.0000,0,16,0,512,"), std::string::npos) << rows;
}

TEST(VectorFusion, DumpGraphReportAndExplainShowTheGroup) {
    const std::string chain = write_file("chain.pto", kChain);
    Outcome g = run("--dump-graph " + chain);
    ASSERT_EQ(g.status, 0) << g.err;
    EXPECT_NE(g.out.find("fusion groups: 1\n  y: batch_norm -> relu -> sub  (ops 0, 1, 2)\n"), std::string::npos)
        << g.out;
    Outcome r = run(chain);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("fusion groups      1\n  batch_norm_1 (batch_norm -> relu -> sub)\n"), std::string::npos)
        << r.out;
    const std::string ex = (scratch() / "explain.txt").string();
    ASSERT_EQ(run("-q --explain '" + ex + "' " + chain).status, 0);
    const std::string e = slurp(ex);
    for (const char* line : {"  fusion group: runs relu (op 1), sub (op 2) on its chunks in L1\n",
                             "  placement: top level (placement='any'), result kept in L1 on the group's chunks\n",
                             "  placement: top level (placement='any'), result stored to DDR by the group\n",
                             "  fusion group: runs on the chunks of op 0\n"})
        EXPECT_NE(e.find(line), std::string::npos) << line << e;
    Outcome n = run("--no-fusion " + chain);
    EXPECT_EQ(n.out.find("fusion groups"), std::string::npos) << n.out;
}

// The functional model runs the fused commands: every output is the one
// --no-fusion computes, byte for byte, and passes --check.
TEST(VectorFusion, FusedOutputsAreTheUnfusedOnes) {
    for (const char* program : {"tests/functional/vector_chains.pto", "tests/cli/mbv1_block.pto"}) {
        const std::string fused = (scratch() / "fused").string(), apart = (scratch() / "apart").string();
        Outcome f = run(std::string("-q --outputs '") + fused + "' " + program);
        ASSERT_EQ(f.status, 0) << f.err;
        Outcome a = run(std::string("-q --no-fusion --outputs '") + apart + "' " + program);
        ASSERT_EQ(a.status, 0) << a.err;
        int files = 0;
        for (const auto& entry : std::filesystem::directory_iterator(fused)) {
            const std::string name = entry.path().filename().string();
            EXPECT_EQ(slurp(entry.path().string()), slurp(apart + "/" + name)) << program << ": " << name;
            ++files;
        }
        EXPECT_GT(files, 0) << program;
        Outcome c = run(std::string("-q --check ") + program);
        EXPECT_EQ(c.status, 0) << program << "\n" << c.out << c.err;
        EXPECT_EQ(c.out.find("FAIL"), std::string::npos) << c.out;
    }
}

// Every chain of vector_chains.pto is a group: a batch_norm head with a
// residual add at the end, a head that broadcasts a bias, a chain reading
// the head's input again, two pooling heads, and chains with a cast (both
// ways between float16 and float32, as a member, the head, and after a
// pooling head) and silu.
TEST(VectorFusion, ProgramWithEveryKindOfChain) {
    Outcome o = run("tests/functional/vector_chains.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("fusion groups      9\n"
                         "  batch_norm_1 (batch_norm -> batch_norm -> relu -> sub -> relu -> sub -> add)\n"
                         "  add_2 (add -> mul -> tanh)\n"
                         "  sigmoid_1 (sigmoid -> mul)\n"
                         "  avg_pool_1 (avg_pool -> batch_norm -> relu)\n"
                         "  max_pool_1 (max_pool -> mul -> sigmoid)\n"
                         "  relu_4 (relu -> cast -> silu -> add)\n"
                         "  silu_2 (silu -> cast -> relu)\n"
                         "  cast_3 (cast -> silu -> mul)\n"
                         "  max_pool_2 (max_pool -> cast -> silu)\n"),
              std::string::npos)
        << o.out;
    const FusionFigures fused = measure_fusion("tests/functional/vector_chains.pto");
    const FusionFigures apart = measure_fusion("--no-fusion tests/functional/vector_chains.pto");
    EXPECT_LT(fused.cycles, apart.cycles);
    EXPECT_LT(fused.read, apart.read);
    EXPECT_LT(fused.written, apart.written);
}

// A chain whose operands leave no room for even one row with them runs
// apart (each operation its own stream), as without fusion: rows of
// 32 KiB of float16 in 160 KiB of L1, where relu alone takes 4 row slots
// (x and y, double-buffered) and the chain would take 6 (r too).
TEST(VectorFusion, ChainThatDoesNotFitRunsApart) {
    const std::string src = R"(import pypto as pypo
x = pypo.input("x", shape=(4, 16384), dtype="float16")
r = pypo.input("r", shape=(4, 16384), dtype="float16")
pypo.output("y", pypo.op.add(pypo.op.relu(x), r))
)";
    const std::string f = write_file("wide.pto", src);
    const FusionFigures fused = measure_fusion("--set cluster.l1_kib=160 " + f);
    const FusionFigures apart = measure_fusion("--set cluster.l1_kib=160 --no-fusion " + f);
    EXPECT_EQ(fused.groups, 0u);
    EXPECT_EQ(fused.cycles, apart.cycles);
    EXPECT_EQ(fused.read, apart.read);
    EXPECT_EQ(fused.written, apart.written);
    // Said so, never silently: a note in the report, the reason in --explain.
    const std::string explained = (scratch() / "wide_explain.txt").string();
    const Outcome o = run("--set cluster.l1_kib=160 --explain '" + explained + "' " + f);
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("notes\n  fusion group 'y' (relu -> add) ran unfused: not one row of the group's buffers "
                         "fits L1; its operations were lowered one by one, through DDR\n"),
              std::string::npos)
        << o.out;
    EXPECT_NE(slurp(explained).find("  fusion group: not fused (not one row of the group's buffers fits L1): add (op "
                                    "1) ran on their own\n"),
              std::string::npos);
}

// The MobileNet block of issue 17: its depthwise task (avg_pool, two
// batch_norms, relu6) is one vector chain: the image is read once and only
// the chain's result written, where before (5cd3ee5, the conv2d's group
// alone) every one of its seven operations read and wrote DDR: 519,624
// cycles, 7,195,904 bytes read and 7,225,344 written.
TEST(VectorFusion, MobileNetBlockDepthwiseIsOneChain) {
    Outcome o = run("tests/cli/mbv1_block.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("fusion groups      2\n"
                         "  avg_pool_1 (avg_pool -> batch_norm -> batch_norm -> relu -> sub -> relu -> sub)\n"
                         "  conv2d_1 (conv2d -> batch_norm -> relu -> sub -> relu -> sub)\n"),
              std::string::npos)
        << o.out;
    const FusionFigures f = measure_fusion("tests/cli/mbv1_block.pto");
    EXPECT_EQ(f.cycles, 206968u);
    EXPECT_EQ(f.read, 2651392u);
    EXPECT_EQ(f.written, 2408448u);
    EXPECT_LT(f.cycles, 519624u);
    EXPECT_LT(f.read, 7195904u);
    EXPECT_LT(f.written, 7225344u);
}
