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

// narrow_to names the 2-byte type a float32 write-back narrows to.
TEST(ProgramCheck, NarrowToOnlyWithAConversionToATwoByteType) {
    auto error = [](const arch::Command& c) -> std::string {
        arch::Program p;
        p.blocks.push_back(block({stream({EngineKind::CubeDma, 0}, {c})}));
        try {
            arch::check_program(p, arch::default_config());
        } catch (const arch::ProgramError& e) {
            return e.what();
        }
        return "(no error)";
    };
    arch::Command back = dma(Space::L0, Space::L1, 256);
    back.dma.narrow_to = DType::BFloat16;
    EXPECT_EQ(error(back),
              "invalid program: block 0, cube0.dma command 0: narrow_to is only for a float32 conversion "
              "(convert_f32_to_f16)");
    back.dma.convert_f32_to_f16 = true;
    EXPECT_EQ(error(back), "(no error)");
    back.dma.narrow_to = DType::Float32;
    EXPECT_EQ(error(back),
              "invalid program: block 0, cube0.dma command 0: narrow_to must be float16 or bfloat16, got "
              "float32");
    back.dma.narrow_to = DType::Int8;
    EXPECT_EQ(error(back),
              "invalid program: block 0, cube0.dma command 0: narrow_to must be float16 or bfloat16, got int8");
}

// int32 is the int8 cube's accumulator, never its operand.
TEST(ProgramCheck, MatmulOperandsAreNeverInt32) {
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::Cube, 0}, {matmul(4, 4, 4, DType::Int32)})}));
    try {
        arch::check_program(p, arch::default_config());
        FAIL() << "no error";
    } catch (const arch::ProgramError& e) {
        EXPECT_STREQ(e.what(),
                     "invalid program: block 0, cube0 command 0: MATMUL operands of int32: the cube multiplies "
                     "float16, float32, bfloat16 or int8");
    }
    p.blocks[0].streams[0].commands[0] = matmul(4, 4, 4, DType::Int8);
    EXPECT_NO_THROW(arch::check_program(p, arch::default_config()));
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

std::string check_error(const arch::Program& p, const arch::Config& c = arch::default_config()) {
    try {
        arch::check_program(p, c);
    } catch (const arch::ProgramError& e) {
        return e.what();
    }
    return "no error";
}

// Several blocks per cluster (max_parallel 8 on 4 clusters: 2 slots) with
// partitioned memories: L1 addresses in the block's slot or above every
// slot (the on-chip tensors' region), L0 addresses in its slot.
TEST(ProgramCheck, SlotBounds) {
    arch::Program p;
    p.max_parallel = 8;
    p.slot_l1_bytes = 128 * 1024;
    p.slot_l0_bytes = 16 * 1024;
    arch::Command in_slot = dma(Space::DDR, Space::L1, 1024);
    in_slot.dma.dst_addr = 127 * 1024;
    arch::Command straddles = in_slot;
    straddles.dma.dst_addr = 127 * 1024 + 1;
    arch::Command l0 = dma(Space::L1, Space::L0, 1024);
    l0.dma.dst_addr = 15 * 1024 + 1;
    p.blocks.push_back(block({stream({EngineKind::ClusterDma, 0}, {in_slot})}));
    EXPECT_EQ(check_error(p), "no error");
    p.blocks[0] = block({stream({EngineKind::ClusterDma, 0}, {straddles})});
    EXPECT_EQ(check_error(p),
              "invalid program: block 0, dma0 command 0: destination region [130049, 131073) of L1 is "
              "neither in the block's slot [0, 131072) nor above every slot (from 262144)");
    p.blocks[0] = block({stream({EngineKind::CubeDma, 0}, {l0})});
    EXPECT_EQ(check_error(p),
              "invalid program: block 0, cube0.dma command 0: destination region ends at byte 16385 of "
              "L0, beyond the block's slot of 16384 bytes");
    p.slot_l0_bytes = 17 * 1024;
    EXPECT_EQ(check_error(p),
              "invalid program: slots of 131072 bytes of L1 and 17408 bytes of L0 for 2 blocks per "
              "cluster do not fit L1 (262144 bytes) and L0 (32768 bytes)");
}

// Co-resident blocks need a flag latency of at least a cycle (§4, §5).
TEST(ProgramCheck, SeveralBlocksPerClusterNeedFlagLatency) {
    arch::Program p;
    p.max_parallel = 5;
    p.blocks.push_back(block({stream({EngineKind::Cube, 0}, {matmul(4, 4, 4, DType::Float16)})}));
    arch::Config c = arch::default_config();
    c.flag_latency_cycles = 0;
    EXPECT_EQ(check_error(p, c),
              "invalid program: max_parallel 5 puts 2 blocks on a cluster at once, which needs "
              "sync.flag_latency_cycles >= 1 (an engine chooses among its blocks' commands a cycle "
              "after their flags are set)");
    p.max_parallel = 4;
    EXPECT_EQ(check_error(p, c), "no error");
}

// A region whose end does not fit 64 bits is beyond every memory; it was
// reported at the wrapped-around byte (a fuzzed command program).
TEST(ProgramCheck, RegionEndOverflowingSixtyFourBits) {
    arch::Command c = dma(Space::DDR, Space::L1, 4096);
    c.dma.src_addr = ~uint64_t{0};
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::ClusterDma, 0}, {c})}));
    EXPECT_EQ(check_error(p, arch::default_config()),
              "invalid program: block 0, dma0 command 0: source region ends beyond byte 18446744073709551615, "
              "beyond DDR capacity 8589934592");
    c.dma.src_addr = 0;
    c.dma.rows = 3;
    c.dma.src_stride = uint64_t{1} << 63;
    p.blocks[0].streams[0].commands[0] = c;
    EXPECT_EQ(check_error(p, arch::default_config()),
              "invalid program: block 0, dma0 command 0: source region ends beyond byte 18446744073709551615, "
              "beyond DDR capacity 8589934592");
}

// Each block on a cluster needs at least 1 KiB of L1, as for
// pypo.config.MAX_PARALLEL; a larger max_parallel exhausted memory (bad_alloc).
TEST(ProgramCheck, MaxParallelBeyondOneBlockPerKiBOfL1) {
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::Cube, 0}, {matmul(4, 4, 4, DType::Float16)})}));
    p.max_parallel = 4 * 256;  // 4 clusters of 256 KiB
    EXPECT_EQ(check_error(p, arch::default_config()), "no error");
    p.max_parallel = 4 * 256 + 1;
    EXPECT_EQ(check_error(p, arch::default_config()),
              "invalid program: max_parallel 1025 puts 257 blocks on a cluster at once; at most 256 can be (one per "
              "KiB of L1)");
    p.max_parallel = 4294967295u;
    EXPECT_EQ(check_error(p, arch::default_config()),
              "invalid program: max_parallel 4294967295 puts 1073741824 blocks on a cluster at once; at most 256 can "
              "be (one per KiB of L1)");
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

// A vector unit's load and store engines exist only with a Unified
// Buffer, which then holds the vector unit's operands: L1 is not its memory
// any more.
TEST(ProgramCheck, VectorUnitsDmaEngineAndUnifiedBuffer) {
    arch::Program p;
    p.blocks.push_back(block({stream({EngineKind::VectorLoad, 0}, {dma(Space::DDR, Space::UB, 64)})}));
    auto message = [&](const arch::Config& c) {
        try {
            arch::check_program(p, c);
        } catch (const arch::ProgramError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(message(arch::default_config()),
              "invalid program: block 0, vector0.load command 0: engine does not exist on this hardware (a vector "
              "unit has load and store engines only with its own Unified Buffer, vector.buffer_kib > 0)");
    arch::Config ub = arch::default_config();
    ub.vector_buffer_kib = 16;
    EXPECT_EQ(message(ub), "no error");
    p.blocks[0].streams[0].commands[0].dma.dst_addr = 16 * 1024 - 32;
    EXPECT_EQ(message(ub),
              "invalid program: block 0, vector0.load command 0: destination region ends at byte 16416, beyond UB "
              "capacity 16384");
    p.blocks[0].streams[0].commands[0] = dma(Space::UB, Space::DDR, 64);
    EXPECT_EQ(message(ub), "invalid program: block 0, vector0.load command 0: engine cannot move UB -> DDR");
    // The vector unit's operands are in its UB (vec() puts its destination at 0x20000).
    p.blocks[0].streams = {stream({EngineKind::Vector, 0}, {vec(arch::VectorOp::Exp, 1, 64)})};
    EXPECT_EQ(message(ub),
              "invalid program: block 0, vector0 command 0: destination region ends at byte 131200, beyond UB "
              "capacity 16384");
    EXPECT_EQ(message(arch::default_config()), "no error");
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
