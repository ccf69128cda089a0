// Vector commands the program check refuses, with the exact messages
// (docs/timing-model.md §8; sim/arch/program_check.cpp). No simulation.
#include "hw_test_util.h"

#include "sim/arch/program_check.h"
#include "sim/arch/vector_source.h"

using namespace hwtest;
using arch::DType;
using arch::VectorOp;

namespace {

std::string check_error(const arch::Program& p, const arch::Config& c = arch::default_config()) {
    try {
        arch::check_program(p, c);
    } catch (const arch::ProgramError& e) {
        return e.what();
    }
    return "(no error)";
}

arch::Program one(arch::EngineId e, arch::Command c) { return program({block({stream(e, {std::move(c)})})}); }

arch::VectorSource strided(uint64_t first, std::vector<uint32_t> dims, std::vector<int64_t> strides) {
    arch::VectorSource s;
    s.kind = arch::VectorSource::Kind::Strided;
    s.first = first, s.dims = std::move(dims), s.strides = std::move(strides);
    return s;
}

TEST(VectorProgramCheck, VectorCommandOnACube) {
    EXPECT_EQ(check_error(one(cube(0), vec(VectorOp::Exp, 4, 4))),
              "invalid program: block 0, cube0 command 0: only a vector unit executes VECTOR");
}

TEST(VectorProgramCheck, VectorCommandOnADmaEngine) {
    EXPECT_EQ(check_error(one(dma_engine(0), vec(VectorOp::Exp, 4, 4))),
              "invalid program: block 0, dma0 command 0: only a vector unit executes VECTOR");
    EXPECT_EQ(check_error(one(cube_dma(1), vec(VectorOp::Add, 4, 4))),
              "invalid program: block 0, cube1.dma command 0: only a vector unit executes VECTOR");
}

TEST(VectorProgramCheck, OtherCommandsOnAVectorUnit) {
    EXPECT_EQ(check_error(one(vector_unit(0), load(64))),
              "invalid program: block 0, vector0 command 0: a vector unit cannot execute DMA commands");
    EXPECT_EQ(check_error(one(vector_unit(0), matmul(4, 4, 4))),
              "invalid program: block 0, vector0 command 0: only a cube executes MATMUL");
}

TEST(VectorProgramCheck, VectorUnitThatDoesNotExist) {
    EXPECT_EQ(check_error(one(vector_unit(1), vec(VectorOp::Relu, 4, 4))),
              "invalid program: block 0, vector1 command 0: engine does not exist on this hardware");
    arch::Config two = arch::default_config();
    two.vector_units = 2;
    EXPECT_EQ(check_error(one(vector_unit(1), vec(VectorOp::Relu, 4, 4)), two), "(no error)");
}

TEST(VectorProgramCheck, EmptyMatrix) {
    EXPECT_EQ(check_error(one(vector_unit(0), vec(VectorOp::Relu, 0, 4))),
              "invalid program: block 0, vector0 command 0: empty VECTOR (rows and cols must be positive)");
    EXPECT_EQ(check_error(one(vector_unit(0), vec(VectorOp::Relu, 4, 0))),
              "invalid program: block 0, vector0 command 0: empty VECTOR (rows and cols must be positive)");
}

TEST(VectorProgramCheck, SecondSourceExactlyForBinaryOps) {
    arch::Command add = vec(VectorOp::Add, 4, 4);
    add.vec.src1 = arch::kNoAddress;
    EXPECT_EQ(check_error(one(vector_unit(0), add)),
              "invalid program: block 0, vector0 command 0: vector add needs a second source (src1)");
    arch::Command exp = vec(VectorOp::Exp, 4, 4);
    exp.vec.src1 = 0;
    EXPECT_EQ(check_error(one(vector_unit(0), exp)),
              "invalid program: block 0, vector0 command 0: vector exp takes one source, but src1 is given");
}

// L1 is 262144 B. 64 x 512 float16 is 65536 B.
TEST(VectorProgramCheck, RegionsInsideL1) {
    arch::Command copy = vec(VectorOp::Copy, 64, 512);
    copy.vec.dst = 262144 - 65536;  // ends exactly at the capacity
    EXPECT_EQ(check_error(one(vector_unit(0), copy)), "(no error)");
    copy.vec.dst += 2;
    EXPECT_EQ(check_error(one(vector_unit(0), copy)),
              "invalid program: block 0, vector0 command 0: destination region ends at byte 262146, beyond L1 "
              "capacity 262144");
    arch::Command sub = vec(VectorOp::Sub, 64, 512);
    sub.vec.src1 = 262144 - 65535;
    EXPECT_EQ(check_error(one(vector_unit(0), sub)),
              "invalid program: block 0, vector0 command 0: second source region ends at byte 262145, beyond L1 "
              "capacity 262144");
    arch::Command relu = vec(VectorOp::Relu, 64, 512);
    relu.vec.src0 = 200000;
    EXPECT_EQ(check_error(one(vector_unit(0), relu)),
              "invalid program: block 0, vector0 command 0: first source region ends at byte 265536, beyond L1 "
              "capacity 262144");
}

// A source reads what its descriptor reaches: a row statistic broadcast
// over 64 rows of 512 reads 64 elements (128 B), so it may sit in the last
// 128 B of L1; one element further does not fit. A transpose's source
// reaches all 32768 elements.
TEST(VectorProgramCheck, StridedSourcesReachWhatTheirStridesReach) {
    arch::Command sub = vec(VectorOp::Sub, 64, 512);
    sub.vec.in1 = std::make_shared<const arch::VectorSource>(strided(0, {64, 512}, {1, 0}));
    sub.vec.src1 = 262144 - 128;
    EXPECT_EQ(check_error(one(vector_unit(0), sub)), "(no error)");
    sub.vec.src1 += 2;
    EXPECT_EQ(check_error(one(vector_unit(0), sub)),
              "invalid program: block 0, vector0 command 0: second source region ends at byte 262146, beyond L1 "
              "capacity 262144");
    // From element 64 * 512 - 1 on, 2 elements wrap past the shape: any
    // offset can be reached (64 elements).
    sub.vec.in1 = std::make_shared<const arch::VectorSource>(strided(64 * 512 - 1, {64, 512}, {1, 0}));
    sub.vec.src1 = 262144 - 126;
    arch::Command two = sub;
    two.vec.rows = 1, two.vec.cols = 2;
    EXPECT_EQ(check_error(one(vector_unit(0), two)),
              "invalid program: block 0, vector0 command 0: second source region ends at byte 262146, beyond L1 "
              "capacity 262144");
    arch::Command copy = vec(VectorOp::Copy, 64, 512);
    copy.vec.in0 = std::make_shared<const arch::VectorSource>(strided(0, {512, 64}, {1, 512}));
    copy.vec.src0 = 262144 - 65536;
    EXPECT_EQ(check_error(one(vector_unit(0), copy)), "(no error)");
    copy.vec.src0 += 2;
    EXPECT_EQ(check_error(one(vector_unit(0), copy)),
              "invalid program: block 0, vector0 command 0: first source region ends at byte 262146, beyond L1 "
              "capacity 262144");
}

TEST(VectorSourceReach, DigitsAboveTheFirstDifferenceAreFixed) {
    // Rows 3..4 of a per-row statistic: elements 3 * 8 .. 5 * 8 - 1 of (10, 8).
    EXPECT_EQ(arch::source_elements_reached(strided(24, {10, 8}, {1, 0}), 16), 5u);
    // One row: its digit alone.
    EXPECT_EQ(arch::source_elements_reached(strided(24, {10, 8}, {1, 0}), 8), 4u);
    // A column broadcast over part of a row reaches the columns' offsets.
    EXPECT_EQ(arch::source_elements_reached(strided(0, {10, 8}, {0, 1}), 3), 3u);
    // Negative strides and other kinds: the element count.
    EXPECT_EQ(arch::source_elements_reached(strided(0, {10, 8}, {-1, 0}), 16), 16u);
    EXPECT_EQ(arch::source_elements_reached(arch::VectorSource{}, 16), 16u);
}

// A cast's destination holds the other type: float16 -> float32 doubles the
// bytes (131072), float32 -> float16 halves them.
TEST(VectorProgramCheck, CastDestinationHasTheOtherTypesBytes) {
    arch::Command widen = vec(VectorOp::Cast, 64, 512, DType::Float16);
    widen.vec.dst = 262144 - 131072;
    EXPECT_EQ(check_error(one(vector_unit(0), widen)), "(no error)");
    widen.vec.dst = 262144 - 65536;
    EXPECT_EQ(check_error(one(vector_unit(0), widen)),
              "invalid program: block 0, vector0 command 0: destination region ends at byte 327680, beyond L1 "
              "capacity 262144");
    arch::Command narrow = vec(VectorOp::Cast, 64, 256, DType::Float32);  // 65536 B in, 32768 out
    narrow.vec.dst = 262144 - 32768;
    EXPECT_EQ(check_error(one(vector_unit(0), narrow)), "(no error)");
}

// cast_to names the destination's type: float32 -> bfloat16 halves the
// bytes, bfloat16 -> float16 keeps them; a cast to its own type and a
// cast_to on another op are refused.
TEST(VectorProgramCheck, CastToNamesTheDestinationsType) {
    arch::Command narrow = cast(64, 256, DType::Float32, DType::BFloat16);  // 65536 B in, 32768 out
    narrow.vec.dst = 262144 - 32768;
    EXPECT_EQ(check_error(one(vector_unit(0), narrow)), "(no error)");
    narrow.vec.dst += 2;
    EXPECT_EQ(check_error(one(vector_unit(0), narrow)),
              "invalid program: block 0, vector0 command 0: destination region ends at byte 262146, beyond L1 "
              "capacity 262144");
    arch::Command same = cast(64, 512, DType::BFloat16, DType::Float16);
    same.vec.dst = 262144 - 65536;
    EXPECT_EQ(check_error(one(vector_unit(0), same)), "(no error)");
    EXPECT_EQ(check_error(one(vector_unit(0), cast(4, 4, DType::BFloat16, DType::BFloat16))),
              "invalid program: block 0, vector0 command 0: vector cast from bfloat16 to itself (cast_to must name "
              "another dtype)");
    arch::Command relu = vec(VectorOp::Relu, 4, 4);
    relu.vec.cast_to = DType::Float16;
    EXPECT_EQ(check_error(one(vector_unit(0), relu)),
              "invalid program: block 0, vector0 command 0: vector relu takes no cast_to (only cast does)");
}

// The integers take the vector unit's integer operations and casts, not
// its divide, square root or transcendentals.
TEST(VectorProgramCheck, IntegerElementsTakeNoTranscendental) {
    EXPECT_EQ(check_error(one(vector_unit(0), vec(VectorOp::Exp, 4, 4, DType::Int8))),
              "invalid program: block 0, vector0 command 0: vector exp takes float elements, got int8");
    EXPECT_EQ(check_error(one(vector_unit(0), vec(VectorOp::Sqrt, 4, 4, DType::Int32))),
              "invalid program: block 0, vector0 command 0: vector sqrt takes float elements, got int32");
    EXPECT_EQ(check_error(one(vector_unit(0), vec(VectorOp::Relu, 4, 4, DType::Int8))), "(no error)");
    EXPECT_EQ(check_error(one(vector_unit(0), cast(4, 4, DType::Int32, DType::Float16))), "(no error)");
}

// A reduction writes one element per row: 64 rows of float32 = 256 B.
TEST(VectorProgramCheck, ReduceDestinationIsOneElementPerRow) {
    arch::Command r = vec(VectorOp::ReduceSum, 64, 512, DType::Float32);
    r.vec.dst = 262144 - 256;
    EXPECT_EQ(check_error(one(vector_unit(0), r)), "(no error)");
    r.vec.dst += 1;
    EXPECT_EQ(check_error(one(vector_unit(0), r)),
              "invalid program: block 0, vector0 command 0: destination region ends at byte 262145, beyond L1 "
              "capacity 262144");
}

TEST(VectorProgramCheck, FormatCommand) {
    arch::Program p;
    arch::Command exp = vec(VectorOp::Exp, 64, 256);
    exp.vec.dst = 0x8000;
    EXPECT_EQ(arch::format_command(p, exp), "VECTOR exp 64x256 float16  L1:0x0 -> L1:0x8000");
    arch::Command add = vec(VectorOp::Add, 2, 3, DType::Float32, {1}, {0});
    EXPECT_EQ(arch::format_command(p, add),
              "VECTOR add 2x3 float32  L1:0x0, L1:0x10000 -> L1:0x20000  wait(f1)  set(f0)");
    EXPECT_EQ(arch::format_command(p, vec(VectorOp::Cast, 1, 8, DType::Float16)),
              "VECTOR cast 1x8 float16->float32  L1:0x0 -> L1:0x20000");
    EXPECT_EQ(arch::format_command(p, cast(1, 8, DType::Float32, DType::BFloat16)),
              "VECTOR cast 1x8 float32->bfloat16  L1:0x0 -> L1:0x20000");
    EXPECT_EQ(arch::format_command(p, vec(VectorOp::ReduceMax, 1, 8)),
              "VECTOR reduce_max 1x8 float16  L1:0x0 -> L1:0x20000");
}

}  // namespace
