// VECTOR timing on a vector unit (docs/timing-model.md §8), each test one
// simulation whose block starts at cycle 1 (dispatch_cycles = 1).
//
// Default vector unit: W = 128 B/cycle, pipeline P = 8. A vector command
// moves whole elements, so with float16 (e = 2) the bytes N*e around W are
// 126, 128, 130 (N = 63, 64, 65): ceil(N*e / W) = 1, 1, 2. With W = 129 they
// are W-1 and W+1 exactly (N = 64, 65).
#include "hw_test_util.h"

#include "sim/arch/vector_cost.h"

using namespace hwtest;
using arch::DType;
using arch::VectorOp;

namespace {

struct Expect {
    arch::Command cmd;
    uint64_t cycles;  // end - start
};

// Runs `cases` back to back on vector0 and checks each command starts where
// the previous one ended and lasts exactly its cycles.
void run_back_to_back(const arch::Config& c, const std::vector<Expect>& cases) {
    std::vector<arch::Command> cmds;
    for (const Expect& e : cases) cmds.push_back(e.cmd);
    SimRun r = simulate(c, program({block({stream(vector_unit(0), cmds)})}));
    uint64_t at = 1;
    for (size_t i = 0; i < cases.size(); ++i) {
        const trace::CommandRecord& rec = r.at(0, vector_unit(0), uint32_t(i));
        EXPECT_EQ(rec.start, at) << "command " << i << ": " << arch::format_command(arch::Program{}, cases[i].cmd);
        EXPECT_EQ(rec.end, at + cases[i].cycles)
            << "command " << i << ": " << arch::format_command(arch::Program{}, cases[i].cmd);
        at += cases[i].cycles;
    }
    EXPECT_EQ(r.stats.total_cycles, at);
}

// Distinct pass counts so that a class mix-up shows: transcendental 3,
// divide 5, transpose 2 (the default).
arch::Config distinct_passes() {
    arch::Config c = arch::default_config();
    c.vector_transcendental_rate = arch::Hundredths{300};
    c.vector_divide_rate = arch::Hundredths{500};
    c.vector_sqrt_rate = arch::Hundredths{600};
    return c;
}

// One pass: P + 1*ceil(N*2/128) = 9, 9, 10 for N = 63, 64, 65.
TEST(Vector, OnePassOpsAtTheWidthBoundary) {
    std::vector<Expect> cases;
    for (VectorOp op : {VectorOp::Copy, VectorOp::Add, VectorOp::Sub, VectorOp::Mul, VectorOp::Maximum,
                        VectorOp::Minimum, VectorOp::Select, VectorOp::Relu})
        for (auto [n, cycles] : {std::pair{63u, 9u}, {64u, 9u}, {65u, 10u}}) cases.push_back({vec(op, 1, n), cycles});
    run_back_to_back(distinct_passes(), cases);
}

// Transcendental, 3 cycles per repeat: 8 + 3*1, 8 + 3*1, 8 + 3*2; sqrt,
// its own class (on Ascend it costs an exp's repeats, but at float32's
// width), 6: 8 + 6, 8 + 6, 8 + 12.
TEST(Vector, TranscendentalOpsTakeTheirPasses) {
    std::vector<Expect> cases;
    for (VectorOp op : {VectorOp::Gelu, VectorOp::Sigmoid, VectorOp::Tanh, VectorOp::Exp})
        for (auto [n, cycles] : {std::pair{63u, 11u}, {64u, 11u}, {65u, 14u}}) cases.push_back({vec(op, 1, n), cycles});
    for (auto [n, cycles] : {std::pair{63u, 14u}, {64u, 14u}, {65u, 20u}})
        cases.push_back({vec(VectorOp::Sqrt, 1, n), cycles});
    run_back_to_back(distinct_passes(), cases);
}

// Divide class, 5 passes: 13, 13, 18; transpose, 2 passes: 10, 10, 12
// (a 5 x 13 matrix is N = 65 too: only N counts).
TEST(Vector, DivideAndTransposePasses) {
    std::vector<Expect> cases;
    for (VectorOp op : {VectorOp::Div})
        for (auto [n, cycles] : {std::pair{63u, 13u}, {64u, 13u}, {65u, 18u}}) cases.push_back({vec(op, 1, n), cycles});
    for (auto [n, cycles] : {std::pair{63u, 10u}, {64u, 10u}, {65u, 12u}})
        cases.push_back({vec(VectorOp::Transpose, 1, n), cycles});
    cases.push_back({vec(VectorOp::Transpose, 5, 13), 12});
    run_back_to_back(distinct_passes(), cases);
}

// The defaults (transcendental = divide = 4 passes): exp 64x256 float16 is
// 32768 B = 256 cycles per pass: 8 + 4*256 = 1032.
TEST(Vector, DefaultPassesOnALargeTile) {
    run_back_to_back(arch::default_config(), {{vec(VectorOp::Exp, 64, 256), 1032},
                                              {vec(VectorOp::Div, 64, 256), 1032},
                                              {vec(VectorOp::Transpose, 64, 256), 520},
                                              {vec(VectorOp::Add, 64, 256), 264}});
}

// W = 129, not a multiple of e: 64 float16 = 128 B = W-1 -> 1 cycle; 65 =
// 130 B = W+1 -> 2 cycles.
TEST(Vector, OddWidthOneByteEitherSide) {
    arch::Config c = arch::default_config();
    c.vector_bytes_per_cycle = 129;
    run_back_to_back(c, {{vec(VectorOp::Relu, 1, 64), 9}, {vec(VectorOp::Relu, 1, 65), 10}});
}

// float32 (e = 4): 31, 32, 33 elements are 124, 128, 132 B -> 9, 9, 10.
// A cast is timed by its source: float32 -> float16 of 33 elements is
// 132 source bytes (2 cycles, not the 66 destination bytes' 1);
// float16 -> float32 of 65 is 130 source bytes (2, not the 260's 3).
TEST(Vector, Float32AndCastCountSourceBytes) {
    run_back_to_back(arch::default_config(), {{vec(VectorOp::Copy, 1, 31, DType::Float32), 9},
                                              {vec(VectorOp::Copy, 1, 32, DType::Float32), 9},
                                              {vec(VectorOp::Copy, 1, 33, DType::Float32), 10},
                                              {vec(VectorOp::Cast, 1, 33, DType::Float32), 10},
                                              {vec(VectorOp::Cast, 1, 65, DType::Float16), 10}});
}

// Reductions: P + ceil(N*e/W) + rows * ceil(log2(min(cols, lanes))), lanes =
// 128/2 = 64 for float16, 32 for float32.
//   3 x 1  f16:  6 B -> 1, tree 3*log2(1) = 0:          8 + 1 + 0  = 9
//   3 x 64 f16:  384 B -> 3, tree 3*6 = 18:              8 + 3 + 18 = 29
//   3 x 65 f16:  390 B -> 4, tree 3*ceil(log2 64) = 18:  8 + 4 + 18 = 30
//   2 x 33 f16:  132 B -> 2, tree 2*ceil(log2 33) = 12:  8 + 2 + 12 = 22
//   1 x 32 f32:  128 B -> 1, tree 5:                     8 + 1 + 5  = 14
//   1 x 33 f32:  132 B -> 2, tree ceil(log2 32) = 5:     8 + 2 + 5  = 15
TEST(Vector, ReductionsAddARowTree) {
    run_back_to_back(arch::default_config(), {{vec(VectorOp::ReduceSum, 3, 1), 9},
                                              {vec(VectorOp::ReduceSum, 3, 64), 29},
                                              {vec(VectorOp::ReduceMax, 3, 65), 30},
                                              {vec(VectorOp::ReduceMax, 2, 33), 22},
                                              {vec(VectorOp::ReduceSum, 1, 32, DType::Float32), 14},
                                              {vec(VectorOp::ReduceSum, 1, 33, DType::Float32), 15}});
}

// W = 3 B/cycle with float32: W / e = 0, so lanes = 1 and there is no tree:
// 2 x 5 = 40 B -> 14 cycles, 8 + 14 = 22.
TEST(Vector, NarrowerThanAnElementHasOneLane) {
    arch::Config c = arch::default_config();
    c.vector_bytes_per_cycle = 3;
    run_back_to_back(c, {{vec(VectorOp::ReduceMax, 2, 5, DType::Float32), 22}});
}

TEST(VectorCost, Formula) {
    arch::Config c = arch::default_config();
    arch::VectorCost cost = arch::vector_cost(c, vec(VectorOp::ReduceSum, 3, 65).vec);
    EXPECT_EQ(cost.head_cycles, 8u);
    EXPECT_EQ(cost.repeats, 4u);
    EXPECT_EQ(cost.data_cycles, 4u);
    EXPECT_EQ(cost.tree_cycles, 18u);
    EXPECT_EQ(cost.total_cycles, 30u);
    EXPECT_EQ(arch::vector_class(VectorOp::Gelu), arch::VectorClass::Transcendental);
    EXPECT_EQ(arch::vector_class(VectorOp::Sqrt), arch::VectorClass::Sqrt);
    EXPECT_EQ(arch::vector_class(VectorOp::Div), arch::VectorClass::Divide);
    EXPECT_EQ(arch::vector_class(VectorOp::Transpose), arch::VectorClass::Transpose);
    EXPECT_EQ(arch::vector_class(VectorOp::Cast), arch::VectorClass::Cast);
    EXPECT_EQ(arch::vector_class(VectorOp::Select), arch::VectorClass::Select);
    EXPECT_EQ(arch::vector_class(VectorOp::Relu), arch::VectorClass::Relu);
    EXPECT_EQ(arch::vector_class(VectorOp::Maximum), arch::VectorClass::MinMax);
    EXPECT_EQ(arch::vector_class(VectorOp::Sub), arch::VectorClass::Add);
    EXPECT_EQ(arch::vector_class(VectorOp::Mul), arch::VectorClass::Mul);
    EXPECT_EQ(arch::vector_class(VectorOp::Argmax), arch::VectorClass::Reduce);
    EXPECT_EQ(arch::vector_class_timing(c, arch::VectorClass::Transcendental).rate_hundredths, 400u);
}

// A class that computes in wider elements counts a narrower dtype's
// repeats at its width (PTO-ISA's 910B3 goldens: TDIV float16 64 x 64 in
// 304 cycles, float32 in 288). 64 x 64 float16 at 256 B a repeat: 32
// repeats as its own, 64 at 4 bytes; float32 is 64 either way. A reduce's
// lanes narrow with the width: 64 float32 lanes, a tree of 6 levels a row.
TEST(VectorCost, ElementBytesWidensNarrowerDtypes) {
    arch::Config c = arch::default_config();
    c.vector_bytes_per_cycle = 256;
    c.vector_divide_head = 31, c.vector_divide_rate = arch::Hundredths{403};
    EXPECT_EQ(arch::vector_cost(c, vec(VectorOp::Div, 64, 64, DType::Float16).vec).repeats, 32u);
    c.vector_divide_element_bytes = 4;
    EXPECT_EQ(arch::vector_cost(c, vec(VectorOp::Div, 64, 64, DType::Float16).vec).repeats, 64u);
    EXPECT_EQ(arch::vector_cost(c, vec(VectorOp::Div, 64, 64, DType::Float16).vec).total_cycles, 31u + 258);
    EXPECT_EQ(arch::vector_cost(c, vec(VectorOp::Div, 64, 64, DType::Float32).vec).total_cycles, 31u + 258);
    EXPECT_EQ(arch::vector_cost(c, vec(VectorOp::Mul, 64, 64, DType::Float16).vec).repeats, 32u);  // its own class
    c.vector_reduce_element_bytes = 4;
    const arch::VectorCost r = arch::vector_cost(c, vec(VectorOp::ReduceSum, 2, 128, DType::Float16).vec);
    EXPECT_EQ(r.repeats, 4u);
    EXPECT_EQ(r.tree_cycles, 2u * 6);
}

// A measured fit (PTO-ISA's TADD float32 on a 910B3: 2.11 cycles per
// 256-byte repeat + 24) is kept exactly: 64 x 64 float32 = 16,384 B = 64
// repeats -> ceil(64 x 211 / 100) = 136 (135.04 rounded up), + 24 = 160.
// A mul with its own head and rate beside it shows the classes are apart.
TEST(VectorCost, FractionalRateRoundsUpOncePerCommand) {
    arch::Config c = arch::default_config();
    c.vector_bytes_per_cycle = 256;
    c.vector_add_head = 24;
    c.vector_add_rate = arch::Hundredths{211};
    c.vector_mul_head = 25;
    c.vector_mul_rate = arch::Hundredths{230};
    arch::VectorCost add = arch::vector_cost(c, vec(VectorOp::Add, 64, 64, DType::Float32).vec);
    EXPECT_EQ(add.repeats, 64u);
    EXPECT_EQ(add.data_cycles, 136u);
    EXPECT_EQ(add.total_cycles, 160u);
    EXPECT_EQ(arch::vector_cost(c, vec(VectorOp::Sub, 64, 64, DType::Float32).vec).total_cycles, 160u);
    // 64 x 230 / 100 = 147.2 -> 148, + 25.
    EXPECT_EQ(arch::vector_cost(c, vec(VectorOp::Mul, 64, 64, DType::Float32).vec).total_cycles, 173u);
    // One repeat: ceil(2.11) = 3, + 24.
    EXPECT_EQ(arch::vector_cost(c, vec(VectorOp::Add, 1, 1, DType::Float32).vec).total_cycles, 27u);
    // Other classes keep the defaults: relu 8 + 64.
    EXPECT_EQ(arch::vector_cost(c, vec(VectorOp::Relu, 64, 64, DType::Float32).vec).total_cycles, 72u);
}

// Hand-off through flags, and the vector unit's private L1 port:
//   dma0 loads 4096 B: [1, 230) (eligible 2, 128 cycles, + 100), sets f0.
//   vector0 waits f0: starts 230 + 1; exp 64x256 float16 takes 1032: ends
//   1263, sets f1. dma0's store waits f1: starts 1264, eligible 1265,
//   + 128 + 100: ends 1493.
//   cube0.dma moves 256 B L1 -> L0 meanwhile: [2,3) [3,4) + 4 = 8, as if the
//   vector unit were not there (it never is on the cube DMAs' L1 port).
TEST(Vector, FlagHandOffFromDmaAndBack) {
    arch::Command exp = vec(VectorOp::Exp, 64, 256, DType::Float16, {0}, {1});
    arch::Command store = dma(Space::L1, Space::DDR, 4096, {1});
    arch::Program p = program({block({stream(dma_engine(0), {load(4096, {}, {0}), store}),
                                      stream(cube_dma(0), {to_l0(256)}), stream(vector_unit(0), {exp})},
                                     2)});
    SimRun r = simulate(arch::default_config(), p);
    EXPECT_EQ(r.at(0, dma_engine(0), 0).end, 230u);
    EXPECT_EQ(r.at(0, vector_unit(0), 0).start, 231u);
    EXPECT_EQ(r.at(0, vector_unit(0), 0).end, 1263u);
    EXPECT_EQ(r.at(0, dma_engine(0), 1).start, 1264u);
    EXPECT_EQ(r.at(0, dma_engine(0), 1).end, 1493u);
    EXPECT_EQ(r.at(0, cube_dma(0), 0).end, 8u);
    EXPECT_EQ(r.stats.total_cycles, 1493u);
    // The vector unit's statistics: busy 1032 cycles, 64*256 elements.
    bool found = false;
    for (const trace::UnitStats& u : r.stats.units)
        if (u.name == "cluster0.vector0") {
            found = true;
            EXPECT_EQ(u.kind, "vector");
            EXPECT_EQ(u.busy_cycles, 1032u);
            EXPECT_EQ(u.commands, 1u);
            EXPECT_EQ(u.elements, 64u * 256);
        }
    EXPECT_TRUE(found);
}

// Two vector units of one cluster run side by side: both [1, 1 + 264).
TEST(Vector, TwoUnitsRunInParallel) {
    arch::Config c = arch::default_config();
    c.vector_units = 2;
    arch::Program p = program({block({stream(vector_unit(0), {vec(VectorOp::Add, 64, 256)}),
                                      stream(vector_unit(1), {vec(VectorOp::Mul, 64, 256)})})});
    SimRun r = simulate(c, p);
    EXPECT_EQ(r.at(0, vector_unit(0), 0).end, 265u);
    EXPECT_EQ(r.at(0, vector_unit(1), 0).start, 1u);
    EXPECT_EQ(r.at(0, vector_unit(1), 0).end, 265u);
    // Units per cluster: dma0, 4 x (cube DMA, cube), vector0, vector1.
    EXPECT_EQ(r.stats.units.size(), 4u * (1 + 8 + 2));
}

}  // namespace
