// The cycle accounting of the SystemC model (docs/timing-model.md §9): each
// engine's busy cycles (link waits included), its link waits, flag waits,
// issue and idle cycles, summing to the run's total, and each DMA
// command's link wait. The same cases are worked out for the oracle in
// tests/oracle/oracle_hand_test.cpp (AccountingOf...). Default hardware:
// DDR W = 32 B/cycle, S = 64 B, Lat = 100; flag latency 1; blocks start at 1.
#include "hw_test_util.h"

using namespace hwtest;
using arch::DType;

namespace {

struct Cycles {
    uint64_t busy, link_wait, flag_wait, issue, idle;  // busy less link waits, as trace::CycleSplit
    bool operator==(const Cycles& o) const {
        return busy == o.busy && link_wait == o.link_wait && flag_wait == o.flag_wait && issue == o.issue &&
               idle == o.idle;
    }
};
std::ostream& operator<<(std::ostream& os, const Cycles& c) {
    return os << "busy " << c.busy << ", link wait " << c.link_wait << ", flag wait " << c.flag_wait << ", issue "
              << c.issue << ", idle " << c.idle;
}

Cycles cycles_of(const SimRun& r, const std::string& unit) {
    for (const trace::UnitStats& u : r.stats.units) {
        if (u.name != unit) continue;
        const trace::CycleSplit s = u.split(r.stats.total_cycles);
        EXPECT_EQ(s.sum(), r.stats.total_cycles) << unit;
        return {s.busy, s.link_wait, s.flag_wait, s.issue, s.idle};
    }
    ADD_FAILURE() << "no unit " << unit;
    return {};
}

// dma0 alone: [1, 110) and [110, 213), moving bytes in every cycle from
// eligibility to the last byte, so no link wait; idle only in cycle 0
// (one command in flight: the second starts at the first's end).
TEST(CycleAccounting, ALoneDmaNeverWaitsOnItsLink) {
    SimRun r = simulate(one_dma_in_flight(), program({block({stream(dma_engine(0), {load(256), load(64)})})}));
    ASSERT_EQ(r.stats.total_cycles, 213u);
    EXPECT_EQ(r.at(0, dma_engine(0), 0).link_wait, 0u);
    EXPECT_EQ(r.at(0, dma_engine(0), 1).link_wait, 0u);
    EXPECT_EQ(cycles_of(r, "cluster0.dma0"), (Cycles{212, 0, 0, 0, 1}));
    EXPECT_EQ(cycles_of(r, "cluster0.cube0"), (Cycles{0, 0, 0, 0, 213}));
    EXPECT_EQ(cycles_of(r, "cluster3.vector0"), (Cycles{0, 0, 0, 0, 213}));
}

// dma0 (256 B twice) and dma1 (512 B) of one cluster on the DDR link,
// bursts alternating from cycle 2, dma0 first: dma0's first load waits 6
// cycles (ends 116), dma1's load 8 (ends 126), dma0's second, alone, none
// (ends 225). Derived in OracleHand.AccountingOfTwoDmaEnginesContendingForDdr,
// with one command in flight.
TEST(CycleAccounting, TwoDmaEnginesContendingForDdr) {
    arch::Config c = one_dma_in_flight();
    c.dma_engines = 2;
    SimRun r = simulate(
        c, program({block({stream(dma_engine(0), {load(256), load(256)}), stream(dma_engine(1), {load(512)})})}));
    EXPECT_EQ(r.at(0, dma_engine(0), 0).end, 116u);
    EXPECT_EQ(r.at(0, dma_engine(1), 0).end, 126u);
    EXPECT_EQ(r.at(0, dma_engine(0), 1).end, 225u);
    EXPECT_EQ(r.at(0, dma_engine(0), 0).link_wait, 6u);
    EXPECT_EQ(r.at(0, dma_engine(1), 0).link_wait, 8u);
    EXPECT_EQ(r.at(0, dma_engine(0), 1).link_wait, 0u);
    EXPECT_EQ(cycles_of(r, "cluster0.dma0"), (Cycles{218, 6, 0, 0, 1}));
    EXPECT_EQ(cycles_of(r, "cluster0.dma1"), (Cycles{117, 8, 0, 0, 100}));
}

// Two requests of one engine in flight (dma.max_outstanding 2,
// Outstanding.TwoInFlightOverlapTheLatency): load 1, eligible at 3, gets
// its slots in cycle 4, after load 0's bytes in cycles 2 and 3. That is
// not a link wait: the link carried the engine's own bytes. Busy [1, 207)
// but cycle 0.
TEST(CycleAccounting, QueueingBehindTheEnginesOwnBytesIsNotALinkWait) {
    arch::Config c = arch::default_config();
    c.dma_max_outstanding = 2;
    SimRun r = simulate(c, program({block({stream(dma_engine(0), {load(64), load(64), load(64)})})}));
    EXPECT_EQ(r.at(0, dma_engine(0), 1).start, 2u);
    EXPECT_EQ(r.at(0, dma_engine(0), 1).end, 106u);
    for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(r.at(0, dma_engine(0), i).link_wait, 0u) << i;
    EXPECT_EQ(cycles_of(r, "cluster0.dma0"), (Cycles{206, 0, 0, 0, 1}));
}

// cube0's MATMUL waits on the flag dma0's 64 B load sets at 104 (allowed
// from 105) and issues 105 cycles from its ready cycle 1: held by the flag
// over [1, 105), by the issue alone in 105, busy [106, 117). cube1.dma
// issues 50 cycles before its load [51, 57). Derived in
// OracleHand.AccountingOfAFlagWaitBetweenADmaAndACube.
TEST(CycleAccounting, AFlagWaitBetweenADmaAndACube) {
    arch::Command mm = matmul(4, 4, 4, DType::Float16, {0});
    mm.issue_cycles = 105;
    arch::Command late = to_l0(128);
    late.issue_cycles = 50;
    SimRun r = simulate(
        arch::default_config(),
        program({block({stream(dma_engine(0), {load(64, {}, {0})}), stream(cube(0), {mm}), stream(cube_dma(1), {late})},
                       1)}));
    ASSERT_EQ(r.stats.total_cycles, 117u);
    EXPECT_EQ(r.at(0, cube(0), 0).start, 106u);
    EXPECT_EQ(cycles_of(r, "cluster0.cube0"), (Cycles{11, 0, 104, 1, 1}));
    EXPECT_EQ(cycles_of(r, "cluster0.dma0"), (Cycles{103, 0, 0, 0, 14}));
    EXPECT_EQ(cycles_of(r, "cluster0.cube1.dma"), (Cycles{6, 0, 0, 50, 61}));
}

}  // namespace
