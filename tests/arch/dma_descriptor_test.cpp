// The DMA descriptors (sim/arch/program.h): im2col on a cube's L1 -> L0
// load, transpose and pixel_shuffle on a cluster DMA. Their listing, exact
// JSON round trip, and every check_program rule with its exact message.
#include <gtest/gtest.h>

#include "sim/arch/config.h"
#include "sim/arch/program_check.h"
#include "sim/arch/program_json.h"
#include "tests/support/json_parse.h"
#include "tests/support/program_builders.h"

namespace {

using namespace testprog;
using nlohmann::json;

// A 3x3/s1/p1 im2col tile: 32 pixels x 36 patch elements (72 B) from a
// 4 x 8 x 8 float16 slab (512 B) at L1 0.
arch::Command im2col_load() {
    arch::Command c = to_l0(72);
    c.dma.rows = 32;
    c.dma.src_stride = 0;
    c.dma.dst_stride = 72;
    arch::Im2col i;
    i.channels = 4, i.height = 8, i.width = 8, i.kh = 3, i.kw = 3, i.pad_h = 1, i.pad_w = 1, i.out_w = 8;
    i.pixel0 = 32, i.k0 = 0, i.element_bytes = 2;
    c.dma.im2col = i;
    return c;
}

// Stores a 32 x 64 float16 tile transposed: 64 rows of 64 bytes, 128 apart.
arch::Command transpose_store() {
    arch::Command c = dma(Space::L1, Space::DDR, 128);
    c.dma.rows = 32;
    c.dma.dst_stride = 128;
    c.dma.rearrange = arch::Rearrange{arch::Rearrange::Kind::Transpose, 2, 0};
    return c;
}

arch::Command shuffle_store() {
    arch::Command c = dma(Space::L1, Space::DDR, 16);
    c.dma.rows = 8;
    c.dma.rearrange = arch::Rearrange{arch::Rearrange::Kind::PixelShuffle, 2, 2};
    return c;
}

arch::Program with(EngineId engine, arch::Command c) { return program({block({stream(engine, {std::move(c)})})}); }

std::string check_error(const arch::Program& p, const arch::Config& c = arch::default_config()) {
    try {
        arch::check_program(p, c);
    } catch (const arch::ProgramError& e) {
        return e.what();
    }
    return "<valid>";
}

TEST(DmaDescriptors, Listing) {
    arch::Program p = program({});
    EXPECT_EQ(arch::format_command(p, im2col_load()),
              "DMA    L1:0x0 -> L0:0x0  32x72B stride 0/72 im2col 3x3/s1/p1 of 4x8x8 ow 8 at pixel 32, k 0 2B");
    arch::Command i = im2col_load();
    i.dma.im2col->stride_w = 2, i.dma.im2col->pad_h = 0;
    EXPECT_NE(arch::format_command(p, i).find("im2col 3x3/s1,2/p0,1 of"), std::string::npos);
    EXPECT_EQ(arch::format_command(p, transpose_store()),
              "DMA    L1:0x0 -> DDR:0x0  32x128B stride 128/128 transpose 2B");
    EXPECT_EQ(arch::format_command(p, shuffle_store()),
              "DMA    L1:0x0 -> DDR:0x0  8x16B stride 16/16 pixel_shuffle x2 2B");
}

TEST(DmaDescriptors, JsonRoundTripIsExact) {
    arch::Program p = program(
        {block({stream(cube_dma(0), {im2col_load()}), stream(dma_engine(0), {transpose_store(), shuffle_store()})})});
    json j = arch::program_to_json(p);
    EXPECT_EQ(j["blocks"][0]["streams"][0]["commands"][0]["im2col"].dump(),
              R"({"channels":4,"element_bytes":2,"height":8,"k0":0,"kh":3,"kw":3,"out_w":8,"pad_h":1,"pad_w":1,)"
              R"("pixel0":32,"stride_h":1,"stride_w":1,"width":8})");
    EXPECT_EQ(j["blocks"][0]["streams"][1]["commands"][1]["rearrange"].dump(),
              R"({"element_bytes":2,"factor":2,"kind":"pixel_shuffle"})");
    EXPECT_FALSE(j["blocks"][0]["streams"][1]["commands"][0].contains("im2col"));
    arch::Program back = arch::program_from_json(testjson::parse(j.dump()), "x.json");
    EXPECT_EQ(arch::program_to_json(back), j);
    EXPECT_EQ(arch::format_program(back), arch::format_program(p));
    EXPECT_EQ(back.blocks[0].streams[0].commands[0].dma.im2col->pixel0, 32u);
    EXPECT_EQ(back.blocks[0].streams[1].commands[0].dma.rearrange->kind, arch::Rearrange::Kind::Transpose);
    EXPECT_EQ(check_error(back), "<valid>");
}

TEST(DmaDescriptors, JsonErrors) {
    auto error = [](const std::string& command) {
        try {
            arch::program_from_json(
                testjson::parse(R"({"blocks": [{"streams": [{"engine": "dma0", "commands": [)" + command + "]}]}]}"),
                "p.json");
        } catch (const arch::ProgramError& e) {
            return std::string(e.what());
        }
        return std::string("<no error>");
    };
    EXPECT_EQ(error(R"({"op": "dma", "im2col": {"kh": 3, "dilation": 2}})"),
              "p.json: blocks[0].streams[0].commands[0].im2col.dilation: unknown key for im2col");
    EXPECT_EQ(error(R"({"op": "dma", "rearrange": {"element_bytes": 2}})"),
              "p.json: blocks[0].streams[0].commands[0].rearrange: missing key \"kind\" (\"transpose\" or "
              "\"pixel_shuffle\")");
    EXPECT_EQ(error(R"({"op": "dma", "rearrange": {"kind": "rotate"}})"),
              "p.json: blocks[0].streams[0].commands[0].rearrange.kind: unknown value \"rotate\" (expected one of: "
              "transpose, pixel_shuffle)");
}

TEST(DmaDescriptors, Im2colChecks) {
    const std::string where = "invalid program: block 0, cube0.dma command 0: ";
    EXPECT_EQ(check_error(with(cube_dma(0), im2col_load())), "<valid>");
    arch::Command c = im2col_load();
    c.dma.src = Space::L0, c.dma.dst = Space::L1;
    EXPECT_EQ(check_error(with(cube_dma(0), c)),
              where + "im2col addressing is only done by a cube DMA engine loading L1 -> L0");
    c = im2col_load();
    c.dma.src = Space::DDR, c.dma.dst = Space::L1;
    EXPECT_EQ(check_error(with(dma_engine(0), c)),
              "invalid program: block 0, dma0 command 0: im2col addressing is only done by a cube DMA engine loading "
              "L1 -> L0");
    c = im2col_load();
    c.dma.im2col->kh = 0;
    EXPECT_EQ(check_error(with(cube_dma(0), c)),
              where + "im2col needs positive channels, height, width, kernel, stride, dilation and out_w");
    c = im2col_load();
    c.dma.im2col->element_bytes = 3;
    EXPECT_EQ(check_error(with(cube_dma(0), c)), where + "im2col element_bytes must be 2 or 4, got 3");
    c = im2col_load();
    c.dma.src_stride = 72;
    EXPECT_EQ(check_error(with(cube_dma(0), c)),
              where + "im2col reads its slab by the descriptor: src_stride must be 0");
    c = im2col_load();
    c.dma.im2col->k0 = 1;  // 1 + 36 columns > 4 * 9
    EXPECT_EQ(check_error(with(cube_dma(0), c)),
              where + "im2col columns 1..37 exceed the 36 patch elements of the slab");
    c = im2col_load();
    // Windows start in rows -1..7 of the padded slab: 9 output rows x 8 = 72 pixels.
    c.dma.im2col->pixel0 = 41;
    EXPECT_EQ(check_error(with(cube_dma(0), c)),
              where + "im2col pixels 41..73 exceed the 72 output pixels of the slab");
    c = im2col_load();
    c.dma.im2col->out_w = 10;  // window 9 starts at column 8, right of the 8 columns
    EXPECT_EQ(check_error(with(cube_dma(0), c)), where + "im2col out_w 10 has windows starting right of the slab");
    c = im2col_load();
    c.dma.src_addr = 256 * 1024 - 511;  // the 512-byte slab ends one byte beyond L1
    EXPECT_EQ(check_error(with(cube_dma(0), c)),
              where + "im2col slab region ends at byte 262145, beyond L1 capacity 262144");
}

TEST(DmaDescriptors, RearrangeChecks) {
    const std::string where = "invalid program: block 0, dma0 command 0: ";
    EXPECT_EQ(check_error(with(dma_engine(0), transpose_store())), "<valid>");
    EXPECT_EQ(check_error(with(dma_engine(0), shuffle_store())), "<valid>");
    arch::Command c = transpose_store();
    c.dma.src = Space::L1, c.dma.dst = Space::L0;
    EXPECT_EQ(check_error(with(cube_dma(0), c)),
              "invalid program: block 0, cube0.dma command 0: only a cluster DMA engine can transpose in flight");
    c = transpose_store();
    c.dma.dst_stride = 32;  // each destination row holds 32 elements = 64 bytes
    EXPECT_EQ(check_error(with(dma_engine(0), c)),
              where + "transpose destination stride smaller than its row of 64 bytes");
    c = transpose_store();
    c.dma.row_bytes = 127;
    c.dma.src_stride = 127;
    EXPECT_EQ(check_error(with(dma_engine(0), c)), where + "transpose row of 127 bytes is not whole elements");
    c = transpose_store();
    c.dma.dst_addr = (uint64_t{8} << 30) - (63 * 128 + 64) + 1;  // 64 rows of 64 B: the last ends 1 byte beyond DDR
    EXPECT_EQ(check_error(with(dma_engine(0), c)),
              where + "destination region ends at byte 8589934593, beyond DDR capacity 8589934592");
    c = shuffle_store();
    c.dma.rows = 7;
    EXPECT_EQ(check_error(with(dma_engine(0), c)), where + "pixel_shuffle x2 does not divide 7x16B into whole planes");
    c = shuffle_store();
    c.dma.rearrange->factor = 0;
    EXPECT_EQ(check_error(with(dma_engine(0), c)), where + "pixel_shuffle needs a factor");
    c = shuffle_store();
    c.dma.convert_f32_to_f16 = true;
    EXPECT_EQ(check_error(with(dma_engine(0), c)), where + "pixel_shuffle cannot be combined with another conversion");
}

}  // namespace
