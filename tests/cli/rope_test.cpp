// rope end to end through the CLI (default hardware, one DMA command in
// flight per engine, as vector_ops_test.cpp's derivations assume).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "vector_op_report.h"

using namespace clitest;

// rope of q (1, 8, 64, 128) float16 with (64, 128) tables: 512 rows, 4
// blocks of 128 (one per cluster), 2 chunks of 64 rows (16384 B) each.
// Per block cos and sin (16384 B each) are loaded once and the prologue
// copies sin and multiplies it by -1: 2 x (8 + 16384 / 128) = 272 cycles;
// a chunk is three 64 x 128 commands (lower_rope.cpp), 3 x 136 = 408:
// 272 + 2 x 408 = 1088 per vector unit. DDR: x once, the tables once per
// block, y once: (131072 + 4 x 32768 + 131072) / 32 = 12288 bound cycles.
TEST(Rope, ThreePassesPerChunkTablesOncePerBlock) {
    nlohmann::json r = program_report("rope",
                                      "import pypto as pypo\n"
                                      "q = pypo.input(\"q\", shape=(1, 8, 64, 128))\n"
                                      "cos = pypo.input(\"cos\", shape=(64, 128))\n"
                                      "sin = pypo.input(\"sin\", shape=(64, 128))\n"
                                      "pypo.output(\"y\", pypo.op.rope(q, cos, sin))\n");
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 131072u + 4 * 32768);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 131072u);
    EXPECT_EQ(r["ddr_bound_cycles"].get<uint64_t>(), 12288u);
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 12865u);
    for (int c = 0; c < 4; ++c)
        EXPECT_EQ(unit_busy_cycles(r, "cluster" + std::to_string(c) + ".vector0"), 272u + 2 * 408);
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["kind"], "rope");
    // Per block: 2 table loads, 2 prologue VECTORs, 2 x (load, 3 VECTORs, store).
    EXPECT_EQ(r["ops"][0]["commands"].get<uint64_t>(), 4u * (2 + 2 + 2 * 5));
}

// Tables too large to stay resident (4 x 256 x 128 float16 = 256 KB, the
// whole L1) are streamed with the chunks: 2048 rows, 4 blocks of 512, 6
// chunks of 85 or 86 rows each loading x, its cos rows and its sin rows.
// Per chunk four passes (sin * -1 into p, then the three of the resident
// form), 2 cycles per row each: 4 x 512 x 2 + 24 x 8 = 4288 per vector
// unit. DDR: x and y once, the tables once per block (512 rows each):
// 524288 + 4 x 2 x 131072 read; 65536 bound cycles, the DMA engine the
// bottleneck.
TEST(Rope, LongTablesAreStreamedWithTheChunks) {
    nlohmann::json r = program_report("rope_streamed",
                                      "import pypto as pypo\n"
                                      "q = pypo.input(\"q\", shape=(1, 8, 256, 128))\n"
                                      "cos = pypo.input(\"cos\", shape=(256, 128))\n"
                                      "sin = pypo.input(\"sin\", shape=(256, 128))\n"
                                      "pypo.output(\"y\", pypo.op.rope(q, cos, sin))\n");
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 524288u + 4 * 2 * 131072);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 524288u);
    EXPECT_EQ(r["ddr_bound_cycles"].get<uint64_t>(), 65536u);
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 67823u);
    for (int c = 0; c < 4; ++c)
        EXPECT_EQ(unit_busy_cycles(r, "cluster" + std::to_string(c) + ".vector0"), 4u * 512 * 2 + 24 * 8);
    // Per block, per chunk: 3 loads, 4 VECTORs, 1 store.
    EXPECT_EQ(r["ops"][0]["commands"].get<uint64_t>(), 4u * 6 * 8);
}

// The tables' shape is checked against x's last two axes, at the operand.
TEST(Rope, TableOfTheWrongShapeIsAnError) {
    std::string pto = write_file("rope_bad.pto",
                                 "import pypto as pypo\n"
                                 "q = pypo.input(\"q\", shape=(2, 4, 8))\n"
                                 "c = pypo.input(\"c\", shape=(4, 8))\n"
                                 "s = pypo.input(\"s\", shape=(4, 4))\n"
                                 "y = pypo.op.rope(q, c, s)\n");
    Outcome o = run("'" + pto + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_NE(o.err.find("rope_bad.pto:5:24: error: rope: sin must have shape (4, 8), the last two axes of x: s is "
                         "(4, 4) float16, q is (2, 4, 8) float16"),
              std::string::npos)
        << o.err;
}
