// models/flash_attention.pto against the same attention unfused
// (tests/cli/attention_unfused.pto) at S = 2048, head_dim 128. The tiled
// form keeps each query block's scores, probabilities and running maximum,
// sum and output in L1, so it writes only its output to DDR, where the
// unfused form writes and reads back the S x S scores and probabilities;
// it is faster. It reads slightly more (each cluster reads every key and
// value block once per band of 64 query rows: 32 MB of its 42.5 MB, where
// the unfused form's 41.9 MB are mostly its scores read back): fewer
// bands, so fewer reads, need a query block larger than a cluster's L1
// holds while an on-chip tensor takes its whole size in every cluster.
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
    EXPECT_EQ(tiled["total_cycles"], 4739878);
    EXPECT_EQ(tiled["ddr_bytes_read"], 42467328);
    EXPECT_EQ(tiled["ddr_bytes_written"], 1048576);  // the output alone
    EXPECT_EQ(unfused["total_cycles"], 5099086);
    EXPECT_EQ(unfused["ddr_bytes_read"], 41943040);
    EXPECT_EQ(unfused["ddr_bytes_written"], 17301504);
    EXPECT_LT(tiled["total_cycles"], unfused["total_cycles"]);
    // Both compute the same MACs: the difference is the DDR traffic.
    EXPECT_EQ(tiled["macs"], unfused["macs"]);
}

}  // namespace
