// The KV-cache append of a decode step (issue 18): in place,
// models/kv_append.pto moves one token's key (8 KiB into L1, 8 KiB into the
// cache); as a concat (tests/cli/kv_append_concat.pto, the issue's
// ../shared/repro/kv_append.pto) it copies the whole 16 MiB cache first.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

struct Figures {
    nlohmann::json report;
    std::vector<std::string> update;  // the update's (or concat's) row of --ops-csv
};

Figures run_kv(const std::string& program, const std::string& kind, const std::string& extra = "") {
    const std::string name = std::filesystem::path(program).stem().string();
    const std::string json = (scratch() / (name + ".json")).string(), csv = (scratch() / (name + ".csv")).string();
    Outcome o = run("-q " + extra + " --report-json '" + json + "' --ops-csv '" + csv + "' " + program);
    EXPECT_EQ(o.status, 0) << o.err;
    Figures f;
    f.report = testjson::parse(slurp(json));
    std::istringstream lines(slurp(csv));
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> cells;
        std::istringstream row(line);
        for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
        if (cells.size() > 1 && cells[1] == kind) f.update = cells;
    }
    return f;
}

// Columns of --ops-csv: op,kind,task,start,end,cycles,... ddr_bytes_read (15), ddr_bytes_written (16).
constexpr size_t kCycles = 5, kDdrRead = 15, kDdrWritten = 16;

TEST(KvAppend, InPlaceUpdateMovesOneTokensKey) {
    const Figures f = run_kv("models/kv_append.pto", "update");
    ASSERT_GT(f.update.size(), kDdrWritten);
    // k, 32 heads x 128 x float16: read once, written once into its column.
    EXPECT_EQ(f.update[0], "k_cache.updated");
    EXPECT_EQ(f.update[kDdrRead], "8192");
    EXPECT_EQ(f.update[kDdrWritten], "8192");
    // Two DMAs of 256 cycles each at 32 B/cycle on one engine, with their latencies.
    EXPECT_EQ(f.update[kCycles], "613");
    EXPECT_EQ(f.report["total_cycles"], 534586);
    // The cache once (by the scores matmul), q and k; the scores and k's column.
    EXPECT_EQ(f.report["ddr_bytes_read"], 32 * 128 * 2048 * 2 + 8192 + 8192);
    EXPECT_EQ(f.report["ddr_bytes_written"], 32 * 2048 * 2 + 8192);
    EXPECT_EQ(f.report["notes"][0],
              "input 'k_cache' is updated in place (last at 19:1): output 'k_cache.updated' is its new contents, "
              "written back into the input's bytes");
}

TEST(KvAppend, ConcatCopiesTheWholeCache) {
    const Figures f = run_kv("tests/cli/kv_append_concat.pto", "concat");
    ASSERT_GT(f.update.size(), kDdrWritten);
    EXPECT_EQ(f.update[kDdrRead], std::to_string(32 * 128 * 2048 * 2));
    EXPECT_EQ(f.update[kDdrWritten], std::to_string(32 * 128 * 2048 * 2));
    EXPECT_EQ(f.update[kCycles], "1048677");
    EXPECT_EQ(f.report["total_cycles"], 1582650);
}

// The new cache (--outputs) and the scores agree with the reference.
TEST(KvAppend, FunctionalCheckWritesTheUpdatedCache) {
    const std::string dir = (scratch() / "kv_outputs").string();
    Outcome o = run("-q --check --param pos=7 --outputs '" + dir + "' models/kv_append.pto");
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_NE(o.out.find("outputs written to " + dir + ": k_cache.updated.npy scores.npy"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("k_cache.updated (32, 128, 2048)"), std::string::npos) << o.out;
    EXPECT_EQ(o.out.find("FAIL"), std::string::npos) << o.out;
}

}  // namespace
