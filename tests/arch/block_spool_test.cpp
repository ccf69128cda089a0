// The spooled program (sim/arch/block_spool.h, block_codec.h): every field of
// every kind of command survives the binary form exactly, a damaged block is
// refused, and blocks come back from disk as they went in.
#include "sim/arch/block_spool.h"

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "sim/arch/block_codec.h"
#include "sim/arch/program_json.h"
#include "tests/support/program_builders.h"

namespace {

using namespace testprog;
using arch::DType;
using arch::VectorOp;

// A block using every kind of command and every optional field, with
// values that need all the bytes of their type.
arch::Block everything() {
    arch::Command load2d = load(64, {0}, {1});
    load2d.dma.rows = 3;
    load2d.dma.src_stride = 4096;
    load2d.dma.dst_stride = 128;
    load2d.dma.src_addr = ~uint64_t{0} - 1;
    load2d.dma.rearrange = arch::Rearrange{arch::Rearrange::Kind::PixelShuffle, 4, 3};
    load2d.tag = 4000000000u;
    load2d.issue_cycles = 4294967295u;
    arch::Command im2col = to_l0(512);
    im2col.dma.im2col = arch::Im2col{7, 9, 11, 3, 3, 2, 1, 1, 0, 5, 17, 27, 4, true};
    arch::Command back = dma(Space::L0, Space::L1, 256, {2, 2});
    back.dma.convert_f32_to_f16 = true;
    arch::Command mm = matmul(64, 32, 64, DType::Float32, {0}, {1});
    mm.mm.accumulate = true;
    mm.mm.b_transposed = true;
    mm.mm.a_addr = 1, mm.mm.b_addr = 2, mm.mm.c_addr = uint64_t{1} << 40;
    arch::VectorSource strided, scalar, window;
    strided.kind = arch::VectorSource::Kind::Strided, strided.first = 12, strided.dims = {2, 4, 6},
    strided.strides = {0, -6, int64_t{1} << 40};
    scalar.kind = arch::VectorSource::Kind::Scalar, scalar.scalar = 0.1;
    window.kind = arch::VectorSource::Kind::Window;
    window.window = {7, 9, 3, 2, 2, 2, 1, 1, 2, 1, -35, -3.4028234663852886e38};
    arch::Command add = vec(VectorOp::Add, 4, 6);
    add.vec.in0 = std::make_shared<const arch::VectorSource>(strided);
    add.vec.in1 = std::make_shared<const arch::VectorSource>(window);
    arch::Command mul = vec(VectorOp::Mul, 4, 6, DType::Float32);
    mul.vec.in1 = std::make_shared<const arch::VectorSource>(scalar);
    arch::Block b = block(
        {stream(dma_engine(1), {load2d}), stream(cube_dma(3), {im2col, back}), stream(cube(3), {mm, matmul(4, 4, 4)}),
         stream(vector_unit(0), {add, mul, vec(VectorOp::ReduceMax, 5, 7)})},
        65535, {0, 1, 2, 70000, 70001});
    b.name = "conv2d_1 tile (3, 4) \"quoted\"";
    b.drain = 69999;
    b.cluster = 2;
    return b;
}

arch::Program holding(arch::Block b) {
    arch::Program p;
    p.blocks.push_back(std::move(b));
    return p;
}

TEST(BlockCodec, RoundTripIsExact) {
    const arch::Block b = everything();
    std::string bytes;
    arch::encode_block(b, bytes);
    const arch::Block back = arch::decode_block(bytes.data(), bytes.size());
    EXPECT_EQ(arch::program_to_json(holding(back)), arch::program_to_json(holding(b)));
    EXPECT_EQ(back.name, b.name);
    EXPECT_EQ(back.deps, b.deps);
    EXPECT_EQ(back.drain, 69999u);
    EXPECT_EQ(back.cluster, 2);
    EXPECT_EQ(back.num_flags, 65535u);
    // Field by field where the JSON form does not look.
    const auto& c = back.streams;
    EXPECT_EQ(c[0].commands[0].dma.src_addr, ~uint64_t{0} - 1);
    EXPECT_EQ(c[0].commands[0].tag, 4000000000u);
    EXPECT_EQ(c[0].commands[0].issue_cycles, 4294967295u);
    EXPECT_EQ(c[1].commands[1].waits, (std::vector<arch::FlagId>{2, 2}));
    EXPECT_TRUE(c[1].commands[0].dma.im2col->channels_last);
    EXPECT_EQ(c[1].commands[0].dma.im2col->element_bytes, 4u);
    EXPECT_EQ(c[2].commands[0].mm.c_addr, uint64_t{1} << 40);
    EXPECT_EQ(c[3].commands[0].vec.source(0), *b.streams[3].commands[0].vec.in0);
    EXPECT_EQ(c[3].commands[0].vec.source(1), *b.streams[3].commands[0].vec.in1);
    EXPECT_EQ(c[3].commands[1].vec.source(1).scalar, 0.1);
    EXPECT_EQ(c[3].commands[1].vec.src1, 0x10000u);
    EXPECT_EQ(c[3].commands[2].vec.src1, arch::kNoAddress);
    EXPECT_FALSE(c[3].commands[2].vec.in0);
    EXPECT_EQ(arch::format_program(holding(back)), arch::format_program(holding(b)));
}

// Decoding into a block that held another (the spool reuses released
// blocks) gives what a fresh decode gives: no part of the earlier block's
// commands survives, optional ones included, whatever the stream sizes.
TEST(BlockCodec, DecodingIntoAUsedBlockLeavesNothingOfIt) {
    const arch::Block plain =
        block({stream(dma_engine(1), {load(64, {}, {}), load(32, {}, {})}), stream(cube_dma(3), {to_l0(512)}),
               stream(cube(3), {matmul(4, 4, 4), matmul(8, 8, 8), matmul(2, 2, 2)}),
               stream(vector_unit(0), {vec(VectorOp::Add, 4, 6), vec(VectorOp::Mul, 4, 6)})},
              3);
    for (const arch::Block& first : {everything(), block({}, 0)}) {
        std::string before, after;
        arch::encode_block(first, before);
        arch::encode_block(plain, after);
        arch::Block reused;
        arch::decode_block_into(before.data(), before.size(), reused);
        arch::decode_block_into(after.data(), after.size(), reused);
        const arch::Block fresh = arch::decode_block(after.data(), after.size());
        EXPECT_EQ(arch::program_to_json(holding(reused)), arch::program_to_json(holding(fresh)));
        EXPECT_EQ(arch::format_program(holding(reused)), arch::format_program(holding(plain)));
        EXPECT_EQ(reused.name, fresh.name);
        EXPECT_EQ(reused.drain, 0u);
        EXPECT_EQ(reused.cluster, arch::Block::kAnyCluster);
        EXPECT_FALSE(reused.streams[0].commands[0].dma.rearrange);
        EXPECT_FALSE(reused.streams[1].commands[0].dma.im2col);
        EXPECT_FALSE(reused.streams[2].commands[0].mm.accumulate);
        EXPECT_FALSE(reused.streams[3].commands[0].vec.in0);
        EXPECT_FALSE(reused.streams[3].commands[0].vec.in1);
        EXPECT_EQ(reused.streams[0].commands[0].tag, 0u);
        EXPECT_TRUE(reused.streams[0].commands[0].waits.empty());
    }
}

TEST(BlockCodec, EmptyBlockAndAnyCluster) {
    const arch::Block b = block({}, 0);
    std::string bytes;
    arch::encode_block(b, bytes);
    EXPECT_EQ(bytes.size(), 6u);  // name, deps, drain, cluster, flags, streams: a byte each
    const arch::Block back = arch::decode_block(bytes.data(), bytes.size());
    EXPECT_EQ(back.cluster, arch::Block::kAnyCluster);
    EXPECT_TRUE(back.streams.empty());
}

TEST(BlockCodec, DamagedBytesAreRefused) {
    std::string bytes;
    arch::encode_block(everything(), bytes);
    for (size_t cut : {size_t(0), size_t(1), bytes.size() / 2, bytes.size() - 1}) {
        try {
            arch::decode_block(bytes.data(), cut);
            ADD_FAILURE() << "a block cut at byte " << cut << " was accepted";
        } catch (const std::runtime_error& e) {
            EXPECT_STREQ(e.what(), "spooled data is corrupt");
        }
    }
    bytes.push_back('\0');
    EXPECT_THROW(arch::decode_block(bytes.data(), bytes.size()), std::runtime_error);
}

TEST(BlockRanges, RunsOfConsecutiveBlocks) {
    auto ranges = [](std::vector<uint32_t> v) {
        std::string s;
        for (const arch::BlockRange& r : arch::block_ranges(v))
            s += "[" + std::to_string(r.first) + "," + std::to_string(r.last) + ")";
        return s;
    };
    EXPECT_EQ(ranges({}), "");
    EXPECT_EQ(ranges({4}), "[4,5)");
    EXPECT_EQ(ranges({7, 1, 2, 3, 5, 6, 3}), "[1,4)[5,8)");
    EXPECT_EQ(ranges({0, 2, 4}), "[0,1)[2,3)[4,5)");
}

TEST(BlockSpool, BlocksComeBackAsTheyWentIn) {
    arch::BlockSpool spool;
    arch::Block first = everything(), second = block({stream(cube(0), {matmul(8, 8, 8)})}, 0, {0});
    spool.append(first);
    spool.append(second);
    ASSERT_EQ(spool.size(), 2u);
    EXPECT_EQ(spool.info(0).drain, 69999u);
    EXPECT_EQ(spool.info(0).cluster, 2);
    ASSERT_EQ(spool.info(0).deps.size(), 2u);
    EXPECT_EQ(spool.info(0).deps[1].first, 70000u);
    EXPECT_EQ(spool.info(0).deps[1].last, 70002u);
    EXPECT_EQ(spool.info(1).cluster, arch::Block::kAnyCluster);
    std::string encoded;
    arch::encode_block(first, encoded);
    arch::encode_block(second, encoded);
    EXPECT_EQ(spool.bytes(), encoded.size());
    // Out of order, and again after release.
    EXPECT_EQ(arch::format_program(holding(spool.acquire(1))), arch::format_program(holding(second)));
    EXPECT_EQ(arch::format_program(holding(spool.acquire(0))), arch::format_program(holding(first)));
    spool.release(0);
    spool.release(1);
    EXPECT_EQ(arch::format_program(holding(spool.acquire(0))), arch::format_program(holding(first)));
    // A released block's storage takes another block.
    spool.release(0);
    EXPECT_EQ(arch::format_program(holding(spool.acquire(1))), arch::format_program(holding(second)));
    spool.release(1);
    // Appending after a read: the later block is found too.
    spool.append(second);
    EXPECT_EQ(arch::format_program(holding(spool.acquire(2))), arch::format_program(holding(second)));
}

// Blocks cross the write buffer's boundary many times: those written and those pending
// are both read back whole.
TEST(BlockSpool, ManyBlocksAcrossWrites) {
    arch::BlockSpool spool;
    const arch::Block b = everything();
    std::string one;
    arch::encode_block(b, one);
    const size_t n = (size_t(4) << 20) / one.size() * 2 + 3;
    for (size_t i = 0; i < n; ++i) spool.append(b);
    EXPECT_EQ(spool.bytes(), uint64_t(n) * one.size());
    for (size_t i : {size_t(0), n / 2, n - 1}) {
        EXPECT_EQ(arch::format_program(holding(spool.acquire(i))), arch::format_program(holding(b))) << i;
        spool.release(i);
    }
}

TEST(BlockSpool, UnwritableTemporaryDirectoryIsAnError) {
    const char* old = std::getenv("TMPDIR");
    const std::string saved = old ? old : "";
    ::setenv("TMPDIR", "/nonexistent-davinci-dir", 1);
    try {
        arch::BlockSpool spool;
        ADD_FAILURE() << "a spool was made in a directory that does not exist";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(),
                     "cannot create a temporary file in /nonexistent-davinci-dir (large results are spooled there; "
                     "set TMPDIR to choose another directory): No such file or directory");
    }
    if (old) ::setenv("TMPDIR", saved.c_str(), 1);
    else ::unsetenv("TMPDIR");
}

}  // namespace

namespace {

TEST(SpoolFile, PiecesByNumberEmptyOnesToo) {
    arch::SpoolFile file;
    EXPECT_EQ(file.append("abc"), 0u);
    EXPECT_EQ(file.append(""), 1u);
    const std::string big(size_t(5) << 20, 'x');  // forces a write
    EXPECT_EQ(file.append(big), 2u);
    EXPECT_EQ(file.append("tail"), 3u);
    EXPECT_EQ(file.pieces(), 4u);
    EXPECT_EQ(file.bytes(), 3u + big.size() + 4u);
    std::string out = "stale";
    file.read(1, out);
    EXPECT_EQ(out, "");
    file.read(3, out);
    EXPECT_EQ(out, "tail");
    file.read(2, out);
    EXPECT_EQ(out, big);
    file.read(0, out);
    EXPECT_EQ(out, "abc");
}

}  // namespace
