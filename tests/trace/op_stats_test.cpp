// Per-operation statistics (sim/trace/op_stats.h): each command is charged
// to the operation its tag names; an operation's stall cycles are the
// cycles of its span in which none of its commands ran.
#include "sim/trace/op_stats.h"

#include <gtest/gtest.h>

#include "tests/support/program_builders.h"

namespace {

using namespace testprog;

trace::CommandRecord ran(arch::EngineId e, uint64_t start, uint64_t end) {
    trace::CommandRecord r;
    r.engine = e, r.start = start, r.end = end;
    return r;
}

// x: one load; y: two exps on the vector unit and a float32 MATMUL that
// overlaps the second, with a gap of 60 cycles [40, 100) in between.
struct TwoOps {
    arch::Program program;
    arch::Config config = arch::default_config();
    arch::Command load_x = load(4096), exp_y = vec(arch::VectorOp::Exp, 64, 256),
                  mm_y = matmul(16, 16, 16, arch::DType::Float32), untagged = load(64);
    TwoOps() {
        program.ops = {{"x", "load", "", {}}, {"y", "exp", "t", {0}}};
        program.tags = {{"", -1}, {"load x", 0}, {"exp y", 1}, {"mm y", 1}};
        load_x.tag = 1, exp_y.tag = 2, mm_y.tag = 3;
    }
    std::vector<trace::OpStats> run() {
        trace::OpStatsRecorder r(program, config);
        r.on_command(ran(vector_unit(0), 0, 40), exp_y);
        r.on_command(ran(dma_engine(0), 0, 100), load_x);
        r.on_command(ran(dma_engine(0), 100, 300), untagged);  // charged to no operation
        r.on_command(ran(vector_unit(0), 100, 150), exp_y);
        r.on_command(ran(cube(0), 120, 200), mm_y);
        return r.ops();
    }
};

TEST(OpStats, StallCyclesAreTheSpanNoCommandOfTheOperationRan) {
    const std::vector<trace::OpStats> ops = TwoOps().run();
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_EQ(ops[0].cycles(), 100u);
    EXPECT_EQ(ops[0].active_cycles, 100u);
    EXPECT_EQ(ops[0].stall_cycles(), 0u);
    EXPECT_EQ(ops[1].start, 0u);
    EXPECT_EQ(ops[1].end, 200u);
    EXPECT_EQ(ops[1].active_cycles, 140u);  // [0, 40) and [100, 200)
    EXPECT_EQ(ops[1].stall_cycles(), 60u);
    EXPECT_EQ(ops[1].vector_cycles, 90u);
    EXPECT_EQ(ops[1].cube_cycles, 80u);
}

// The bytes per level follow §9: the load reads DDR and writes L1, each exp
// reads and writes 64 x 256 float16 in L1, the MATMUL reads its operands
// from L0: k (m ceil(n / 4) + n ceil(m / 4)) x 4 bytes = 16 x 128 x 4.
TEST(OpStats, BytesPerMemoryLevelAndFloat32Macs) {
    const std::vector<trace::OpStats> ops = TwoOps().run();
    EXPECT_EQ(ops[0].memory.ddr.read, 4096u);
    EXPECT_EQ(ops[0].memory.l1.written, 4096u);
    EXPECT_EQ(ops[0].memory.l1.read + ops[0].memory.ddr.written + ops[0].memory.l0.read, 0u);
    EXPECT_EQ(ops[0].dma_bytes, 4096u);
    EXPECT_EQ(ops[1].memory.l1.read, 65536u);
    EXPECT_EQ(ops[1].memory.l1.written, 65536u);
    EXPECT_EQ(ops[1].memory.l0.read, 8192u);
    EXPECT_EQ(ops[1].memory.l0.written + ops[1].memory.ddr.read, 0u);
    EXPECT_EQ(ops[1].macs, 4096u);
    EXPECT_EQ(ops[1].float32_macs, 4096u);
}

// A task's figures add its operations' up, but not their active cycles.
TEST(OpStats, TasksSumTheirOperationsButNotTheirActiveCycles) {
    const std::vector<trace::OpStats> tasks = trace::task_stats(TwoOps().run());
    ASSERT_EQ(tasks.size(), 2u);
    EXPECT_EQ(tasks[1].name, "t");
    EXPECT_EQ(tasks[1].memory.l0.read, 8192u);
    EXPECT_EQ(tasks[1].float32_macs, 4096u);
    EXPECT_EQ(tasks[1].active_cycles, 0u);
}

}  // namespace
