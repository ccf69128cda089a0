// where end to end through the CLI (default hardware, one DMA command in
// flight per engine, as vector_ops_test.cpp's derivations assume).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"
#include "vector_op_report.h"

using namespace clitest;

namespace {

nlohmann::json report(const std::string& name, const std::string& cond_shape) {
    std::string pto = write_file(name + ".pto",
                                 "import pypto as pypo\n"
                                 "c = pypo.input(\"c\", shape=" +
                                     cond_shape +
                                     ")\n"
                                     "x = pypo.input(\"x\", shape=(1, 4, 64, 64))\n"
                                     "y = pypo.input(\"y\", shape=(1, 4, 64, 64))\n"
                                     "pypo.output(\"z\", pypo.op.where(c, x, y))\n");
    std::string json = (scratch() / (name + ".json")).string();
    Outcome o = run("-q --set dma.max_outstanding=1 --report-json '" + json + "' '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

}  // namespace

// where of three (1, 4, 64, 64) float16 tensors: 4 blocks of 64 rows (one
// per cluster), one chunk each: three loads, one select of 64 x 64, 8 +
// 8192 / 128 = 72 cycles (one pass, its three sources side by side), one
// store. DDR: c, x and y once and z once, 131072 B: 4096 bound cycles.
TEST(Where, OneSelectPerChunk) {
    nlohmann::json r = report("where", "(1, 4, 64, 64)");
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 3u * 32768);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 32768u);
    EXPECT_EQ(r["ddr_bound_cycles"].get<uint64_t>(), 4096u);
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 4557u);
    for (int c = 0; c < 4; ++c) EXPECT_EQ(unit_busy_cycles(r, "cluster" + std::to_string(c) + ".vector0"), 72u);
    ASSERT_EQ(r["ops"].size(), 1u);
    EXPECT_EQ(r["ops"][0]["kind"], "where");
    EXPECT_EQ(r["ops"][0]["commands"].get<uint64_t>(), 4u * (3 + 1 + 1));
}

// A (64, 1) condition, one value per row broadcast over the heads and the
// columns: resident, 128 B loaded once per block (4 x 128 = 512 B, not a
// fourth 32768), read through a strided view by the same 72-cycle select.
TEST(Where, BroadcastConditionIsLoadedOncePerBlock) {
    nlohmann::json r = report("where_rows", "(64, 1)");
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 2u * 32768 + 4 * 128);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 32768u);
    EXPECT_EQ(r["ddr_bound_cycles"].get<uint64_t>(), 3088u);  // 98816 / 32
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 3549u);
    for (int c = 0; c < 4; ++c) EXPECT_EQ(unit_busy_cycles(r, "cluster" + std::to_string(c) + ".vector0"), 72u);
}
