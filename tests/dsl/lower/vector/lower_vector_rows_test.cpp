// Vector operations beyond element-wise: softmax, layer_norm, reductions,
// global_avg_pool, pooling, reductions of slide views, upsample and the
// vector transpose: their command sequences, sizes and exact DDR bytes.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/dsl/lower_test_util.h"

namespace {

using namespace lower_test;
using arch::Space;
using arch::VectorOp;

std::string program(const std::string& shape, const std::string& call, const std::string& dtype = "float16") {
    return "import pypto as pypo\n"
           "x = pypo.input(\"x\", shape=" +
           shape + ", dtype=\"" + dtype +
           "\")\n"
           "y = " +
           call +
           "\n"
           "pypo.output(\"y\", y)\n";
}

std::string vector_ops(const arch::Stream& s, size_t from = 0, size_t count = ~size_t{0}) {
    std::string out;
    for (size_t i = from; i < s.commands.size() && i - from < count; ++i)
        out += (out.empty() ? "" : " ") + std::string(arch::vector_op_name(s.commands[i].vec.op));
    return out;
}

// softmax of (256, 512) float16 computed in float32 (dtype='float32'): per
// row x 1024 B (2 slots), its float32 cast 2048, the row statistic 2048
// (read broadcast), y 2048 (2 slots): 10240 n <= 262144, n = 25. Blocks of
// 64 rows: 3 chunks (21, 21, 22 rows), six commands each.
TEST(LowerVectorRows, SoftmaxSequence) {
    arch::Program p = lower(program("(256, 512)", "pypo.op.softmax(x, dtype='float32')"));
    ASSERT_EQ(p.blocks.size(), 4u);
    const arch::Stream& vec = stream(p.blocks[0], "vector0");
    ASSERT_EQ(vec.commands.size(), 18u);
    EXPECT_EQ(vector_ops(vec, 0, 6), "cast reduce_max sub exp reduce_sum div");
    const arch::VectorArgs& mx = vec.commands[13].vec;  // chunk 2's reduce_max
    EXPECT_EQ(mx.rows, 22u);
    EXPECT_EQ(mx.cols, 512u);
    EXPECT_EQ(mx.dtype, arch::DType::Float32);
    EXPECT_EQ(vec.commands[2].vec.src1, vec.commands[1].vec.dst);  // sub reads the row maxima
    EXPECT_EQ(vec.commands[5].vec.src1, vec.commands[4].vec.dst);  // div reads the row sums
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 256u * 512 * 2);
    EXPECT_EQ(d.written, 256u * 512 * 4);
}

// softmax over axis 0 of (16, 8): one unit of 16 x 8, transposed in and out.
TEST(LowerVectorRows, SoftmaxOverAnOuterAxisTransposes) {
    arch::Program p = lower(program("(16, 8)", "pypo.op.softmax(x, axis=0)"));
    ASSERT_EQ(p.blocks.size(), 1u);
    const arch::Stream& vec = stream(p.blocks[0], "vector0");
    EXPECT_EQ(vector_ops(vec), "transpose reduce_max sub exp reduce_sum div transpose");
    EXPECT_EQ(vec.commands[0].vec.rows, 16u);
    EXPECT_EQ(vec.commands[1].vec.rows, 8u);
    EXPECT_EQ(vec.commands[1].vec.cols, 16u);
    EXPECT_EQ(vec.commands[6].vec.rows, 8u);
}

// layer_norm over the last axis of (512, 768): eleven commands per chunk;
// scale and shift (768 values each) loaded once per block.
TEST(LowerVectorRows, LayerNormSequence) {
    arch::Program p = lower(program("(512, 768)", "pypo.op.layer_norm(x)"));
    ASSERT_EQ(p.blocks.size(), 4u);
    const arch::Stream& vec = stream(p.blocks[0], "vector0");
    EXPECT_EQ(vector_ops(vec, 0, 11), "reduce_sum mul sub mul reduce_sum mul add sqrt div mul add");
    EXPECT_EQ(vec.commands.size() % 11, 0u);
    EXPECT_EQ(vec.commands[0].vec.cols, 768u);
    EXPECT_EQ(vec.commands[1].vec.cols, 1u);  // the row sums times 1/768
    const arch::Stream& dma = stream(p.blocks[0], "dma0");
    EXPECT_EQ(dma.commands[0].dma.bytes(), 1536u);
    EXPECT_EQ(dma.commands[1].dma.bytes(), 1536u);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 512u * 768 * 2 + 4 * 2 * 1536);
    EXPECT_EQ(d.written, 512u * 768 * 2);
}

// reduce_mean over the trailing axes (8, 64, 32) -> (8,): rows of 2048.
TEST(LowerVectorRows, ReduceMeanOverTrailingAxes) {
    arch::Program p = lower(program("(8, 64, 32)", "pypo.op.reduce_mean(x, axis=(1, 2))"));
    ASSERT_EQ(p.blocks.size(), 4u);
    const arch::Stream& vec = stream(p.blocks[0], "vector0");
    EXPECT_EQ(vector_ops(vec), "reduce_sum mul");
    EXPECT_EQ(vec.commands[0].vec.rows, 2u);
    EXPECT_EQ(vec.commands[0].vec.cols, 2048u);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 8u * 64 * 32 * 2);
    EXPECT_EQ(d.written, 16u);
}

// reduce_max over the middle axis of (4, 16, 8): each unit's 16 x 8 matrix
// is transposed so the reduction runs over rows of 16.
TEST(LowerVectorRows, ReduceOverAMiddleAxisTransposes) {
    arch::Program p = lower(program("(4, 16, 8)", "pypo.op.reduce_max(x, axis=1)"));
    ASSERT_EQ(p.blocks.size(), 4u);
    const arch::Stream& vec = stream(p.blocks[0], "vector0");
    EXPECT_EQ(vector_ops(vec), "transpose reduce_max");
    EXPECT_EQ(vec.commands[1].vec.rows, 8u);
    EXPECT_EQ(vec.commands[1].vec.cols, 16u);
    EXPECT_EQ(ddr_bytes(p).written, 4u * 8 * 2);
}

// Axes (0, 2) of (4, 16, 8): two stages, axis 2 first into a DDR scratch
// tensor of 4 x 16 values, then axis 0 of that; each stage's blocks wait
// for the previous stage's.
TEST(LowerVectorRows, ReduceOverSeparatedAxesInStages) {
    arch::Program p = lower(program("(4, 16, 8)", "pypo.op.reduce_sum(x, axis=(0, 2))"));
    const auto scratch = std::find_if(p.tensors.begin(), p.tensors.end(),
                                      [](const arch::TensorPlacement& t) { return t.role == "scratch"; });
    ASSERT_NE(scratch, p.tensors.end());
    EXPECT_EQ(scratch->name, "y stage 1");
    EXPECT_EQ(scratch->bytes, 4u * 16 * 2);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 4u * 16 * 8 * 2 + 4 * 16 * 2);
    EXPECT_EQ(d.written, 4u * 16 * 2 + 16 * 2);
    const arch::Block& last = p.blocks.back();
    EXPECT_EQ(last.name.rfind("y[", 0), 0u) << last.name;
    EXPECT_FALSE(last.deps.empty());
    for (uint32_t dep : last.deps) EXPECT_EQ(p.blocks[dep].name.rfind("y stage 1[", 0), 0u);
}

// global_avg_pool (1, 2048, 7, 7): rows of 49, then times 1/49.
TEST(LowerVectorRows, GlobalAvgPool) {
    arch::Program p = lower(program("(1, 2048, 7, 7)", "pypo.op.global_avg_pool(x)"));
    ASSERT_EQ(p.blocks.size(), 4u);
    const arch::Stream& vec = stream(p.blocks[0], "vector0");
    EXPECT_EQ(vector_ops(vec, 0, 2), "reduce_sum mul");
    EXPECT_EQ(vec.commands[0].vec.cols, 49u);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 2048u * 49 * 2);
    EXPECT_EQ(d.written, 2048u * 2);
}

// max_pool 3x3/s2/p1 of (1, 64, 112, 112) -> (1, 64, 56, 56). A plane
// (25088 B; the windows' extent 2 * 112 + 2 + 3136 elements is smaller)
// and its 6272 B of output, double-buffered: 62720 n <= 262144, n = 4.
// Blocks of 16 planes: 4 chunks, each 8 maximum commands over 4 * 56 rows
// of 56 outputs. DDR reads the input once.
TEST(LowerVectorRows, MaxPoolPlanes) {
    arch::Program p = lower(program("(1, 64, 112, 112)", "pypo.op.max_pool(x, window=3, stride=2, padding=1)"));
    ASSERT_EQ(p.blocks.size(), 4u);
    const arch::Stream& vec = stream(p.blocks[0], "vector0");
    ASSERT_EQ(vec.commands.size(), 32u);
    for (const arch::Command& c : vec.commands) {
        EXPECT_EQ(c.vec.op, VectorOp::Maximum);
        EXPECT_EQ(c.vec.rows, 224u);
        EXPECT_EQ(c.vec.cols, 56u);
    }
    // Window position (1, 2) starts one row and two columns in.
    EXPECT_EQ(vec.commands[4].vec.src1, vec.commands[0].vec.src0 + (112 + 2) * 2);
    EXPECT_EQ(stream(p.blocks[0], "dma0").commands[0].dma.bytes(), 4u * 25088);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 64u * 112 * 112 * 2);
    EXPECT_EQ(d.written, 64u * 56 * 56 * 2);
}

TEST(LowerVectorRows, AvgPoolAddsThenScales) {
    arch::Program p = lower(program("(1, 8, 16, 16)", "pypo.op.avg_pool(x, window=2)"));
    EXPECT_EQ(vector_ops(stream(p.blocks[0], "vector0")), "add add add mul");
}

// models/slide.pto: reduce_sum over the 3x3 windows of a (480, 640) image.
// A plane does not fit, so units are bands of output rows: the largest band
// with 2 * (band + 2) * 1280 + 2 * align32(band * 1276) <= 262144 is 50
// rows. 10 bands (the last 28 rows) over 4 blocks (2, 3, 2, 3). Each band
// loads its 52 input rows (66560 B), the last one 30 rows; 8 adds each.
TEST(LowerVectorRows, SlideReductionReadsTheImageInBands) {
    arch::Program p = lower(
        "import pypto as pypo\n"
        "img = pypo.input(\"img\", shape=(480, 640), dtype=\"float16\")\n"
        "r = pypo.op.reduce_sum(pypo.op.slide(img, window=(3, 3), stride=1), axis=(-2, -1))\n"
        "pypo.output(\"r\", r)\n");
    ASSERT_EQ(p.blocks.size(), 4u);
    EXPECT_EQ(p.blocks[3].name, "r[7:10]");
    const arch::Stream& dma = stream(p.blocks[3], "dma0");
    EXPECT_EQ(dma.commands[0].dma.src_addr, p.tensors[0].ddr_addr + 350 * 1280);
    EXPECT_EQ(dma.commands[0].dma.bytes(), 66560u);
    EXPECT_EQ(dma.commands[dma.commands.size() - 3].dma.bytes(), 38400u);  // band 9's load, before the last two stores
    const arch::Stream& vec = stream(p.blocks[3], "vector0");
    ASSERT_EQ(vec.commands.size(), 24u);
    EXPECT_EQ(vec.commands[23].vec.rows, 28u);
    EXPECT_EQ(vec.commands[23].vec.cols, 638u);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 9u * 66560 + 38400);
    EXPECT_EQ(d.written, 478u * 638 * 2);
}

TEST(LowerVectorRows, UpsampleCopiesIntoTheLargerOutput) {
    arch::Program p = lower(program("(1, 4, 8, 8)", "pypo.op.upsample(x, factor=2)"));
    ASSERT_EQ(p.blocks.size(), 4u);
    const arch::Command& c = stream(p.blocks[0], "vector0").commands[0];
    EXPECT_EQ(c.vec.op, VectorOp::Copy);
    EXPECT_EQ(c.vec.rows, 16u);
    EXPECT_EQ(c.vec.cols, 16u);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 4u * 64 * 2);
    EXPECT_EQ(d.written, 4u * 256 * 2);
}

// (2048, 2048) float16: 128 x 128 tiles (4 slots of 32 KiB; 256 would need
// 512 KiB), 256 tiles. Tile (i, j) is read as 128 rows of 256 B and written
// to rows j*128.. , columns i*128.. of y.
TEST(LowerVectorRows, TransposeInTiles) {
    arch::Program p = lower(program("(2048, 2048)", "pypo.op.transpose(x)"));
    ASSERT_EQ(p.blocks.size(), 4u);
    EXPECT_EQ(p.blocks[1].name, "y[64:128]");
    const arch::Stream& dma = stream(p.blocks[1], "dma0");
    const arch::DmaArgs& in = dma.commands[0].dma;  // tile 64 = (4, 0)
    EXPECT_EQ(in.src_addr, p.tensors[0].ddr_addr + 4 * 128 * 4096);
    EXPECT_EQ(in.rows, 128u);
    EXPECT_EQ(in.row_bytes, 256u);
    EXPECT_EQ(in.src_stride, 4096u);
    const arch::DmaArgs& out = dma.commands[2].dma;
    EXPECT_EQ(out.dst_addr, p.tensors[1].ddr_addr + 4 * 128 * 2);
    EXPECT_EQ(out.dst_stride, 4096u);
    EXPECT_EQ(stream(p.blocks[1], "vector0").commands[0].vec.op, VectorOp::Transpose);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 2048u * 2048 * 2);
    EXPECT_EQ(d.written, 2048u * 2048 * 2);
}

// (512, 12, 64) -> (12, 512, 64): rows of 64 change places. A band of
// a-values takes 12 * 64 * 2 = 1536 B in and out: 42 fit, 13 bands.
TEST(LowerVectorRows, TransposeOfRowsMovesHeads) {
    arch::Program p = lower(program("(512, 12, 64)", "pypo.op.transpose(x, perm=(1, 0, 2))"));
    const arch::Stream& dma = stream(p.blocks[0], "dma0");
    EXPECT_EQ(dma.commands[0].dma.bytes(), 42u * 1536);
    const arch::DmaArgs& out = dma.commands[2].dma;
    EXPECT_EQ(out.rows, 12u);
    EXPECT_EQ(out.row_bytes, 42u * 128);
    EXPECT_EQ(out.dst_stride, 512u * 128);
    EXPECT_EQ(stream(p.blocks[0], "vector0").commands[0].vec.op, VectorOp::Copy);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 512u * 12 * 64 * 2);
    EXPECT_EQ(d.written, 512u * 12 * 64 * 2);
}

// (2, 0, 1) of (2, 3, 4) moves the last axis in front of the other two:
// one block swap, a 6 x 4 matrix transpose. (2, 1, 0) takes two, the first
// into a DDR scratch tensor.
TEST(LowerVectorRows, AnyPermutationIsBlockSwaps) {
    arch::Program rot = lower(program("(2, 3, 4)", "pypo.op.transpose(x, perm=(2, 0, 1))"));
    EXPECT_EQ(vector_ops(stream(rot.blocks[0], "vector0")), "transpose");
    for (const arch::TensorPlacement& t : rot.tensors) EXPECT_NE(t.role, "scratch");
    arch::Program rev = lower(program("(2, 3, 4)", "pypo.op.transpose(x, perm=(2, 1, 0))"));
    int scratch = 0;
    for (const arch::TensorPlacement& t : rev.tensors) scratch += t.role == "scratch";
    EXPECT_EQ(scratch, 1);
    DdrBytes d = ddr_bytes(rev);
    EXPECT_EQ(d.read, 2u * 24 * 2);
    EXPECT_EQ(d.written, 2u * 24 * 2);
}

// A softmax row of 200,000 float16 values (400,000 bytes) does not fit L1:
// two passes over pieces, the input read twice and the output written once.
TEST(LowerVectorRows, OneRowLargerThanL1InPasses) {
    arch::Program p = lower(program("(2, 200000)", "pypo.op.softmax(x)"));
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 2u * 2 * 200000 * 2);
    EXPECT_EQ(d.written, 2u * 200000 * 2);
    EXPECT_EQ(p.blocks.size(), 2u);  // one per row: a row's passes stay on one cluster
}

}  // namespace
