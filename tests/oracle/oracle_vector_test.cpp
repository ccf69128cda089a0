// The oracle's VECTOR timing (docs/timing-model.md §8) on hand-built
// programs. Block start B = 1. Default vector unit: W = 128 B/cycle,
// pipeline P = 8, passes: transcendental 4, divide 4, transpose 2.
#include <gtest/gtest.h>

#include "tests/oracle/oracle.h"
#include "tests/oracle/oracle_test_util.h"

namespace {

using namespace oracle_test;
using arch::DType;
using arch::VectorOp;

// `cmds` back to back on vector0; returns each command's length.
std::vector<uint64_t> lengths(const std::vector<arch::Command>& cmds, const arch::Config& cfg) {
    oracle::Result r = oracle::run(program({block({stream(vector_unit(0), cmds)})}), cfg);
    std::vector<uint64_t> out;
    uint64_t at_cycle = 1;
    for (size_t i = 0; i < cmds.size(); ++i) {
        StartEnd t = at(r, 0, vector_unit(0), uint32_t(i));
        EXPECT_EQ(t.start, at_cycle) << "command " << i;
        out.push_back(t.end - t.start);
        at_cycle = t.end;
    }
    EXPECT_EQ(r.total_cycles, at_cycle);
    return out;
}

using L = std::vector<uint64_t>;

// float16 N = 63, 64, 65 -> 126, 128, 130 B -> 1, 1, 2 cycles per pass.
// With transcendental 3, sqrt 6, divide 5 (distinct on purpose):
//   one pass: 9, 9, 10; exp: 8+3, 8+3, 8+6; sqrt: 8+6, 8+6, 8+12;
//   div: 8+5, 8+5, 8+10; transpose: 8+2, 8+2, 8+4.
TEST(OracleVector, PassesPerCostClassAtTheWidthBoundary) {
    arch::Config cfg = config(R"({"vector": {"transcendental": {"cycles_per_repeat": 3},
                                             "sqrt": {"cycles_per_repeat": 6}, "divide": {"cycles_per_repeat": 5}}})");
    auto three = [](VectorOp op) { return std::vector<arch::Command>{vec(op, 1, 63), vec(op, 1, 64), vec(op, 1, 65)}; };
    for (VectorOp op : {VectorOp::Copy, VectorOp::Add, VectorOp::Sub, VectorOp::Mul, VectorOp::Maximum,
                        VectorOp::Minimum, VectorOp::Select, VectorOp::Relu, VectorOp::Cast})
        EXPECT_EQ(lengths(three(op), cfg), (L{9, 9, 10})) << arch::vector_op_name(op);
    for (VectorOp op : {VectorOp::Gelu, VectorOp::Sigmoid, VectorOp::Tanh, VectorOp::Exp})
        EXPECT_EQ(lengths(three(op), cfg), (L{11, 11, 14})) << arch::vector_op_name(op);
    EXPECT_EQ(lengths(three(VectorOp::Sqrt), cfg), (L{14, 14, 20}));
    for (VectorOp op : {VectorOp::Div}) EXPECT_EQ(lengths(three(op), cfg), (L{13, 13, 18})) << arch::vector_op_name(op);
    EXPECT_EQ(lengths(three(VectorOp::Transpose), cfg), (L{10, 10, 12}));
}

// W = 129: 64 float16 = 128 B = W-1 -> 1 cycle, 65 = 130 B = W+1 -> 2.
// Pipeline 0: the length is the data cycles alone.
TEST(OracleVector, OddWidthAndNoPipeline) {
    arch::Config cfg = config(R"({"vector": {"bytes_per_cycle": 129, "relu": {"head_cycles": 0},
                                             "transcendental": {"head_cycles": 0}}})");
    EXPECT_EQ(lengths({vec(VectorOp::Relu, 1, 64), vec(VectorOp::Relu, 1, 65), vec(VectorOp::Exp, 8, 65)}, cfg),
              (L{1, 2, 4 * 9}));  // 8x65 = 1040 B -> ceil(1040/129) = 9, 4 passes
}

// A measured fit's fractional rate, rounded up once per command: 2.11 cycles
// per 256-byte repeat + 24 (PTO-ISA's TADD float32, 910B3) on 64 x 64 float32
// = 64 repeats -> 24 + ceil(135.04) = 160, the figure measured on the chip;
// one row of 65 float32 = 2 repeats -> 24 + ceil(4.22) = 29.
TEST(OracleVector, FractionalRateRoundsUpPerCommand) {
    arch::Config cfg =
        config(R"({"vector": {"bytes_per_cycle": 256, "add": {"head_cycles": 24, "cycles_per_repeat": 2.11}}})");
    EXPECT_EQ(lengths({vec(VectorOp::Add, 64, 64, DType::Float32), vec(VectorOp::Sub, 1, 65, DType::Float32)}, cfg),
              (L{160, 29}));
}

// A class with element_bytes wider than the dtype counts that width: a
// float16 cast of 1 x 65 at 4 bytes is 260 B -> 3 repeats (2 at its own
// width), a float16 sqrt 4 x 64 at 4 bytes 1024 B -> 8 repeats of rate 2
// (sqrt's own class: exp, beside it, keeps its 4 repeats of rate 4); a
// float16 reduce_sum 2 x 128 at 4 bytes: 1024 B -> 8, lanes 128 / 4 = 32,
// a tree of 5 levels a row.
TEST(OracleVector, ElementBytesWidensNarrowerDtypes) {
    arch::Config cfg = config(R"({"vector": {"cast": {"element_bytes": 4}, "reduce": {"element_bytes": 4},
                                             "sqrt": {"element_bytes": 4, "cycles_per_repeat": 2}}})");
    EXPECT_EQ(lengths({vec(VectorOp::Cast, 1, 65, DType::Float16), vec(VectorOp::Sqrt, 4, 64, DType::Float16),
                       vec(VectorOp::Exp, 4, 64, DType::Float16), vec(VectorOp::ReduceSum, 2, 128, DType::Float16)},
                      cfg),
              (L{8 + 3, 8 + 16, 8 + 16, 8 + 8 + 2 * 5}));
}

// Cast is timed by its source bytes: float32 -> float16, 33 elements = 132 B
// -> 2 cycles; float16 -> float32, 65 elements = 130 B -> 2 cycles.
TEST(OracleVector, CastCountsTheSource) {
    EXPECT_EQ(
        lengths({vec(VectorOp::Cast, 1, 33, DType::Float32), vec(VectorOp::Cast, 1, 65, DType::Float16)}, config()),
        (L{10, 10}));
}

// Reductions: P + ceil(N*e/W) + rows * ceil(log2(min(cols, lanes))), lanes
// = W / e = 64 (float16), 32 (float32):
//   4 x 1 f16:  8 B -> 1, tree 0:                 9
//   4 x 63 f16: 504 B -> 4, tree 4 * 6 = 24:      36
//   4 x 64 f16: 512 B -> 4, tree 4 * 6 = 24:      36
//   4 x 65 f16: 520 B -> 5, tree 4 * 6 = 24:      37
//   1 x 2 f16:  4 B -> 1, tree 1:                 10
//   2 x 31 f32: 248 B -> 2, tree 2 * 5 = 10:      20
//   2 x 33 f32: 264 B -> 3, tree 2 * 5 = 10:      21
TEST(OracleVector, ReductionTree) {
    EXPECT_EQ(
        lengths({vec(VectorOp::ReduceSum, 4, 1), vec(VectorOp::ReduceSum, 4, 63), vec(VectorOp::ReduceMax, 4, 64),
                 vec(VectorOp::ReduceMax, 4, 65), vec(VectorOp::ReduceSum, 1, 2),
                 vec(VectorOp::ReduceSum, 2, 31, DType::Float32), vec(VectorOp::ReduceMax, 2, 33, DType::Float32)},
                config()),
        (L{9, 36, 36, 37, 10, 20, 21}));
}

// W = 2 B/cycle with float32: W / e = 0 -> lanes = 1, no tree. 3 x 7 = 84 B
// -> 42 cycles + 8 = 50. W = 8 with float16: lanes = 4; 3 x 7 = 42 B -> 6,
// tree 3 * ceil(log2 4) = 6: 8 + 6 + 6 = 20.
TEST(OracleVector, LanesAtLeastOne) {
    EXPECT_EQ(
        lengths({vec(VectorOp::ReduceSum, 3, 7, DType::Float32)}, config(R"({"vector": {"bytes_per_cycle": 2}})")),
        (L{50}));
    EXPECT_EQ(lengths({vec(VectorOp::ReduceSum, 3, 7)}, config(R"({"vector": {"bytes_per_cycle": 8}})")), (L{20}));
}

// dma0 loads 4096 B [1, 230) and sets f0; vector0's exp 64x256 waits on it:
// 231 + 8 + 4 * 256 = 1263, sets f1; dma0 stores 4096 B after f1: starts
// 1264, eligible 1265, 128 cycles + 100: 1493. cube0.dma's 256 B L1 -> L0
// meanwhile takes [2,3) [3,4) + 4 = 8: the vector unit is not on that port.
TEST(OracleVector, FlagHandOffFromDmaAndBack) {
    arch::Program p =
        program({block({stream(dma_engine(0), {load(4096, {}, {0}), dma(Space::L1, Space::DDR, 4096, {1})}),
                        stream(cube_dma(0), {to_l0(256)}),
                        stream(vector_unit(0), {vec(VectorOp::Exp, 64, 256, DType::Float16, {0}, {1})})},
                       2)});
    oracle::Result r = oracle::run(p, config());
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 230}));
    EXPECT_EQ(at(r, 0, vector_unit(0), 0), (StartEnd{231, 1263}));
    EXPECT_EQ(at(r, 0, dma_engine(0), 1), (StartEnd{1264, 1493}));
    EXPECT_EQ(at(r, 0, cube_dma(0), 0), (StartEnd{1, 8}));
    EXPECT_EQ(r.total_cycles, 1493u);
}

// Two vector units in parallel, and a second cluster's vector unit.
TEST(OracleVector, UnitsAreIndependent) {
    arch::Config cfg = config(R"({"cluster": {"vector_units": 2}})");
    arch::Program p = program({block({stream(vector_unit(1), {vec(VectorOp::Add, 64, 256)}),
                                      stream(vector_unit(0), {vec(VectorOp::Mul, 64, 256)})}),
                               block({stream(vector_unit(1), {vec(VectorOp::Copy, 64, 256)})})});
    oracle::Result r = oracle::run(p, cfg);
    EXPECT_EQ(at(r, 0, vector_unit(0), 0), (StartEnd{1, 265}));
    EXPECT_EQ(at(r, 0, vector_unit(1), 0), (StartEnd{1, 265}));
    EXPECT_EQ(at(r, 1, vector_unit(1), 0), (StartEnd{1, 265}));
    EXPECT_EQ(r.blocks[1].cluster, 1u);
}

TEST(OracleVector, MisplacedVectorCommandThrows) {
    EXPECT_THROW(oracle::run(program({block({stream(cube(0), {vec(VectorOp::Exp, 4, 4)})})}), config()),
                 std::runtime_error);
    EXPECT_THROW(oracle::run(program({block({stream(vector_unit(1), {vec(VectorOp::Exp, 4, 4)})})}), config()),
                 std::runtime_error);
}

}  // namespace
