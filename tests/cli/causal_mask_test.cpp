// causal_mask end to end through the CLI (default hardware, one DMA command
// in flight per engine, as vector_ops_test.cpp's derivations assume).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "vector_op_report.h"

using namespace clitest;

namespace {

std::string mask_program(const std::string& offset) {
    return "import pypto as pypo\n"
           "s = pypo.input(\"s\", shape=(1, 4, 64, 64))\n"
           "pypo.output(\"y\", pypo.op.causal_mask(s" +
           offset + "))\n";
}

}  // namespace

// causal_mask of (1, 4, 64, 64) float16 scores: 256 rows, 4 blocks of one
// head's 64 rows (one per cluster), one chunk each. Per block a copy of
// the chunk, 8 + 8192 / 128 = 72 cycles, and a fill of -inf per row i < 63
// (63 - i elements, at most 126 B: 8 + 1 = 9 cycles each), 63 x 9 = 567:
// 639 per vector unit. DDR: the scores once and y once, nothing for the
// mask: 65536 / 32 = 2048 bound cycles.
TEST(CausalMask, OneCopyAndOneFillPerMaskedRow) {
    nlohmann::json r = program_report("causal_mask", mask_program(""));
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 32768u);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 32768u);
    EXPECT_EQ(r["ddr_bound_cycles"].get<uint64_t>(), 2048u);
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 2886u);
    for (int c = 0; c < 4; ++c) EXPECT_EQ(unit_busy_cycles(r, "cluster" + std::to_string(c) + ".vector0"), 72u + 567);
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["kind"], "causal_mask");
    // Per block: the load, the copy, 63 fills, the store.
    EXPECT_EQ(r["ops"][0]["commands"].get<uint64_t>(), 4u * (1 + 1 + 63 + 1));
}

// The offset moves the diagonal: offset=62 leaves only row 0's last column
// masked (one fill, 9 cycles), offset=-64 masks every row whole (64 fills
// of 64 elements, 8 + 1 = 9 cycles each: the same time as 64 short
// fills), and offset=63 masks nothing (no fill: the copy alone).
TEST(CausalMask, OffsetMovesTheDiagonal) {
    struct Case {
        const char* offset;
        uint64_t vector_busy, commands;
    };
    for (const Case& c :
         {Case{", offset=62", 72 + 9, 4}, Case{", offset=-64", 72 + 64 * 9, 67}, Case{", offset=63", 72, 3}}) {
        nlohmann::json r = program_report("causal_mask_offset", mask_program(c.offset));
        EXPECT_EQ(unit_busy_cycles(r, "cluster0.vector0"), c.vector_busy) << c.offset;
        EXPECT_EQ(r["ops"][0]["commands"].get<uint64_t>(), 4 * c.commands) << c.offset;
    }
}

// The diagnostics of its two arguments.
TEST(CausalMask, Errors) {
    struct Case {
        const char* call;
        const char* message;
    };
    for (const Case& c :
         {Case{"pypo.op.causal_mask(v)",
               "bad.pto:4:25: error: causal_mask: scores must have at least 2 axes (..., Sq, Sk): v is (8,) float16"},
          Case{"pypo.op.causal_mask(x, offset=1.5)",
               "bad.pto:4:35: error: causal_mask: offset must be an integer, got float"},
          Case{"pypo.op.causal_mask(x, 2)",
               "bad.pto:4:28: error: causal_mask: takes 1 positional argument but 2 were given"}}) {
        std::string pto = write_file("bad.pto", std::string("import pypto as pypo\n"
                                                            "x = pypo.input(\"x\", shape=(8, 8))\n"
                                                            "v = pypo.input(\"v\", shape=(8,))\n"
                                                            "y = ") +
                                                    c.call + "\n");
        Outcome o = run("'" + pto + "'");
        EXPECT_EQ(o.status, 2);
        EXPECT_NE(o.err.find(c.message), std::string::npos) << o.err;
    }
}
