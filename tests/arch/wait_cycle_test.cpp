// Static deadlock detection: a block whose flag waits form a cycle is
// refused before simulating, with the cycle spelled out; a block whose
// waits can all be met passes.
#include "sim/arch/wait_cycle.h"

#include <gtest/gtest.h>

#include "sim/arch/program_check.h"
#include "tests/support/program_builders.h"

using namespace testprog;
using arch::Space;

namespace {

// cube0 waits on f1 before setting f0; cube1 waits on f0 before setting f1.
TEST(WaitCycle, TwoEnginesWaitingOnEachOther) {
    arch::Block b = block({stream(cube(0), {matmul(4, 4, 4, arch::DType::Float16, {1}, {0})}),
                           stream(cube(1), {matmul(4, 4, 4, arch::DType::Float16, {0}, {1})})},
                          2);
    EXPECT_EQ(arch::find_wait_cycle(b),
              "cube0 command 0 waits on f1 set by cube1 command 0, which waits on f0 set by cube0 command 0");
}

// The cycle runs through program order: dma0's first load waits for the
// cube, whose matmul waits for dma0's second load, which comes after the first.
TEST(WaitCycle, ThroughProgramOrder) {
    arch::Block b = block({stream(dma_engine(0), {load(64, {1}, {}), load(64, {}, {0})}),
                           stream(cube(0), {matmul(4, 4, 4, arch::DType::Float16, {0}, {1})})},
                          2);
    EXPECT_EQ(arch::find_wait_cycle(b),
              "dma0 command 0 waits on f1 set by cube0 command 0, which waits on f0 set by dma0 command 1, which "
              "follows dma0 command 0");
}

TEST(WaitCycle, SecondWaitConsumesSecondSet) {
    // cube0 command 1 waits for the second set of f0, which dma0 makes only
    // after cube0 command 1 has set f1: a cycle three commands long.
    arch::Block b = block({stream(dma_engine(0), {load(64, {}, {0}), load(64, {1}, {0})}),
                           stream(cube(0), {matmul(4, 4, 4, arch::DType::Float16, {0}, {}),
                                            matmul(4, 4, 4, arch::DType::Float16, {0}, {1})})},
                          2);
    EXPECT_EQ(arch::find_wait_cycle(b),
              "dma0 command 1 waits on f1 set by cube0 command 1, which waits on f0 set by dma0 command 1");
}

TEST(WaitCycle, PipelineWithoutCycle) {
    arch::Block b = block({stream(dma_engine(0), {load(64, {}, {0}), load(64, {1}, {0})}),
                           stream(cube(0), {matmul(4, 4, 4, arch::DType::Float16, {0}, {1}),
                                            matmul(4, 4, 4, arch::DType::Float16, {0}, {})})},
                          2);
    EXPECT_EQ(arch::find_wait_cycle(b), "");
}

TEST(WaitCycle, CheckProgramRefusesTheBlock) {
    arch::Program p = program({block({}), block({stream(cube(0), {matmul(4, 4, 4, arch::DType::Float16, {1}, {0})}),
                                                 stream(cube(1), {matmul(4, 4, 4, arch::DType::Float16, {0}, {1})})},
                                                2)});
    try {
        arch::check_program(p, arch::default_config());
        FAIL() << "no error";
    } catch (const arch::ProgramError& e) {
        EXPECT_STREQ(e.what(),
                     "invalid program: block 1: its flag waits form a cycle, so it can never finish: cube0 command 0 "
                     "waits on f1 set by cube1 command 0, which waits on f0 set by cube0 command 0");
    }
}

}  // namespace
