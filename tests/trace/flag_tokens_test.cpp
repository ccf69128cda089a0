// Flag tokens (sim/trace/flag_tokens.h): a set adds a token at its
// command's end, a wait takes one at its command's start, a block's
// leftovers go at its end.
#include <gtest/gtest.h>

#include "sim/trace/flag_tokens.h"
#include "trace_test_util.h"

namespace {

using namespace tracetest;
using trace::StepSeries;

TEST(FlagTokens, SetsAddAtTheEndWaitsTakeAtTheStart) {
    Timeline run;
    run.at(0, 10, dma_engine(0), load(64, {}, {2}))
        .at(10, 15, dma_engine(0), load(64, {}, {2}))
        .at(11, 20, cube_dma(0), to_l0(64, {2}, {}))
        .at(25, 30, cube_dma(0), to_l0(64, {2}, {}));
    auto f = trace::flag_tokens(run.timed);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].cluster, 0u);
    EXPECT_EQ(f[0].flag, 2);
    EXPECT_EQ(f[0].tokens, (StepSeries{{10, 1}, {11, 0}, {15, 1}, {25, 0}}));
}

// Tokens nobody consumed go at the block's end (its last command end), so
// the next block on the cluster starts from 0; a hand-off in one cycle
// (flag latency 0) shows no change.
TEST(FlagTokens, ABlockDropsItsLeftoverTokensAtItsEnd) {
    Timeline run;
    run.at(0, 10, dma_engine(0), load(64, {}, {0, 1}), 0, 0)
        .at(10, 40, cube_dma(0), to_l0(64, {1}, {}), 0, 0)
        .at(41, 50, dma_engine(0), load(64, {}, {0}), 0, 1)
        .at(0, 10, dma_engine(0), load(64, {}, {0}), 1, 2)
        .at(50, 60, cube_dma(0), to_l0(64, {0}, {}), 1, 2);
    auto f = trace::flag_tokens(run.timed);
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0].cluster, 0u);
    EXPECT_EQ(f[0].flag, 0);
    // Block 0 leaves its f0 token until it ends at 40; block 1 sets f0 at
    // its very end (50), so the token is dropped in the cycle it appears.
    EXPECT_EQ(f[0].tokens, (StepSeries{{10, 1}, {40, 0}}));
    EXPECT_EQ(f[1].flag, 1);
    EXPECT_TRUE(f[1].tokens.empty());  // set at 10 and taken at 10
    EXPECT_EQ(f[2].cluster, 1u);
    EXPECT_EQ(f[2].flag, 0);
    EXPECT_EQ(f[2].tokens, (StepSeries{{10, 1}, {50, 0}}));
}

}  // namespace
