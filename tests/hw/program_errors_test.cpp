// Programs the model refuses: structural errors (and cyclic flag waits)
// before simulating.
#include "hw_test_util.h"

#include "sim/arch/program_check.h"

using namespace hwtest;
using arch::DType;
using arch::EngineKind;
using arch::Space;

namespace {

TEST(ProgramCheck, DmaBeyondL1) {
    arch::Command c = dma(Space::DDR, Space::L1, 4096);
    c.dma.dst_addr = 256 * 1024 - 100;
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::ClusterDma, 0}, {c})}));
    try {
        arch::check_program(p, arch::default_config());
        FAIL() << "no error";
    } catch (const arch::ProgramError& e) {
        EXPECT_STREQ(e.what(),
                     "invalid program: block 0, dma0 command 0: destination region ends at byte 266140, beyond L1 "
                     "capacity 262144");
    }
}

TEST(ProgramCheck, WaitWithoutEnoughSets) {
    arch::Command mm = matmul(4, 4, 4, DType::Float16);
    mm.waits = {0};
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::Cube, 0}, {mm})}, 1));
    try {
        arch::check_program(p, arch::default_config());
        FAIL() << "no error";
    } catch (const arch::ProgramError& e) {
        EXPECT_STREQ(e.what(), "invalid program: block 0: flag f0 is waited on 1 times but set only 0 times");
    }
}

// With max_parallel = 2 only clusters 0 and 1 run blocks (§4).
TEST(ProgramCheck, PinnedToAClusterThatRunsNoBlocks) {
    arch::Program p;
    p.max_parallel = 2;
    p.blocks.push_back(block({stream({EngineKind::Cube, 0}, {matmul(4, 4, 4, DType::Float16)})}));
    p.blocks[0].cluster = 2;
    try {
        arch::check_program(p, arch::default_config());
        FAIL() << "no error";
    } catch (const arch::ProgramError& e) {
        EXPECT_STREQ(e.what(), "invalid program: block 0: runs on cluster2, but only clusters 0-1 run blocks");
    }
}

TEST(ProgramCheck, CubeEngineThatDoesNotExist) {
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::Cube, 4}, {matmul(4, 4, 4, DType::Float16)})}));
    EXPECT_THROW(arch::check_program(p, arch::default_config()), arch::ProgramError);
}

// cube0 waits on f1 before setting f0; cube1 waits on f0 before setting f1:
// refused before the chip is built (sim/arch/wait_cycle.h), so a run never
// stops at a deadlock the program already had.
TEST(Simulation, DeadlockIsRefusedBeforeSimulating) {
    arch::Command a = matmul(4, 4, 4, DType::Float16), b = a;
    a.waits = {1}, a.sets = {0};
    b.waits = {0}, b.sets = {1};
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::Cube, 0}, {a}), stream({EngineKind::Cube, 1}, {b})}, 2));
    hw::setup_systemc();
    try {
        hw::simulate(arch::default_config(), p);
        FAIL() << "no error";
    } catch (const arch::ProgramError& e) {
        EXPECT_STREQ(e.what(),
                     "invalid program: block 0: its flag waits form a cycle, so it can never finish: cube0 command 0 "
                     "waits on f1 set by cube1 command 0, which waits on f0 set by cube0 command 0");
    }
}

}  // namespace
