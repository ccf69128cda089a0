// embedding (a gather on the DMA engines) and argmax (one VECTOR command
// per chunk) end to end through the CLI, on the default hardware with one
// DMA command in flight per engine (vector_op_report.h).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "vector_op_report.h"

using namespace clitest;

namespace {

std::string embedding_program(int64_t rows) {
    return "import pypto as pypo\n"
           "t = pypo.weight(\"t\", shape=(" +
           std::to_string(rows) +
           ", 512), dtype=\"float16\")\n"
           "i = pypo.input(\"i\", shape=(2, 8), dtype=\"int32\")\n"
           "pypo.output(\"y\", pypo.op.embedding(t, i))\n";
}

}  // namespace

// 16 ids over the 4 clusters: 4 per block in two chunks of 2, each an ids
// load (8 B), a gather of 2 rows of 1 KiB and a store of them. DDR moves
// the ids once and the chosen rows twice (read, written), never the
// table: a 100-times larger table costs the same bytes and cycles. No
// vector unit or cube works.
TEST(Embedding, MovesTheChosenRowsNotTheTable) {
    nlohmann::json small = program_report("embedding_small", embedding_program(1000));
    nlohmann::json large = program_report("embedding_large", embedding_program(100000));
    for (const nlohmann::json* r : {&small, &large}) {
        EXPECT_EQ((*r)["ddr_bytes_read"].get<uint64_t>(), 16u * 4 + 16u * 1024);
        EXPECT_EQ((*r)["ddr_bytes_written"].get<uint64_t>(), 16u * 1024);
        ASSERT_EQ((*r)["ops"].size(), 1u);
        EXPECT_EQ((*r)["ops"][0]["kind"], "embedding");
        EXPECT_EQ((*r)["ops"][0]["commands"].get<uint64_t>(), 4u * 2 * 3);
        EXPECT_EQ(unit_busy_cycles(*r, "cluster0.vector0"), 0u);
    }
    EXPECT_EQ(small["total_cycles"], large["total_cycles"]);
}

// An id outside the table is the program's data at fault: exit status 2
// and the gather's command, not an internal error.
TEST(Embedding, IdOutsideTheTableIsTheUsersError) {
    std::string pto = write_file("embedding_bad.pto", embedding_program(1000));
    // (2, 8) int32: 0..14, then 1000 (one past the table's last row).
    std::string npy = (scratch() / "embedding_bad_ids.npy").string();
    {
        std::string header = "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 8), }";
        header.append(size_t(128 - 10 - header.size() - 1), ' ');
        header += '\n';
        std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
        bytes += char(header.size() & 0xff), bytes += char(header.size() >> 8);
        bytes += header;
        for (int32_t v = 0; v < 16; ++v) {
            const int32_t id = v == 15 ? 1000 : v;
            bytes.append(reinterpret_cast<const char*>(&id), 4);
        }
        write_file("embedding_bad_ids.npy", bytes);
    }
    Outcome o = run("-q --functional --input i='" + npy + "' '" + pto + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_NE(o.err.find("davinci-sim: error: the functional simulation met bad data: block 3 y[12:16], dma0 command "),
              std::string::npos)
        << o.err;
    EXPECT_NE(o.err.find("gather: id 1000 (row 1) is outside the table's 1000 rows"), std::string::npos) << o.err;
}

// argmax of (64, 1000) float16 logits: 16 rows per cluster in one chunk,
// one VECTOR argmax of 16 x 1000: 8 (pipeline) + 32000 / 128 (data) + 16
// rows x log2(64 lanes) = 6 (the tree) = 354 cycles, as reduce_max's.
// DDR: the logits once, 4 bytes per row back.
TEST(Argmax, ReducesEachRowToAnInt32Index) {
    nlohmann::json r = program_report("argmax",
                                      "import pypto as pypo\n"
                                      "l = pypo.input(\"l\", shape=(64, 1000), dtype=\"float16\")\n"
                                      "pypo.output(\"tok\", pypo.op.argmax(l))\n");
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 64u * 1000 * 2);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 64u * 4);
    for (int c = 0; c < 4; ++c) EXPECT_EQ(unit_busy_cycles(r, "cluster" + std::to_string(c) + ".vector0"), 354u);
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["kind"], "argmax");
    EXPECT_EQ(r["ops"][0]["commands"].get<uint64_t>(), 4u * 3);
}
