// Static deadlock detection: a block whose flag waits form a cycle is
// refused before simulating, with the cycle spelled out; a block whose
// waits can all be met passes.
#include "sim/arch/wait_cycle.h"

#include <gtest/gtest.h>

#include <random>

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

// The linear check every block goes through agrees with the wait graph on
// random blocks: one setter and one waiter per flag (as check_block
// demands), as many sets as waits, commands in random order, so some blocks
// can finish and some cannot.
TEST(WaitCycle, LinearCheckAgreesWithTheGraph) {
    std::mt19937 rng(7);
    int cycles = 0, fine = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        const int engines = 2 + int(rng() % 3), flags = 1 + int(rng() % 4);
        std::vector<std::vector<arch::Command>> cmds{size_t(engines)};
        for (auto& c : cmds) c.resize(1 + rng() % 5, matmul(4, 4, 4));
        for (int f = 0; f < flags; ++f) {
            const size_t setter = rng() % size_t(engines),
                         waiter = (setter + 1 + rng() % size_t(engines - 1)) % size_t(engines);
            const int tokens = 1 + int(rng() % 3);
            for (int t = 0; t < tokens; ++t) {
                cmds[setter][rng() % cmds[setter].size()].sets.push_back(arch::FlagId(f));
                cmds[waiter][rng() % cmds[waiter].size()].waits.push_back(arch::FlagId(f));
            }
        }
        std::vector<arch::Stream> streams;
        for (int e = 0; e < engines; ++e) streams.push_back(stream(cube(e), cmds[size_t(e)]));
        const arch::Block b = block(streams, uint16_t(flags));
        const bool met = arch::waits_can_be_met(b);
        EXPECT_EQ(met, arch::find_wait_cycle(b).empty()) << "trial " << trial;
        ++(met ? fine : cycles);
    }
    // Both outcomes are exercised.
    EXPECT_GT(cycles, 100);
    EXPECT_GT(fine, 100);
}

}  // namespace
