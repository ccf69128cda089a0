// The streamed vector pipeline (dsl/lower/vector/lower_vector_stream.h) through its
// element-wise users: chunk sizes from L1, one block per cluster, the DMA
// queues and flags of the double-buffered pipeline, broadcast operands
// loaded once per block, constants without DDR traffic, casts, batch_norm,
// and the exact DDR bytes.
#include <gtest/gtest.h>

#include "tests/dsl/lower_test_util.h"

namespace {

using namespace lower_test;
using arch::Space;
using arch::VectorOp;

std::string unary(const std::string& op, const std::string& shape, const std::string& extra = "",
                  const std::string& dtype = "float16") {
    return "import pypto as pypo\n"
           "x = pypo.input(\"x\", shape=" +
           shape + ", dtype=\"" + dtype +
           "\")\n"
           "y = pypo.op." +
           op + "(x" + extra +
           ")\n"
           "pypo.output(\"y\", y)\n";
}

// "relu relu" for a vector stream.
std::string vector_ops(const arch::Stream& s) {
    std::string out;
    for (const arch::Command& c : s.commands)
        out += (out.empty() ? "" : " ") + std::string(arch::vector_op_name(c.vec.op));
    return out;
}

// (1, 64, 56, 56) float16, rows of 56 elements (112 B): x and y are
// double-buffered, 4 slots of align32(112 n) <= 256 KiB, so n <= 585. The
// 3584 rows split into 4 blocks of 896, each 2 chunks of 448 rows
// (448 * 112 = 50176 B).
TEST(LowerVector, ReluChunksAndBlocks) {
    arch::Program p = lower(unary("relu", "(1, 64, 56, 56)"));
    ASSERT_EQ(p.blocks.size(), 4u);
    EXPECT_EQ(p.blocks[1].name, "y[896:1792]");
    for (const arch::Block& b : p.blocks) {
        EXPECT_EQ(b.num_flags, 3);  // one DMA engine: no result-free flag
        ASSERT_EQ(b.streams.size(), 2u);
        const arch::Stream& dma = stream(b, "dma0");
        const arch::Stream& vec = stream(b, "vector0");
        ASSERT_EQ(dma.commands.size(), 4u);  // load 0, load 1, store 0, store 1
        for (size_t i = 0; i < 4; ++i) EXPECT_EQ(dma.commands[i].dma.bytes(), 50176u);
        EXPECT_EQ(dma.commands[0].dma.src, Space::DDR);
        EXPECT_EQ(dma.commands[1].dma.src, Space::DDR);
        EXPECT_EQ(dma.commands[2].dma.dst, Space::DDR);
        EXPECT_EQ(dma.commands[3].dma.dst, Space::DDR);
        ASSERT_EQ(vec.commands.size(), 2u);
        for (const arch::Command& c : vec.commands) {
            EXPECT_EQ(c.vec.op, VectorOp::Relu);
            EXPECT_EQ(c.vec.rows, 448u);
            EXPECT_EQ(c.vec.cols, 56u);
            EXPECT_EQ(c.vec.dtype, arch::DType::Float16);
        }
        // Chunk 1 uses the second slots.
        EXPECT_EQ(dma.commands[1].dma.dst_addr, 50176u);
        EXPECT_EQ(vec.commands[1].vec.src0, 50176u);
    }
    // Block 2 reads rows 1792.. of x and writes the same rows of y.
    EXPECT_EQ(stream(p.blocks[2], "dma0").commands[0].dma.src_addr, p.tensors[0].ddr_addr + 1792 * 112);
    EXPECT_EQ(stream(p.blocks[2], "dma0").commands[2].dma.dst_addr, p.tensors[1].ddr_addr + 1792 * 112);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 401408u);
    EXPECT_EQ(d.written, 401408u);
}

// (1, 64, 112, 112): rows of 224 B, n <= 292 (292 * 224 = 65408). Blocks of
// 1792 rows need 7 chunks of 256. On one DMA engine the store of chunk i - 2
// goes before the load of chunk i.
TEST(LowerVector, SharedDmaQueueInterleavesStoresAndLoads) {
    arch::Program p = lower(unary("relu", "(1, 64, 112, 112)"));
    ASSERT_EQ(p.blocks.size(), 4u);
    const arch::Stream& dma = stream(p.blocks[0], "dma0");
    std::string order;
    for (const arch::Command& c : dma.commands) order += c.dma.src == Space::DDR ? "L" : "S";
    EXPECT_EQ(order, "LLSLSLSLSLSLSS");
    // Flags: f0 inputs ready, f1 input slot free, f2 result ready.
    EXPECT_TRUE(dma.commands[0].waits.empty());
    EXPECT_EQ(dma.commands[0].sets, std::vector<arch::FlagId>{0});
    EXPECT_EQ(dma.commands[2].waits, std::vector<arch::FlagId>{2});  // store 0
    EXPECT_EQ(dma.commands[3].waits, std::vector<arch::FlagId>{1});  // load 2
    const arch::Stream& vec = stream(p.blocks[0], "vector0");
    ASSERT_EQ(vec.commands.size(), 7u);
    EXPECT_EQ(vec.commands[0].vec.rows, 256u);
    EXPECT_EQ(vec.commands[4].sets, (std::vector<arch::FlagId>{1, 2}));
    EXPECT_EQ(vec.commands[5].sets, std::vector<arch::FlagId>{2});  // no load 7 to free a slot for
    for (const arch::Command& c : vec.commands) EXPECT_EQ(c.waits, std::vector<arch::FlagId>{0});
}

// Two DMA engines: loads on dma0, stores on dma1, and the vector unit waits
// for the store of chunk i - 2 (flag f3) before reusing its result slot.
TEST(LowerVector, StoresGoToTheSecondDmaEngine) {
    arch::Config c = config(R"({"cluster": {"dma_engines": 2}})");
    arch::Program p = lower(unary("relu", "(1, 64, 112, 112)"), c);
    const arch::Block& b = p.blocks[0];
    EXPECT_EQ(b.num_flags, 4);
    EXPECT_EQ(stream(b, "dma0").commands.size(), 7u);
    const arch::Stream& st = stream(b, "dma1");
    ASSERT_EQ(st.commands.size(), 7u);
    for (const arch::Command& s : st.commands) EXPECT_EQ(s.dma.dst, Space::DDR);
    EXPECT_EQ(st.commands[0].sets, std::vector<arch::FlagId>{3});
    EXPECT_TRUE(st.commands[5].sets.empty());
    const arch::Stream& vec = stream(b, "vector0");
    EXPECT_EQ(vec.commands[1].waits, std::vector<arch::FlagId>{0});
    EXPECT_EQ(vec.commands[2].waits, (std::vector<arch::FlagId>{0, 3}));
}

// MAX_PARALLEL = 2 gives two blocks; a tiny tensor one block per row.
TEST(LowerVector, BlocksFollowMaxParallelAndTinyTensors) {
    arch::Program p = lower("import pypto as pypo\npypo.config.MAX_PARALLEL = 2\n" +
                            unary("exp", "(1, 64, 56, 56)").substr(std::string("import pypto as pypo\n").size()));
    EXPECT_EQ(p.blocks.size(), 2u);
    arch::Program tiny = lower(unary("sigmoid", "(3, 5)"));
    ASSERT_EQ(tiny.blocks.size(), 3u);
    EXPECT_EQ(stream(tiny.blocks[2], "vector0").commands[0].vec.rows, 1u);
    EXPECT_EQ(stream(tiny.blocks[2], "vector0").commands[0].vec.cols, 5u);
}

// A row longer than L1 allows falls back to single elements: 200000 float16
// elements in one row (400000 B) cannot be double-buffered twice.
TEST(LowerVector, LongRowsFallBackToElements) {
    arch::Program p = lower(unary("tanh", "(1, 200000)"));
    ASSERT_EQ(p.blocks.size(), 4u);
    const arch::Command& v = stream(p.blocks[0], "vector0").commands[0];
    EXPECT_EQ(v.vec.cols, 1u);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 400000u);
    EXPECT_EQ(d.written, 400000u);
}

// relu to float32 casts first (the function computes in the output dtype).
TEST(LowerVector, UnaryWithAnotherOutputDtypeCastsFirst) {
    arch::Program p = lower(unary("gelu", "(64, 64)", ", dtype='float32'"));
    const arch::Stream& vec = stream(p.blocks[0], "vector0");
    EXPECT_EQ(vector_ops(vec), "cast gelu");
    EXPECT_EQ(vec.commands[0].vec.dtype, arch::DType::Float16);  // the source's
    EXPECT_EQ(vec.commands[1].vec.dtype, arch::DType::Float32);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 64u * 64 * 2);
    EXPECT_EQ(d.written, 64u * 64 * 4);
}

TEST(LowerVector, CastIsOneCommandBySourceDtype) {
    arch::Program p = lower(unary("cast", "(256, 256)", ", dtype='float32'"));
    ASSERT_EQ(p.blocks.size(), 4u);
    const arch::Stream& vec = stream(p.blocks[0], "vector0");
    ASSERT_EQ(vec.commands.size(), 1u);  // 64 rows: 2 * 512 * 64 + 2 * 1024 * 64 fits
    EXPECT_EQ(vec.commands[0].vec.op, VectorOp::Cast);
    EXPECT_EQ(vec.commands[0].vec.dtype, arch::DType::Float16);
    EXPECT_EQ(vec.commands[0].vec.rows, 64u);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 131072u);
    EXPECT_EQ(d.written, 262144u);
    // Same dtype: a copy.
    arch::Program same = lower(unary("cast", "(8, 8)", ", dtype='float16'"));
    EXPECT_EQ(stream(same.blocks[0], "vector0").commands[0].vec.op, VectorOp::Copy);
}

std::string binary(const std::string& a_shape, const std::string& b_shape, const std::string& op = "add") {
    return "import pypto as pypo\n"
           "a = pypo.input(\"a\", shape=" +
           a_shape +
           ", dtype=\"float16\")\n"
           "b = pypo.input(\"b\", shape=" +
           b_shape +
           ", dtype=\"float16\")\n"
           "y = pypo.op." +
           op +
           "(a, b)\n"
           "pypo.output(\"y\", y)\n";
}

TEST(LowerVector, SameShapeBinaryStreamsBothOperands) {
    arch::Program p = lower(binary("(1, 64, 56, 56)", "(1, 64, 56, 56)"));
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 2u * 401408);
    EXPECT_EQ(d.written, 401408u);
    const arch::Stream& vec = stream(p.blocks[0], "vector0");
    for (const arch::Command& c : vec.commands) {
        EXPECT_EQ(c.vec.op, VectorOp::Add);
        EXPECT_NE(c.vec.src1, arch::kNoAddress);
    }
    // Each chunk loads a then b; the second sets the ready flag.
    const arch::Stream& dma = stream(p.blocks[0], "dma0");
    EXPECT_TRUE(dma.commands[0].sets.empty());
    EXPECT_EQ(dma.commands[1].sets, std::vector<arch::FlagId>{0});
}

// A per-channel operand (64, 1, 1) is loaded whole (128 B) once per block,
// first on dma0; every chunk's add reads it broadcast.
TEST(LowerVector, BroadcastOperandIsLoadedOncePerBlock) {
    arch::Program p = lower(binary("(1, 64, 56, 56)", "(64, 1, 1)"));
    ASSERT_EQ(p.blocks.size(), 4u);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 401408u + 4 * 128);
    EXPECT_EQ(d.written, 401408u);
    for (const arch::Block& b : p.blocks) {
        const arch::Stream& dma = stream(b, "dma0");
        EXPECT_EQ(dma.commands[0].dma.src_addr, p.tensors[1].ddr_addr);
        EXPECT_EQ(dma.commands[0].dma.bytes(), 128u);
        const uint64_t resident = dma.commands[0].dma.dst_addr;
        for (const arch::Command& c : stream(b, "vector0").commands) EXPECT_EQ(c.vec.src1, resident);
    }
}

// b (1, 65536) is 131,072 bytes, more than L1 / 8: gathered with each
// chunk, read once per output row (64 x 131,072 bytes), while a (64, 1),
// 128 bytes, stays resident (once per block). An output row does not fit
// with its buffers, so rows are single elements: b's chunk is one
// contiguous run of its row, one DMA per chunk.
TEST(LowerVector, LargeBroadcastOperandIsGathered) {
    arch::Program p = lower(binary("(64, 1)", "(1, 65536)"));
    ASSERT_EQ(p.blocks.size(), 4u);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 64u * 131072 + 4 * 128);
    EXPECT_EQ(d.written, 64u * 131072);
    const uint64_t b = p.tensors[1].ddr_addr;
    for (const arch::Command& c : stream(p.blocks[0], "dma0").commands) {
        if (c.dma.src != arch::Space::DDR || c.dma.src_addr < b || c.dma.src_addr >= b + 131072) continue;
        EXPECT_EQ(c.dma.rows, 1u);
        EXPECT_LE(c.dma.src_addr + c.dma.bytes(), b + 131072);
    }
}

// A number operand is a constant: no DDR traffic; 1 - x keeps the order.
TEST(LowerVector, NumberOperandsNeedNoDdrTraffic) {
    arch::Program p = lower(unary("mul", "(128, 128)", ", 0.5"));
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 128u * 128 * 2);
    EXPECT_EQ(d.written, 128u * 128 * 2);
    const arch::Command& mul = stream(p.blocks[0], "vector0").commands[0];
    EXPECT_EQ(mul.vec.op, VectorOp::Mul);
    const uint64_t x_slot = stream(p.blocks[0], "dma0").commands[0].dma.dst_addr;
    EXPECT_EQ(mul.vec.src0, x_slot);
    EXPECT_NE(mul.vec.src1, x_slot);

    arch::Program q = lower(
        "import pypto as pypo\nx = pypo.input(\"x\", shape=(128, 128))\ny = pypo.op.sub(1.0, x)\npypo.output(\"y\", "
        "y)\n");
    const arch::Command& sub = stream(q.blocks[0], "vector0").commands[0];
    EXPECT_EQ(sub.vec.src1, stream(q.blocks[0], "dma0").commands[0].dma.dst_addr);
}

// batch_norm (1, 64, 56, 56) NCHW: a unit is one channel plane (3136
// elements, 6272 B). L1: x and y 2 slots each, scale and shift 128 B + the
// broadcast extent: 4 * 6272 n + 2 * (6272 n + 128) <= 262144 gives n = 6.
// Blocks of 16 planes: 3 chunks (5, 5, 6 planes). dma0: scale, shift, then
// L0 L1 S0 L2 S1 S2. Each chunk: mul by scale, add shift.
TEST(LowerVector, BatchNormPerChannel) {
    arch::Program p = lower(unary("batch_norm", "(1, 64, 56, 56)"));
    ASSERT_EQ(p.blocks.size(), 4u);
    const arch::Block& b = p.blocks[3];
    EXPECT_EQ(b.name, "y[48:64]");
    const arch::Stream& dma = stream(b, "dma0");
    ASSERT_EQ(dma.commands.size(), 8u);
    EXPECT_EQ(dma.commands[0].dma.src_addr, p.tensors[2].ddr_addr);  // y.scale
    EXPECT_EQ(dma.commands[0].dma.bytes(), 128u);
    EXPECT_EQ(dma.commands[1].dma.src_addr, p.tensors[3].ddr_addr);  // y.shift
    EXPECT_EQ(dma.commands[2].dma.bytes(), 5u * 6272);
    EXPECT_EQ(dma.commands[2].dma.src_addr, p.tensors[0].ddr_addr + 48 * 6272);
    const arch::Stream& vec = stream(b, "vector0");
    EXPECT_EQ(vector_ops(vec), "mul add mul add mul add");
    EXPECT_EQ(vec.commands[4].vec.rows, 6u);
    EXPECT_EQ(vec.commands[4].vec.cols, 3136u);
    EXPECT_EQ(vec.commands[0].vec.src1, dma.commands[0].dma.dst_addr);
    EXPECT_EQ(vec.commands[1].vec.src1, dma.commands[1].dma.dst_addr);
    DdrBytes d = ddr_bytes(p);
    EXPECT_EQ(d.read, 401408u + 4 * 256);
    EXPECT_EQ(d.written, 401408u);
}

// NHWC: the channel is the last axis, a row is one pixel's 64 channels.
TEST(LowerVector, BatchNormChannelsLast) {
    arch::Program p = lower(unary("batch_norm", "(1, 56, 56, 64)", ", layout='NHWC'"));
    const arch::Command& mul = stream(p.blocks[0], "vector0").commands[0];
    EXPECT_EQ(mul.vec.cols, 64u);
    EXPECT_EQ(ddr_bytes(p).read, 401408u + 4 * 256);
}

TEST(LowerVector, DmaTransposeIsNotThisLowering) {
    // engine='dma' belongs to the data-movement lowering; the vector one
    // handles the default engine only.
    arch::Program p = lower(unary("transpose", "(64, 32)"));
    EXPECT_EQ(vector_ops(stream(p.blocks[0], "vector0")), "transpose");
}

}  // namespace
