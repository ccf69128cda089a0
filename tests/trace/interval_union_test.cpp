// IntervalUnion (sim/trace/interval_union.h): the cycles a set of [start,
// end) intervals covers, whatever the order they come in.
#include "sim/trace/interval_union.h"

#include <gtest/gtest.h>

namespace {

using Intervals = std::vector<std::pair<uint64_t, uint64_t>>;

TEST(IntervalUnion, DisjointIntervalsInAnyOrderAddUp) {
    trace::IntervalUnion u;
    u.add(10, 20);
    u.add(30, 40);
    u.add(0, 5);
    EXPECT_EQ(u.covered(), 25u);
    EXPECT_EQ(u.intervals(), (Intervals{{0, 5}, {10, 20}, {30, 40}}));
}

// [5, 10) touches [0, 5) and [10, 20): one interval, no cycle counted twice.
TEST(IntervalUnion, TouchingAndOverlappingIntervalsMerge) {
    trace::IntervalUnion u;
    u.add(0, 5);
    u.add(10, 20);
    u.add(30, 40);
    u.add(5, 10);
    EXPECT_EQ(u.covered(), 30u);
    EXPECT_EQ(u.intervals(), (Intervals{{0, 20}, {30, 40}}));
    u.add(15, 31);
    EXPECT_EQ(u.covered(), 40u);
    EXPECT_EQ(u.intervals(), (Intervals{{0, 40}}));
}

TEST(IntervalUnion, ContainedAndEmptyIntervalsAddNothing) {
    trace::IntervalUnion u;
    u.add(0, 100);
    u.add(2, 3);
    u.add(0, 100);
    u.add(50, 50);
    u.add(200, 200);
    EXPECT_EQ(u.covered(), 100u);
    EXPECT_EQ(u.intervals(), (Intervals{{0, 100}}));
}

// The last cycle before a gap and the first after it: 9 and 11 covered, 10 not.
TEST(IntervalUnion, AOneCycleGapStays) {
    trace::IntervalUnion u;
    u.add(11, 20);
    u.add(0, 10);
    EXPECT_EQ(u.covered(), 19u);
    EXPECT_EQ(u.intervals(), (Intervals{{0, 10}, {11, 20}}));
}

}  // namespace
