// The data effect of each command kind on small hand-checked examples.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "sim/arch/config.h"
#include "sim/func/effects.h"
#include "sim/func/executor.h"
#include "sim/func/numerics.h"

namespace {

using arch::DType;
using arch::Space;

struct Fixture {
    arch::Config config = arch::default_config();
    func::Memory m{config, 4096};
    void put(Space s, uint64_t addr, DType t, const std::vector<float>& v, int cube = -1) {
        func::store_run(m.span(s, cube, addr, v.size() * uint64_t(arch::dtype_bytes(t)), "test"), t, v.size(),
                        v.data());
    }
    std::vector<float> get(Space s, uint64_t addr, DType t, size_t n, int cube = -1) {
        std::vector<float> v(n);
        func::load_run(m.span(s, cube, addr, n * uint64_t(arch::dtype_bytes(t)), "test"), t, n, v.data());
        return v;
    }
};

std::vector<float> iota(size_t n, float from = 1) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = from + float(i);
    return v;
}

TEST(DmaEffect, StridedCopyMovesOnlyTheRows) {
    Fixture f;
    f.put(Space::DDR, 0, DType::Float16, iota(12));  // 3 x 4
    arch::DmaArgs d;
    d.src = Space::DDR, d.dst = Space::L1, d.src_addr = 2, d.dst_addr = 100;
    d.rows = 3, d.row_bytes = 4, d.src_stride = 8, d.dst_stride = 4;  // columns 1..2 of each row
    func::apply_dma(f.m, -1, d);
    EXPECT_EQ(f.get(Space::L1, 100, DType::Float16, 6), (std::vector<float>{2, 3, 6, 7, 10, 11}));
}

TEST(DmaEffect, NarrowsFloat32InFlight) {
    Fixture f;
    f.put(Space::L0, 0, DType::Float32, {1.0f, 65520.0f, 1.0f + 0x1p-11f, -0.5f}, 0);
    arch::DmaArgs d;
    d.src = Space::L0, d.dst = Space::L1, d.rows = 2, d.row_bytes = 4, d.src_stride = 8, d.dst_stride = 4;
    d.convert_f32_to_f16 = true;
    func::apply_dma(f.m, 0, d);
    const std::vector<float> got = f.get(Space::L1, 0, DType::Float16, 4);
    EXPECT_EQ(got[0], 1.0f);
    EXPECT_TRUE(std::isinf(got[1]));
    EXPECT_EQ(got[2], 1.0f);  // tie to even
    EXPECT_EQ(got[3], -0.5f);
}

TEST(DmaEffect, Im2colGeneratesPaddingAndHonoursStride) {
    Fixture f;
    // One channel, 3 x 3 image 1..9; 3x3 kernel, stride 2, padding 1: a 2 x 2 output.
    f.put(Space::L1, 0, DType::Float16, iota(9));
    arch::DmaArgs d;
    d.src = Space::L1, d.dst = Space::L0, d.src_addr = 0, d.dst_addr = 0;
    d.rows = 4, d.row_bytes = 9 * 2, d.dst_stride = 18;
    arch::Im2col g;
    g.channels = 1, g.height = 3, g.width = 3, g.kh = 3, g.kw = 3, g.stride_h = 2, g.stride_w = 2;
    g.pad_h = 1, g.pad_w = 1, g.out_w = 2, g.element_bytes = 2;
    d.im2col = g;
    func::apply_dma(f.m, 1, d);
    const std::vector<float> got = f.get(Space::L0, 0, DType::Float16, 36, 1);
    // Output (0, 0): window rows -1..1, columns -1..1.
    EXPECT_EQ(std::vector<float>(got.begin(), got.begin() + 9), (std::vector<float>{0, 0, 0, 0, 1, 2, 0, 4, 5}));
    // Output (1, 1): rows 1..3, columns 1..3.
    EXPECT_EQ(std::vector<float>(got.begin() + 27, got.end()), (std::vector<float>{5, 6, 0, 8, 9, 0, 0, 0, 0}));
}

// Dilation 2 spreads the 2x2 kernel's taps over a 3x3 span: on a 3 x 3
// image 1..9, stride 1, no padding, one output whose taps are the corners.
// Printed with its dilation.
TEST(DmaEffect, Im2colReadsDilatedTaps) {
    Fixture f;
    f.put(Space::L1, 0, DType::Float16, iota(9));
    arch::DmaArgs d;
    d.src = Space::L1, d.dst = Space::L0, d.src_addr = 0, d.dst_addr = 0;
    d.rows = 1, d.row_bytes = 4 * 2, d.dst_stride = 8;
    arch::Im2col g;
    g.channels = 1, g.height = 3, g.width = 3, g.kh = 2, g.kw = 2, g.out_w = 1, g.element_bytes = 2;
    g.dilation_h = 2, g.dilation_w = 2;
    d.im2col = g;
    func::apply_dma(f.m, 1, d);
    EXPECT_EQ(f.get(Space::L0, 0, DType::Float16, 4, 1), (std::vector<float>{1, 3, 7, 9}));
    arch::Command c;
    c.op = arch::Opcode::Dma, c.dma = d;
    EXPECT_NE(arch::format_command(arch::Program{}, c).find(" im2col 2x2/s1/p0/d2 of 1x3x3 ow 1 at pixel 0, k 0 2B"),
              std::string::npos);
    c.dma.im2col->dilation_w = 1;
    EXPECT_NE(arch::format_command(arch::Program{}, c).find(" im2col 2x2/s1/p0/d2,1 of 1x3x3 "), std::string::npos);
}

TEST(DmaEffect, TransposeAndPixelShuffle) {
    Fixture f;
    f.put(Space::L1, 0, DType::Float16, iota(6));  // 2 x 3
    arch::DmaArgs t;
    t.src = Space::L1, t.dst = Space::DDR, t.rows = 2, t.row_bytes = 6, t.src_stride = 6, t.dst_stride = 4;
    t.rearrange = arch::Rearrange{arch::Rearrange::Kind::Transpose, 2, 0};
    func::apply_dma(f.m, -1, t);
    EXPECT_EQ(f.get(Space::DDR, 0, DType::Float16, 6), (std::vector<float>{1, 4, 2, 5, 3, 6}));

    // Four 1 x 2 planes a b c d -> 2 x 4: row 0 = a0 b0 a1 b1, row 1 = c0 d0 c1 d1.
    f.put(Space::L1, 64, DType::Float16, {10, 11, 20, 21, 30, 31, 40, 41});
    arch::DmaArgs p;
    p.src = Space::L1, p.dst = Space::DDR, p.src_addr = 64, p.dst_addr = 100, p.rows = 2, p.row_bytes = 8,
    p.src_stride = 8, p.dst_stride = 8;
    p.rearrange = arch::Rearrange{arch::Rearrange::Kind::PixelShuffle, 2, 2};
    func::apply_dma(f.m, -1, p);
    EXPECT_EQ(f.get(Space::DDR, 100, DType::Float16, 8), (std::vector<float>{10, 20, 11, 21, 30, 40, 31, 41}));
}

// A gather: ids 2, 0, 2 of a 3 x 2 float16 table; an id outside it is an
// error naming the row and the id, and nothing is read outside the table.
TEST(DmaEffect, GatherReadsTheRowsTheIdsName) {
    Fixture f;
    f.put(Space::DDR, 0, DType::Float16, iota(6));  // rows {1, 2}, {3, 4}, {5, 6}
    f.put(Space::L1, 0, DType::Int32, {2, 0, 2});
    arch::DmaArgs d;
    d.src = Space::DDR, d.dst = Space::L1, d.dst_addr = 64, d.rows = 3, d.row_bytes = 4, d.src_stride = 4,
    d.dst_stride = 4;
    d.gather = arch::Gather{0, 3};
    func::apply_dma(f.m, -1, d);
    EXPECT_EQ(f.get(Space::L1, 64, DType::Float16, 6), (std::vector<float>{5, 6, 1, 2, 5, 6}));
    f.put(Space::L1, 0, DType::Int32, {1, 3, 0});
    try {
        func::apply_dma(f.m, -1, d);
        FAIL();
    } catch (const func::FunctionalError& e) {
        EXPECT_STREQ(e.what(), "gather: id 3 (row 1) is outside the table's 3 rows");
    }
    f.put(Space::L1, 0, DType::Int32, {-1, 0, 0});
    EXPECT_THROW(func::apply_dma(f.m, -1, d), func::FunctionalError);
    arch::Command c;
    c.op = arch::Opcode::Dma, c.dma = d;
    EXPECT_NE(arch::format_command(arch::Program{}, c).find(" gather ids L1:0x0 of 3 rows"), std::string::npos);
}

TEST(DmaEffect, OutOfBoundsIsAnError) {
    Fixture f;
    arch::DmaArgs d;
    d.src = Space::DDR, d.dst = Space::L1, d.src_addr = 4000, d.rows = 1, d.row_bytes = 200, d.src_stride = 200;
    try {
        func::apply_dma(f.m, -1, d);
        FAIL();
    } catch (const func::FunctionalError& e) {
        EXPECT_STREQ(e.what(), "DMA source DDR [4000, 4200) outside its 4096 bytes (the program's tensors)");
    }
}

// narrow_to bfloat16: rounded to nearest even on 16 dropped bits; 65520,
// float16's overflow, is 65536 in bfloat16's float32 range.
TEST(DmaEffect, NarrowsFloat32ToBFloat16InFlight) {
    Fixture f;
    f.put(Space::L0, 0, DType::Float32, {1.0f + 0x1p-8f, 65520.0f, 1.0f + 3 * 0x1p-8f, -3e38f}, 0);
    arch::DmaArgs d;
    d.src = Space::L0, d.dst = Space::L1, d.rows = 2, d.row_bytes = 4, d.src_stride = 8, d.dst_stride = 4;
    d.convert_f32_to_f16 = true, d.narrow_to = DType::BFloat16;
    func::apply_dma(f.m, 0, d);
    EXPECT_EQ(f.get(Space::L1, 0, DType::BFloat16, 4), (std::vector<float>{1.0f, 65536.0f, 1.015625f, -0x1.c4p127f}));
}

TEST(CubeEffect, AccumulatesInFloat32WithEitherBLayout) {
    Fixture f;
    // A 2 x 3, B 3 x 2 (k x n) and its n x k transpose.
    f.put(Space::L0, 0, DType::Float16, {1, 2, 3, 4, 5, 6}, 0);
    f.put(Space::L0, 64, DType::Float16, {1, 2, 3, 4, 5, 6}, 0);
    f.put(Space::L0, 128, DType::Float16, {1, 3, 5, 2, 4, 6}, 0);
    arch::MatmulArgs mm;
    mm.m = 2, mm.k = 3, mm.n = 2, mm.a_addr = 0, mm.b_addr = 64, mm.c_addr = 256;
    func::apply_matmul(f.m, 0, mm);
    EXPECT_EQ(f.get(Space::L0, 256, DType::Float32, 4, 0), (std::vector<float>{22, 28, 49, 64}));
    mm.b_addr = 128, mm.b_transposed = true, mm.accumulate = true;
    func::apply_matmul(f.m, 0, mm);
    EXPECT_EQ(f.get(Space::L0, 256, DType::Float32, 4, 0), (std::vector<float>{44, 56, 98, 128}));
    // float16 products summed in float32: 2048 + 1 + 1 is exact there, not in float16.
    f.put(Space::L0, 0, DType::Float16, {2048, 1, 1}, 0);
    f.put(Space::L0, 64, DType::Float16, {1, 1, 1}, 0);
    mm = {};
    mm.m = 1, mm.k = 3, mm.n = 1, mm.a_addr = 0, mm.b_addr = 64, mm.c_addr = 256;
    func::apply_matmul(f.m, 0, mm);
    EXPECT_EQ(f.get(Space::L0, 256, DType::Float32, 1, 0)[0], 2050.0f);
}

arch::VectorArgs vec(arch::VectorOp op, DType t, uint32_t rows, uint32_t cols, uint64_t src0, uint64_t src1,
                     uint64_t dst) {
    arch::VectorArgs v;
    v.op = op, v.dtype = t, v.rows = rows, v.cols = cols, v.src0 = src0, v.src1 = src1, v.dst = dst;
    return v;
}

// One VECTOR cast per case, `in` (dtype `from`) into `to`: the values read
// back in `to` are `out`.
struct CastCase {
    DType from, to;
    std::vector<float> in, out;
};

void expect_casts(const std::vector<CastCase>& cases) {
    for (const CastCase& c : cases) {
        Fixture f;
        f.put(Space::L1, 0, c.from, c.in);
        arch::VectorArgs v = vec(arch::VectorOp::Cast, c.from, 1, uint32_t(c.in.size()), 0, arch::kNoAddress, 256);
        v.cast_to = c.to;
        func::apply_vector(f.m, 0, v);
        EXPECT_EQ(f.get(Space::L1, 256, c.to, c.out.size()), c.out)
            << arch::dtype_name(c.from) << " -> " << arch::dtype_name(c.to);
    }
}

TEST(VectorEffect, Float16ResultsAreRounded) {
    Fixture f;
    f.put(Space::L1, 0, DType::Float16, {1.0f, 60000.0f});
    f.put(Space::L1, 64, DType::Float16, {0x1p-11f, 60000.0f});
    func::apply_vector(f.m, 0, vec(arch::VectorOp::Add, DType::Float16, 1, 2, 0, 64, 128));
    const std::vector<float> got = f.get(Space::L1, 128, DType::Float16, 2);
    EXPECT_EQ(got[0], 1.0f);          // 1 + 2^-11 ties to even
    EXPECT_TRUE(std::isinf(got[1]));  // overflow
}

// With Unified Buffers each vector unit computes in its own: unit 1's DMA
// engine loads DDR into UB 1, unit 1 adds there, and stores the sum back;
// unit 0's UB and L1 are untouched (a UB starts as NaN bytes, as each
// block's scratch does: a read of bytes no block wrote is NaN).
TEST(VectorEffect, EachVectorUnitComputesInItsOwnUnifiedBuffer) {
    Fixture f;
    f.config.vector_units = 2, f.config.vector_buffer_kib = 1;
    func::Memory ub{f.config, 4096};
    f.m = ub;
    f.put(Space::DDR, 0, DType::Float16, {1, 2, 3, 4});
    arch::DmaArgs in;
    in.src = Space::DDR, in.dst = Space::UB, in.rows = 1, in.row_bytes = 8;
    func::apply_dma(f.m, 1, in);
    func::apply_vector(f.m, 1, vec(arch::VectorOp::Add, DType::Float16, 1, 4, 0, 0, 512));
    arch::DmaArgs out;
    out.src = Space::UB, out.dst = Space::DDR, out.src_addr = 512, out.dst_addr = 64, out.rows = 1, out.row_bytes = 8;
    func::apply_dma(f.m, 1, out);
    EXPECT_EQ(f.get(Space::DDR, 64, DType::Float16, 4), (std::vector<float>{2, 4, 6, 8}));
    EXPECT_EQ(f.get(Space::UB, 512, DType::Float16, 4, 1), (std::vector<float>{2, 4, 6, 8}));
    for (float x : f.get(Space::UB, 512, DType::Float16, 4, 0)) EXPECT_TRUE(std::isnan(x));
    EXPECT_EQ(f.get(Space::L1, 512, DType::Float16, 4), (std::vector<float>{0, 0, 0, 0}));
    try {
        func::apply_vector(f.m, 2, vec(arch::VectorOp::Add, DType::Float16, 1, 4, 0, 0, 512));
        FAIL() << "no error";
    } catch (const func::FunctionalError& e) {
        EXPECT_STREQ(e.what(), "VECTOR source 0 names the Unified Buffer of vector unit 2, the cluster has 2");
    }
    try {
        func::apply_vector(f.m, 0, vec(arch::VectorOp::Add, DType::Float16, 1, 4, 0, 0, 1020));
        FAIL() << "no error";
    } catch (const func::FunctionalError& e) {
        EXPECT_STREQ(e.what(), "VECTOR destination UB [1020, 1028) outside its 1024 bytes");
    }
}

// bfloat16 operands are read exactly and summed in float32: 256 + 1 + 1
// is 258 there (256 + 1 is no bfloat16: 8 significant bits).
TEST(CubeEffect, BFloat16AccumulatesInFloat32) {
    Fixture f;
    f.put(Space::L0, 0, DType::BFloat16, {256, 1, 1}, 0);
    f.put(Space::L0, 64, DType::BFloat16, {1, 1, 1}, 0);
    arch::MatmulArgs mm;
    mm.m = 1, mm.k = 3, mm.n = 1, mm.a_addr = 0, mm.b_addr = 64, mm.c_addr = 256, mm.dtype = DType::BFloat16;
    func::apply_matmul(f.m, 0, mm);
    EXPECT_EQ(f.get(Space::L0, 256, DType::Float32, 1, 0)[0], 258.0f);
    EXPECT_EQ(f.get(Space::L0, 0, DType::BFloat16, 3, 0), (std::vector<float>{256, 1, 1}));
}

// int8 x int8 -> int32, exact: 127 * 127 * 1040 = 16,774,160 and
// -128 * 127 * 1040 (above 2^24, where float32 sums would round) land
// exactly, as does the accumulation into C.
TEST(CubeEffect, Int8AccumulatesExactlyInInt32) {
    Fixture f;
    const size_t K = 1040;
    std::vector<int8_t> a(2 * K), b(K);
    for (size_t p = 0; p < K; ++p) a[p] = 127, a[K + p] = -128, b[p] = 127;
    std::memcpy(f.m.span(Space::L0, 0, 0, 2 * K, "test"), a.data(), 2 * K);
    std::memcpy(f.m.span(Space::L0, 0, 4096, K, "test"), b.data(), K);
    arch::MatmulArgs mm;
    mm.m = 2, mm.k = uint32_t(K), mm.n = 1, mm.a_addr = 0, mm.b_addr = 4096, mm.c_addr = 8192, mm.dtype = DType::Int8;
    func::apply_matmul(f.m, 0, mm);
    int32_t c[2];
    std::memcpy(c, f.m.span(Space::L0, 0, 8192, 8, "test"), 8);
    EXPECT_EQ(c[0], 16774160);
    EXPECT_EQ(c[1], -16906240);
    mm.accumulate = true, mm.b_transposed = true;  // n = 1: the same bytes either layout
    func::apply_matmul(f.m, 0, mm);
    std::memcpy(c, f.m.span(Space::L0, 0, 8192, 8, "test"), 8);
    EXPECT_EQ(c[0], 2 * 16774160);
    EXPECT_EQ(c[1], 2 * -16906240);
}

// Casts into the integers round half to even and saturate (int8 to
// [-128, 127]; NaN to 0); out of them they are exact (int8) or rounded to
// nearest even (an int32 beyond float16's range is inf).
TEST(VectorEffect, CastsIntoIntegersRoundHalfEvenAndSaturate) {
    const float nan = NAN, inf = INFINITY;
    const std::vector<CastCase> cases{
        {DType::Float32,
         DType::Int8,
         {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 126.6f, 127.5f, 300.0f, -128.5f, -1e9f, nan},
         {0, 2, 2, 0, -2, 127, 127, 127, -128, -128, 0}},
        {DType::Float16, DType::Int8, {3.5f, -3.5f, 65504.0f, -inf}, {4, -4, 127, -128}},
        {DType::Float32, DType::Int32, {2.5f, 3.5f, 3e9f, -3e9f}, {2, 4, 2147483648.0f, -2147483648.0f}},
        {DType::Int8, DType::Float16, {-128, 127, 0}, {-128, 127, 0}},
        {DType::Int8, DType::Int32, {-128, 127}, {-128, 127}},
        {DType::Int32, DType::Int8, {-1000, 1000, -5}, {-128, 127, -5}},
        {DType::Int32, DType::Float16, {2049, 70000, -70000}, {2048, inf, -inf}},
        {DType::Int32, DType::Float32, {16777216, -16777216}, {16777216, -16777216}},
    };
    expect_casts(cases);
}

// Integer vector arithmetic saturates to the dtype: 100 + 100 in int8 is 127.
TEST(VectorEffect, Int8ArithmeticSaturates) {
    Fixture f;
    f.put(Space::L1, 0, DType::Int8, {100, -100, 3});
    f.put(Space::L1, 64, DType::Int8, {100, -100, -5});
    func::apply_vector(f.m, 0, vec(arch::VectorOp::Add, DType::Int8, 1, 3, 0, 64, 128));
    EXPECT_EQ(f.get(Space::L1, 128, DType::Int8, 3), (std::vector<float>{127, -128, -2}));
}

// A cast between every pair of float dtypes rounds to nearest even into
// the target (cast_to) and keeps what the target can hold.
TEST(VectorEffect, CastsBetweenEveryPairOfFloatDtypes) {
    const float inf = INFINITY;
    const std::vector<CastCase> cases{
        {DType::Float32, DType::BFloat16, {1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, 1e30f}, {1.0f, 1.015625f, 0x1.94p99f}},
        {DType::Float32, DType::Float16, {1.0f + 0x1p-11f, 65520.0f, 1e30f}, {1.0f, inf, inf}},
        {DType::BFloat16, DType::Float32, {1.015625f, 65536.0f, 0x1.94p99f}, {1.015625f, 65536.0f, 0x1.94p99f}},
        // 65536 overflows float16; 2^-24 is its smallest subnormal, 2^-26 rounds to 0.
        {DType::BFloat16, DType::Float16, {1.015625f, 65536.0f, 0x1p-24f, 0x1p-26f}, {1.015625f, inf, 0x1p-24f, 0}},
        {DType::Float16, DType::Float32, {1.0f + 0x1p-10f, 65504.0f}, {1.0f + 0x1p-10f, 65504.0f}},
        // 1 + 2^-10 is below half a bfloat16 ulp (2^-8) above 1; 1 + 3 * 2^-9 above.
        {DType::Float16,
         DType::BFloat16,
         {1.0f + 0x1p-10f, 1.0f + 3 * 0x1p-9f, 65504.0f},
         {1.0f, 1.0078125f, 65536.0f}},
    };
    expect_casts(cases);
}

// bfloat16 vector results are rounded: 1 + 2^-8 ties to even (1), 1 +
// 2^-8 + 2^-9 goes up to 1 + 2^-7.
TEST(VectorEffect, BFloat16ResultsAreRounded) {
    Fixture f;
    f.put(Space::L1, 0, DType::BFloat16, {1.0f, 1.0f, 3e38f});
    f.put(Space::L1, 64, DType::BFloat16, {0x1p-8f, 0x1.8p-8f, 3e38f});
    func::apply_vector(f.m, 0, vec(arch::VectorOp::Add, DType::BFloat16, 1, 3, 0, 64, 128));
    const std::vector<float> got = f.get(Space::L1, 128, DType::BFloat16, 3);
    EXPECT_EQ(got[0], 1.0f);
    EXPECT_EQ(got[1], 1.0078125f);
    EXPECT_TRUE(std::isinf(got[2]));  // beyond float32's (and bfloat16's) range
}

TEST(VectorEffect, BroadcastScalarAndWindowSources) {
    Fixture f;
    f.put(Space::L1, 0, DType::Float32, iota(6));    // 2 x 3
    f.put(Space::L1, 64, DType::Float32, {10, 20});  // one per row
    arch::VectorArgs v = vec(arch::VectorOp::Add, DType::Float32, 2, 3, 0, 64, 128);
    arch::VectorSource per_row;
    per_row.kind = arch::VectorSource::Kind::Strided, per_row.dims = {2, 3}, per_row.strides = {1, 0};
    v.in1 = std::make_shared<const arch::VectorSource>(per_row);
    func::apply_vector(f.m, 0, v);
    EXPECT_EQ(f.get(Space::L1, 128, DType::Float32, 6), (std::vector<float>{11, 12, 13, 24, 25, 26}));

    arch::VectorSource half;
    half.kind = arch::VectorSource::Kind::Scalar, half.scalar = 0.5;
    v.in1 = std::make_shared<const arch::VectorSource>(half);
    v.op = arch::VectorOp::Mul;
    func::apply_vector(f.m, 0, v);
    EXPECT_EQ(f.get(Space::L1, 128, DType::Float32, 6), (std::vector<float>{0.5, 1, 1.5, 2, 2.5, 3}));

    // Window position (0, 0) of a 3x3 window, stride 1, padding 1, over a
    // 2 x 3 plane: output (0, 0) reads the padding.
    arch::VectorArgs w = vec(arch::VectorOp::Copy, DType::Float32, 2, 3, 0, arch::kNoAddress, 256);
    arch::VectorSource win;
    win.kind = arch::VectorSource::Kind::Window;
    win.window.height = 2, win.window.width = 3, win.window.out_h = 2, win.window.pad_h = 1, win.window.pad_w = 1,
    win.window.fill = -7;
    w.in0 = std::make_shared<const arch::VectorSource>(win);
    func::apply_vector(f.m, 0, w);
    EXPECT_EQ(f.get(Space::L1, 256, DType::Float32, 6), (std::vector<float>{-7, -7, -7, -7, 1, 2}));
}

// minimum and maximum propagate a NaN of either operand, as NumPy's do.
TEST(VectorEffect, MinimumAndMaximumPropagateNaN) {
    Fixture f;
    const float nan = std::nanf("");
    f.put(Space::L1, 0, DType::Float32, {1, nan, 5, -2});
    f.put(Space::L1, 64, DType::Float32, {3, 0, nan, -2});
    func::apply_vector(f.m, 0, vec(arch::VectorOp::Minimum, DType::Float32, 1, 4, 0, 64, 128));
    std::vector<float> got = f.get(Space::L1, 128, DType::Float32, 4);
    EXPECT_EQ(got[0], 1.0f);
    EXPECT_TRUE(std::isnan(got[1]) && std::isnan(got[2]));
    EXPECT_EQ(got[3], -2.0f);
    func::apply_vector(f.m, 0, vec(arch::VectorOp::Maximum, DType::Float32, 1, 4, 0, 64, 128));
    got = f.get(Space::L1, 128, DType::Float32, 4);
    EXPECT_EQ(got[0], 3.0f);
    EXPECT_TRUE(std::isnan(got[1]) && std::isnan(got[2]));
}

// select reads its condition as NumPy's where reads a float array: zero of
// either sign is false, anything else (a denormal, inf, NaN) true.
TEST(VectorEffect, SelectTakesXWhereTheConditionIsNonzero) {
    Fixture f;
    const float nan = std::nanf("");
    f.put(Space::L1, 0, DType::Float32, {1, 2, 3, 4, 5, 6});
    f.put(Space::L1, 64, DType::Float32, {-1, -2, -3, -4, -5, -6});
    f.put(Space::L1, 192, DType::Float32, {0, -0.0f, 1e-40f, nan, -std::numeric_limits<float>::infinity(), 0.5});
    arch::VectorArgs v = vec(arch::VectorOp::Select, DType::Float32, 2, 3, 0, 64, 128);
    v.src2 = 192;
    func::apply_vector(f.m, 0, v);
    EXPECT_EQ(f.get(Space::L1, 128, DType::Float32, 6), (std::vector<float>{-1, -2, 3, 4, 5, 6}));
}

// argmax: the first largest of each row as int32 (ties: the first; a NaN
// wins, as NumPy's), in 4-byte destination elements whatever the source's
// dtype; int8 rows too.
TEST(VectorEffect, ArgmaxWritesTheFirstLargestIndexAsInt32) {
    Fixture f;
    const float nan = std::nanf("");
    f.put(Space::L1, 0, DType::Float16, {3, 7, 7, 1, -5, -9, -2, -2, 0, nan, 4, nan});
    arch::VectorArgs v = vec(arch::VectorOp::Argmax, DType::Float16, 3, 4, 0, arch::kNoAddress, 64);
    EXPECT_EQ(v.dst_bytes(), 12u);
    func::apply_vector(f.m, 0, v);
    EXPECT_EQ(f.get(Space::L1, 64, DType::Int32, 3), (std::vector<float>{1, 2, 1}));
    f.put(Space::L1, 0, DType::Int8, {-128, -128, 5, 127, 127, 0});
    func::apply_vector(f.m, 0, vec(arch::VectorOp::Argmax, DType::Int8, 2, 3, 0, arch::kNoAddress, 64));
    EXPECT_EQ(f.get(Space::L1, 64, DType::Int32, 2), (std::vector<float>{2, 0}));
}

TEST(VectorEffect, ReductionsCombinePairwiseInTheirPrecision) {
    Fixture f;
    // 2048 + 1 + 1 + 1: pairwise in float16, (2048 + 1) + (1 + 1) = 2048 + 2 = 2050.
    f.put(Space::L1, 0, DType::Float16, {2048, 1, 1, 1});
    func::apply_vector(f.m, 0, vec(arch::VectorOp::ReduceSum, DType::Float16, 1, 4, 0, arch::kNoAddress, 64));
    EXPECT_EQ(f.get(Space::L1, 64, DType::Float16, 1)[0], 2050.0f);
    f.put(Space::L1, 0, DType::Float32, {3, -1, 7, 2, 5, 9});
    func::apply_vector(f.m, 0, vec(arch::VectorOp::ReduceMax, DType::Float32, 2, 3, 0, arch::kNoAddress, 64));
    EXPECT_EQ(f.get(Space::L1, 64, DType::Float32, 2), (std::vector<float>{7, 9}));
    func::apply_vector(f.m, 0, vec(arch::VectorOp::Transpose, DType::Float32, 2, 3, 0, arch::kNoAddress, 128));
    EXPECT_EQ(f.get(Space::L1, 128, DType::Float32, 6), (std::vector<float>{3, 2, -1, 5, 7, 9}));
}

TEST(Executor, RunsStreamsAsTheirFlagsAllowAndReportsDeadlock) {
    arch::Config c = arch::default_config();
    arch::Program p;
    p.tensors.push_back({"x", {4}, DType::Float16, 0, 8, "input"});
    p.tensors.push_back({"y", {4}, DType::Float16, 4096, 8, "output"});
    arch::Block b;
    b.num_flags = 2;
    arch::Command load;
    load.op = arch::Opcode::Dma;
    load.dma.src = Space::DDR, load.dma.dst = Space::L1, load.dma.rows = 1, load.dma.row_bytes = 8;
    load.sets = {0};
    arch::Command relu;
    relu.op = arch::Opcode::Vector;
    relu.vec = vec(arch::VectorOp::Relu, DType::Float16, 1, 4, 0, arch::kNoAddress, 64);
    relu.waits = {0}, relu.sets = {1};
    arch::Command store = load;
    store.dma.src = Space::L1, store.dma.dst = Space::DDR, store.dma.src_addr = 64, store.dma.dst_addr = 4096;
    store.waits = {1}, store.sets = {};
    // The store's stream comes first: it must wait for the vector unit.
    b.streams = {{{arch::EngineKind::ClusterDma, 1}, {store}},
                 {{arch::EngineKind::ClusterDma, 0}, {load}},
                 {{arch::EngineKind::Vector, 0}, {relu}}};
    p.blocks.push_back(b);
    func::Executor ex(c, p);
    func::store_run(ex.memory().span(Space::DDR, -1, 0, 8, "x"), DType::Float16, 4,
                    std::vector<float>{-1, 2, -3, 4}.data());
    ex.run();
    std::vector<float> y(4);
    func::load_run(ex.memory().span(Space::DDR, -1, 4096, 8, "y"), DType::Float16, 4, y.data());
    EXPECT_EQ(y, (std::vector<float>{0, 2, 0, 4}));

    p.blocks[0].streams[2].commands[0].sets = {};  // nobody sets flag 1 now
    func::Executor stuck(c, p);
    try {
        stuck.run();
        FAIL();
    } catch (const func::FunctionalError& e) {
        EXPECT_STREQ(e.what(),
                     "block 0 : dma1 command 0 waits for a flag no remaining command sets (the streams deadlock)");
    }
}

TEST(Executor, ABlockReadingL1ItNeverWroteGetsNaN) {
    arch::Config c = arch::default_config();
    arch::Program p;
    p.tensors.push_back({"y", {2}, DType::Float16, 0, 4, "output"});
    arch::Block b;
    arch::Command store;
    store.op = arch::Opcode::Dma;
    store.dma.src = Space::L1, store.dma.dst = Space::DDR, store.dma.rows = 1, store.dma.row_bytes = 4;
    b.streams = {{{arch::EngineKind::ClusterDma, 0}, {store}}};
    p.blocks.push_back(b);
    func::Executor ex(c, p);
    ex.run();
    std::vector<float> y(2);
    func::load_run(ex.memory().span(Space::DDR, -1, 0, 4, "y"), DType::Float16, 2, y.data());
    EXPECT_TRUE(std::isnan(y[0]) && std::isnan(y[1]));
}

}  // namespace
