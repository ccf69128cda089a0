// Row reductions reading an on-chip tensor where it is (docs/language.md
// §3.8): a matmul's (96, 48) float16 result kept in L1 and summed over its
// rows. The matmul's own traffic is the same either way (its tiling is
// fixed by tile=); kept on chip, its result is neither stored nor read
// back: 96 x 48 x 2 = 9,216 bytes fewer each way.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

std::string program(const std::string& tile, const std::string& target) {
    return "import pypto as pypo\n"
           "a = pypo.input(\"a\", shape=(96, 64))\n"
           "b = pypo.input(\"b\", shape=(64, 48))\n"
           "s = pypo.op.matmul(a, b, tile=" +
           tile + target +
           ")\n"
           "pypo.output(\"y\", pypo.op.reduce_sum(s, axis=-1))\n";
}

Outcome run_program(const std::string& name, const std::string& text, const std::string& json) {
    const std::string pto = write_file(name + ".pto", text);
    return run("--report-json '" + json + "' '" + pto + "'");
}

}  // namespace

TEST(OnChipReduce, ReadsTheRowsWhereTheyAre) {
    const std::string on = (scratch() / "on_chip_reduce.json").string(), off = (scratch() / "ddr_reduce.json").string();
    ASSERT_EQ(run_program("on_chip_reduce", program("(16, 48)", ", target='L1'"), on).status, 0);
    ASSERT_EQ(run_program("ddr_reduce", program("(16, 48)", ""), off).status, 0);
    const nlohmann::json r = testjson::parse(slurp(on)), d = testjson::parse(slurp(off));
    EXPECT_EQ(d["ddr_bytes_read"].get<uint64_t>() - r["ddr_bytes_read"].get<uint64_t>(), 9216u);
    EXPECT_EQ(d["ddr_bytes_written"].get<uint64_t>() - r["ddr_bytes_written"].get<uint64_t>(), 9216u);
    EXPECT_EQ(r["ddr_bytes_written"], 96 * 2);  // the sums alone
    EXPECT_EQ(r["total_cycles"], 3795);
    EXPECT_EQ(d["total_cycles"], 4508);
}

// Tiles of 16 columns leave each cluster column parts of the result: a row
// reduction cannot follow them, so the result is kept in DDR and the
// report says why. A row reduction asked to keep its own result on chip
// keeps it (tests/functional/on_chip_reduce.pto's max_kept): no note.
TEST(OnChipReduce, NotesWhatItCannotFollow) {
    const std::string json = (scratch() / "column_parts.json").string();
    Outcome o = run_program("column_parts", program("(96, 16)", ", target='L1'"), json);
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("  tensor 'matmul_1' (L1) kept in DDR: reduce_sum 'y' reduces its rows, and its producer's "
                         "blocks wrote parts that are not whole rows\n"),
              std::string::npos)
        << o.out;
    o = run("tests/functional/on_chip_reduce.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out.find("kept in DDR"), std::string::npos) << o.out;
}
