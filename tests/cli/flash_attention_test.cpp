// models/flash_attention.pto against the same attention unfused
// (tests/cli/attention_unfused.pto) at S = 2048, head_dim 128: the tiled
// form reads fewer DDR bytes and is faster, as issue 18 asks. It keeps each
// 512-query block's scores, probabilities and running maximum, sum and
// output in L1, in bands of 128 rows, one per cluster (they do not fit
// whole), so it writes only its output to DDR and reads q and each key and
// value block once per band: 25.7 MB read and 1 MB written, where the
// unfused form writes its S x S scores and probabilities and reads them
// back (41.9 MB read, 17.3 MB written).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"

using namespace clitest;

namespace {

nlohmann::json report(const std::string& program) {
    const std::string json = (scratch() / (std::filesystem::path(program).stem().string() + ".json")).string();
    Outcome o =
        run("-q --shape q=2048,128 --shape kt=128,2048 --shape v=2048,128 --report-json '" + json + "' " + program);
    EXPECT_EQ(o.status, 0) << o.err;
    return nlohmann::json::parse(slurp(json));
}

TEST(FlashAttention, TiledAndUnfusedFiguresAtS2048) {
    const nlohmann::json tiled = report("models/flash_attention.pto");
    const nlohmann::json unfused = report("tests/cli/attention_unfused.pto");
    EXPECT_EQ(tiled["total_cycles"], 4640678);
    EXPECT_EQ(tiled["ddr_bytes_read"], 25690112);
    EXPECT_EQ(tiled["ddr_bytes_written"], 1048576);  // the output alone
    EXPECT_EQ(unfused["total_cycles"], 5099086);
    EXPECT_EQ(unfused["ddr_bytes_read"], 41943040);
    EXPECT_EQ(unfused["ddr_bytes_written"], 17301504);
    EXPECT_LT(tiled["total_cycles"], unfused["total_cycles"]);
    EXPECT_LT(tiled["ddr_bytes_read"], unfused["ddr_bytes_read"]);
    // Both compute the same MACs: the difference is the DDR traffic.
    EXPECT_EQ(tiled["macs"], unfused["macs"]);
}

}  // namespace
