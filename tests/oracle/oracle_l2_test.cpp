// The oracle's L2 cache on the hand-worked cases of tests/support/l2_cases.h
// (docs/timing-model.md §6.1); tests/hw/l2_test.cpp checks the SystemC model
// on the same cases.
#include <gtest/gtest.h>

#include "tests/oracle/oracle.h"
#include "tests/oracle/oracle_test_util.h"
#include "tests/support/l2_cases.h"

namespace {

using namespace oracle_test;
using namespace l2cases;

TEST(OracleL2, MissThenHit) {
    oracle::Result r = oracle::run(miss_then_hit(), config(l2_config(2)));
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 105}));
    EXPECT_EQ(at(r, 0, dma_engine(0), 1), (StartEnd{105, 110}));
    ASSERT_TRUE(r.l2);
    EXPECT_EQ(r.l2->read_misses, 1u);
    EXPECT_EQ(r.l2->read_hits, 1u);
    EXPECT_EQ(r.l2->fills, 1u);
}

TEST(OracleL2, AHitWaitsForTheFillOnItsWay) {
    oracle::Result r = oracle::run(hit_under_miss(), config(l2_config(2, 2)));
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 105}));
    EXPECT_EQ(at(r, 0, dma_engine(0), 1), (StartEnd{2, 105}));
    EXPECT_EQ(r.l2->read_hits, 1u);
}

TEST(OracleL2, ADirtyLineIsWrittenBackBeforeItsSuccessorFills) {
    oracle::Result r = oracle::run(dirty_eviction(), config(l2_config(1)));
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 6}));
    EXPECT_EQ(at(r, 0, dma_engine(0), 1), (StartEnd{6, 112}));
    EXPECT_EQ(r.l2->write_misses, 1u);
    EXPECT_EQ(r.l2->read_misses, 1u);
    EXPECT_EQ(r.l2->writebacks, 1u);
    EXPECT_EQ(r.l2->fills, 1u);
    EXPECT_EQ(r.l2->flush_lines, 0u);
}

TEST(OracleL2, DirtyLinesLeftAreTheFlush) {
    oracle::Result r = oracle::run(flush_at_the_end(), config(l2_config(2)));
    EXPECT_EQ(r.total_cycles, 6u);
    EXPECT_EQ(r.l2->flush_lines, 1u);
    EXPECT_EQ(r.l2->fills, 0u);
}

TEST(OracleL2, LeastRecentlyUsedIsReplaced) {
    oracle::Result r = oracle::run(lru_order(), config(l2_config(2)));
    EXPECT_EQ(r.l2->read_hits, 1u);
    EXPECT_EQ(r.l2->read_misses, 4u);
    EXPECT_EQ(r.l2->writebacks, 0u);
}

TEST(OracleL2, ABurstLooksUpEveryLineItTouches) {
    oracle::Result r = oracle::run(bursts_across_lines(), config(l2_config(2)));
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 109}));
    EXPECT_EQ(r.l2->read_misses, 3u);
    EXPECT_EQ(r.l2->read_hits, 1u);
}

TEST(OracleL2, AGatherIsTimedAsMissesWithoutALookup) {
    oracle::Result r = oracle::run(gather_after_a_load(), config(l2_config(2)));
    EXPECT_EQ(at(r, 0, dma_engine(0), 1), (StartEnd{105, 209}));
    EXPECT_EQ(r.l2->read_misses, 1u);
    EXPECT_EQ(r.l2->read_hits, 0u);
    EXPECT_EQ(r.l2->fills, 1u);
    EXPECT_EQ(r.l2->gathered_bytes, 64u);
    oracle::Result plain = oracle::run(gather_after_a_load(), config(R"({"dma": {"max_outstanding": 1}})"));
    EXPECT_EQ(at(plain, 0, dma_engine(0), 1), (StartEnd{104, 207}));
}

TEST(OracleL2, ReadsAndWritesShareOnePort) {
    oracle::Result r = oracle::run(load_beside_store(), config(two_port_config(0)));
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 110}));
    EXPECT_EQ(at(r, 0, dma_engine(1), 0), (StartEnd{1, 13}));
    EXPECT_EQ(r.l2->read_misses, 4u);
    EXPECT_EQ(r.l2->write_misses, 4u);
}

TEST(OracleL2, AWritePortOfItsOwn) {
    oracle::Result r = oracle::run(load_beside_store(), config(two_port_config(64)));
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 107}));
    EXPECT_EQ(at(r, 0, dma_engine(1), 0), (StartEnd{1, 9}));
    EXPECT_EQ(r.l2->read_misses, 4u);
    EXPECT_EQ(r.l2->write_misses, 4u);
}

TEST(OracleL2, TheReadPortsBurstsOfACycleAreLookedUpFirst) {
    oracle::Result r = oracle::run(load_and_store_one_line(), config(two_port_config(64)));
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 104}));
    EXPECT_EQ(at(r, 0, dma_engine(1), 0), (StartEnd{1, 104}));
    EXPECT_EQ(r.l2->read_misses, 1u);
    EXPECT_EQ(r.l2->write_hits, 1u);
    EXPECT_EQ(r.l2->fills, 1u);
    EXPECT_EQ(r.l2->flush_lines, 1u);
}

TEST(OracleL2, BytesMovingOnTheOtherPortAreNoLinkWait) {
    oracle::Result r = oracle::run(store_while_its_load_moves(), config(slow_read_port_config()));
    EXPECT_EQ(at(r, 0, dma_engine(0), 1), (StartEnd{2, 104}));
    EXPECT_EQ(link_wait_of(r, 0, dma_engine(0), 1), 0u);
    EXPECT_EQ(link_wait_of(r, 0, dma_engine(1), 0), 2u);
    EXPECT_EQ(link_wait_of(r, 0, dma_engine(2), 0), 3u);
}

// Without an L2 the same load is the §6 case: no lookups at all.
TEST(OracleL2, NoL2NoCounts) {
    oracle::Result r = oracle::run(miss_then_hit(), config(R"({"dma": {"max_outstanding": 1}})"));
    EXPECT_FALSE(r.l2.has_value());
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 104}));
}

}  // namespace
