// The SystemC model's L2 cache (docs/timing-model.md §6.1) on the cases
// worked out by hand in tests/support/l2_cases.h, which the oracle is
// checked on in tests/oracle/oracle_l2_test.cpp. One simulation per test.
#include <nlohmann/json.hpp>

#include "hw_test_util.h"
#include "tests/support/l2_cases.h"

using namespace hwtest;
using namespace l2cases;

namespace {

arch::Config with_l2(int ways, int outstanding = 1) {
    return arch::config_from_json(nlohmann::json::parse(l2_config(ways, outstanding)), "test");
}

const arch::EngineId kDma = dma_engine(0);

TEST(L2, AGatherIsTimedAsMissesWithoutALookup) {
    SimRun r = simulate(with_l2(2), gather_after_a_load());
    EXPECT_EQ(r.at(0, kDma, 1).start, 105u);
    EXPECT_EQ(r.at(0, kDma, 1).end, 209u);
    ASSERT_TRUE(r.stats.l2);
    EXPECT_EQ(r.stats.l2->read_misses, 1u);
    EXPECT_EQ(r.stats.l2->read_hits, 0u);
    EXPECT_EQ(r.stats.ddr_bytes_read, 128u);
}

TEST(L2, AGatherWithoutAnL2IsAPlainRead) {
    SimRun r = simulate(arch::config_from_json(nlohmann::json::parse(R"({"dma": {"max_outstanding": 1}})"), "test"),
                        gather_after_a_load());
    EXPECT_EQ(r.at(0, kDma, 1).start, 104u);
    EXPECT_EQ(r.at(0, kDma, 1).end, 207u);
    EXPECT_EQ(r.stats.ddr_bytes_read, 128u);
}

TEST(L2, MissThenHit) {
    SimRun r = simulate(with_l2(2), miss_then_hit());
    EXPECT_EQ(r.at(0, kDma, 0).start, 1u);
    EXPECT_EQ(r.at(0, kDma, 0).end, 105u);
    EXPECT_EQ(r.at(0, kDma, 1).start, 105u);
    EXPECT_EQ(r.at(0, kDma, 1).end, 110u);
    ASSERT_TRUE(r.stats.l2);
    EXPECT_EQ(r.stats.l2->read_misses, 1u);
    EXPECT_EQ(r.stats.l2->read_hits, 1u);
    EXPECT_EQ(r.stats.ddr_bytes_read, 64u);
    EXPECT_EQ(r.stats.ddr_bytes_written, 0u);
}

TEST(L2, AHitWaitsForTheFillOnItsWay) {
    SimRun r = simulate(with_l2(2, 2), hit_under_miss());
    EXPECT_EQ(r.at(0, kDma, 1).start, 2u);
    EXPECT_EQ(r.at(0, kDma, 1).end, 105u);
    EXPECT_EQ(r.stats.total_cycles, 105u);
}

TEST(L2, ADirtyLineIsWrittenBackBeforeItsSuccessorFills) {
    SimRun r = simulate(with_l2(1), dirty_eviction());
    EXPECT_EQ(r.at(0, kDma, 0).end, 6u);
    EXPECT_EQ(r.at(0, kDma, 1).start, 6u);
    EXPECT_EQ(r.at(0, kDma, 1).end, 112u);
    EXPECT_EQ(r.stats.l2->writebacks, 1u);
    EXPECT_EQ(r.stats.l2->flush_bytes, 0u);
    EXPECT_EQ(r.stats.ddr_bytes_read, 64u);
    EXPECT_EQ(r.stats.ddr_bytes_written, 64u);
    // The link figures: the port carried 64 bytes each way, DDR one fill
    // and one write-back, in 2 + 2 cycles.
    ASSERT_EQ(r.stats.links[0].name, "l2");
    EXPECT_EQ(r.stats.links[0].bytes_read, 64u);
    EXPECT_EQ(r.stats.links[0].bytes_written, 64u);
    ASSERT_EQ(r.stats.links[1].name, "ddr");
    EXPECT_EQ(r.stats.links[1].bytes_read, 64u);
    EXPECT_EQ(r.stats.links[1].bytes_written, 64u);
    EXPECT_EQ(r.stats.links[1].busy_cycles, 4u);
}

TEST(L2, DirtyLinesLeftAreTheFlush) {
    SimRun r = simulate(with_l2(2), flush_at_the_end());
    EXPECT_EQ(r.stats.total_cycles, 6u);
    EXPECT_EQ(r.stats.l2->flush_bytes, 64u);
    EXPECT_EQ(r.stats.ddr_bytes_written, 64u);  // the flush
    EXPECT_EQ(r.stats.links[1].busy_cycles, 0u);
}

TEST(L2, LeastRecentlyUsedIsReplaced) {
    SimRun r = simulate(with_l2(2), lru_order());
    EXPECT_EQ(r.stats.l2->read_hits, 1u);
    EXPECT_EQ(r.stats.l2->read_misses, 4u);
}

TEST(L2, ABurstLooksUpEveryLineItTouches) {
    SimRun r = simulate(with_l2(2), bursts_across_lines());
    EXPECT_EQ(r.at(0, kDma, 0).end, 109u);
    EXPECT_EQ(r.stats.l2->read_misses, 3u);
    EXPECT_EQ(r.stats.l2->read_hits, 1u);
}

}  // namespace
