// IntervalUnion (sim/trace/interval_union.h): the cycles a set of [start,
// end) intervals covers, in any order (an operation's active cycles) or in
// start order (an engine's busy time, kept in O(1) memory).
#include "sim/trace/interval_union.h"

#include <gtest/gtest.h>

namespace {

using Intervals = std::vector<std::pair<uint64_t, uint64_t>>;
using trace::IntervalUnion;
constexpr IntervalUnion::Arrival kAny = IntervalUnion::Arrival::AnyOrder;
constexpr IntervalUnion::Arrival kInOrder = IntervalUnion::Arrival::InStartOrder;

TEST(IntervalUnion, DisjointIntervalsInAnyOrderAddUp) {
    IntervalUnion u(kAny);
    EXPECT_EQ(u.add(10, 20), 10u);
    EXPECT_EQ(u.add(30, 40), 10u);
    EXPECT_EQ(u.add(0, 5), 5u);
    EXPECT_EQ(u.covered(), 25u);
    EXPECT_EQ(u.intervals(), (Intervals{{0, 5}, {10, 20}, {30, 40}}));
    EXPECT_EQ(u.latest_end(), 40u);
}

// [5, 10) touches [0, 5) and [10, 20): one interval, no cycle counted twice.
TEST(IntervalUnion, TouchingAndOverlappingIntervalsMerge) {
    IntervalUnion u(kAny);
    u.add(0, 5);
    u.add(10, 20);
    u.add(30, 40);
    EXPECT_EQ(u.add(5, 10), 5u);
    EXPECT_EQ(u.covered(), 30u);
    EXPECT_EQ(u.intervals(), (Intervals{{0, 20}, {30, 40}}));
    EXPECT_EQ(u.add(15, 31), 10u);
    EXPECT_EQ(u.covered(), 40u);
    EXPECT_EQ(u.intervals(), (Intervals{{0, 40}}));
}

TEST(IntervalUnion, ContainedAndEmptyIntervalsAddNothing) {
    IntervalUnion u(kAny);
    u.add(0, 100);
    EXPECT_EQ(u.add(2, 3), 0u);
    EXPECT_EQ(u.add(0, 100), 0u);
    EXPECT_EQ(u.add(50, 50), 0u);
    EXPECT_EQ(u.add(200, 200), 0u);
    EXPECT_EQ(u.covered(), 100u);
    EXPECT_EQ(u.intervals(), (Intervals{{0, 100}}));
}

// The last cycle before a gap and the first after it: 9 and 11 covered, 10 not.
TEST(IntervalUnion, AOneCycleGapStays) {
    IntervalUnion u(kAny);
    u.add(11, 20);
    u.add(0, 10);
    EXPECT_EQ(u.covered(), 19u);
    EXPECT_EQ(u.intervals(), (Intervals{{0, 10}, {11, 20}}));
}

// A DMA engine's overlapping commands, as they start: [0, 10), [4, 12)
// (2 new cycles, from 10), [6, 9) (none), a gap, [15, 20), [20, 22)
// touching it. The part each adds is [end - added, end).
TEST(IntervalUnion, InStartOrderEachAddsWhatIsAfterTheUnionSoFar) {
    IntervalUnion u(kInOrder);
    EXPECT_EQ(u.add(0, 10), 10u);
    EXPECT_EQ(u.add(4, 12), 2u);
    EXPECT_EQ(u.add(6, 9), 0u);
    EXPECT_EQ(u.latest_end(), 12u);
    EXPECT_EQ(u.add(15, 20), 5u);
    EXPECT_EQ(u.add(20, 22), 2u);
    EXPECT_EQ(u.covered(), 19u);
    EXPECT_EQ(u.latest_end(), 22u);
}

// Only the last stretch is kept, however many gaps the run has.
TEST(IntervalUnion, InStartOrderKeepsOnlyTheLastStretch) {
    IntervalUnion u(kInOrder);
    for (uint64_t i = 0; i < 1000; ++i) u.add(10 * i, 10 * i + 5);
    EXPECT_EQ(u.covered(), 5000u);
    EXPECT_EQ(u.intervals(), (Intervals{{9990, 9995}}));
    u.add(9993, 10001);
    EXPECT_EQ(u.intervals(), (Intervals{{9990, 10001}}));
}

// An empty command still ends at its cycle: nothing is in flight after it
// (the cycle accounting's "end of the previous command"), none of it busy.
TEST(IntervalUnion, AnEmptyIntervalMovesTheLatestEndOnly) {
    for (IntervalUnion::Arrival a : {kInOrder, kAny}) {
        IntervalUnion u(a);
        u.add(0, 5);
        EXPECT_EQ(u.add(8, 8), 0u);
        EXPECT_EQ(u.latest_end(), 8u);
        EXPECT_EQ(u.covered(), 5u);
        EXPECT_EQ(u.add(8, 10), 2u);
        EXPECT_EQ(u.covered(), 7u);
    }
}

// The same intervals in start order give the same union either way.
TEST(IntervalUnion, BothArrivalsAgreeOnIntervalsInStartOrder) {
    IntervalUnion in_order(kInOrder), any(kAny);
    const Intervals commands = {{1, 110}, {3, 50}, {110, 213}, {120, 300}, {301, 302}, {301, 400}, {500, 501}};
    for (const auto& [s, e] : commands) EXPECT_EQ(in_order.add(s, e), any.add(s, e)) << s << ", " << e;
    EXPECT_EQ(in_order.covered(), any.covered());
    EXPECT_EQ(in_order.covered(), 299u + 99u + 1u);
    EXPECT_EQ(in_order.intervals().back(), any.intervals().back());
}

}  // namespace
