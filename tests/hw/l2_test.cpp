// The SystemC model's L2 cache (docs/timing-model.md §6.1) on the cases
// worked out by hand in tests/support/l2_cases.h, which the oracle is
// checked on in tests/oracle/oracle_l2_test.cpp. One simulation per test.
#include <nlohmann/json.hpp>

#include "hw_test_util.h"
#include "tests/support/json_parse.h"
#include "tests/support/l2_cases.h"

using namespace hwtest;
using namespace l2cases;

namespace {

arch::Config with_l2(int ways, int outstanding = 1) {
    return arch::config_from_json(testjson::parse(l2_config(ways, outstanding)), "test");
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
    SimRun r = simulate(arch::config_from_json(testjson::parse(R"({"dma": {"max_outstanding": 1}})"), "test"),
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

arch::Config two_ports(int write_bytes_per_cycle) {
    return arch::config_from_json(testjson::parse(two_port_config(write_bytes_per_cycle)), "test");
}

TEST(L2, ReadsAndWritesShareOnePort) {
    SimRun r = simulate(two_ports(0), load_beside_store());
    EXPECT_EQ(r.at(0, kDma, 0).end, 110u);
    EXPECT_EQ(r.at(0, dma_engine(1), 0).end, 13u);
    // One port, busy in cycles 2 to 9; DDR for the 4 fills.
    ASSERT_EQ(r.stats.links[0].name, "l2");
    EXPECT_EQ(r.stats.links[0].kind, "l2_l1");
    EXPECT_EQ(r.stats.links[0].bytes_read, 256u);
    EXPECT_EQ(r.stats.links[0].bytes_written, 256u);
    EXPECT_EQ(r.stats.links[0].busy_cycles, 8u);
    ASSERT_EQ(r.stats.links[1].name, "ddr");
    EXPECT_EQ(r.stats.links[1].busy_cycles, 4u);
}

TEST(L2, AWritePortOfItsOwn) {
    SimRun r = simulate(two_ports(64), load_beside_store());
    EXPECT_EQ(r.at(0, kDma, 0).end, 107u);
    EXPECT_EQ(r.at(0, dma_engine(1), 0).end, 9u);
    EXPECT_EQ(r.stats.total_cycles, 107u);
    // Each port one way, busy in cycles 2 to 5.
    ASSERT_EQ(r.stats.links.size(), 3u + 4u + 16u);  // l2.read, l2.write, ddr; 4 clusters' L1s, 16 cubes' L0s
    EXPECT_EQ(r.stats.links[0].name, "l2.read");
    EXPECT_EQ(r.stats.links[0].kind, "l2_l1_read");
    EXPECT_EQ(r.stats.links[0].peak_bytes_per_cycle, 64u);
    EXPECT_EQ(r.stats.links[0].bytes_read, 256u);
    EXPECT_EQ(r.stats.links[0].bytes_written, 0u);
    EXPECT_EQ(r.stats.links[0].busy_cycles, 4u);
    EXPECT_EQ(r.stats.links[1].name, "l2.write");
    EXPECT_EQ(r.stats.links[1].kind, "l2_l1_write");
    EXPECT_EQ(r.stats.links[1].bytes_read, 0u);
    EXPECT_EQ(r.stats.links[1].bytes_written, 256u);
    EXPECT_EQ(r.stats.links[1].busy_cycles, 4u);
    EXPECT_EQ(r.stats.links[2].name, "ddr");
    EXPECT_EQ(r.stats.links[2].bytes_read, 256u);
    EXPECT_EQ(r.stats.links[2].busy_cycles, 4u);
}

TEST(L2, TheReadPortsBurstsOfACycleAreLookedUpFirst) {
    SimRun r = simulate(two_ports(64), load_and_store_one_line());
    EXPECT_EQ(r.at(0, kDma, 0).end, 104u);
    EXPECT_EQ(r.at(0, dma_engine(1), 0).end, 104u);
    EXPECT_EQ(r.stats.l2->read_misses, 1u);
    EXPECT_EQ(r.stats.l2->write_hits, 1u);
    EXPECT_EQ(r.stats.l2->flush_bytes, 64u);
}

TEST(L2, BytesMovingOnTheOtherPortAreNoLinkWait) {
    SimRun r = simulate(arch::config_from_json(testjson::parse(slow_read_port_config()), "test"),
                        store_while_its_load_moves());
    EXPECT_EQ(r.at(0, kDma, 1).start, 2u);
    EXPECT_EQ(r.at(0, kDma, 1).end, 104u);
    EXPECT_EQ(r.at(0, kDma, 1).link_wait, 0u);
    EXPECT_EQ(r.at(0, dma_engine(1), 0).link_wait, 2u);
    EXPECT_EQ(r.at(0, dma_engine(2), 0).link_wait, 3u);
}

// The write port is the L2's: without an L2 the key changes nothing. The
// default DDR (32 B/cycle, 64-byte bursts, latency 100) alternates the two
// engines' bursts, two cycles each, from cycle 2: the load's last is
// granted at 14 and ends at 16 + 100, the store's at 16 and ends at 118.
TEST(L2, AWritePortWithoutAnL2ChangesNothing) {
    const arch::Config with_key = arch::config_from_json(
        testjson::parse(R"({"cluster": {"dma_engines": 2}, "l2": {"write_bytes_per_cycle": 64}})"), "test");
    SimRun r = simulate(with_key, load_beside_store());
    EXPECT_EQ(r.at(0, kDma, 0).end, 116u);
    EXPECT_EQ(r.at(0, dma_engine(1), 0).end, 118u);
    EXPECT_EQ(r.stats.links[0].name, "ddr");
    EXPECT_EQ(r.stats.links[0].busy_cycles, 16u);
}

}  // namespace
