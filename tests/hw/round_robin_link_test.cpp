// RoundRobinLink skips whole arbitration rounds instead of stepping bursts.
// Here it is driven the way ArbitratedMemory drives it (woken only at
// arrivals and at predicted last-burst grants) and compared with a naive
// cycle-by-cycle arbiter written straight from docs/timing-model.md §6, on
// random traffic.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "sim/hw/round_robin_link.h"

namespace {

struct Traffic {
    uint64_t width, burst, latency;
    std::vector<std::vector<uint64_t>> bytes;  // per requester, its transfers in order
    std::vector<std::vector<uint64_t>> gap;    // cycles between a completion and the next request
};

constexpr uint64_t kNone = ~uint64_t{0};

// When a requester issues its next transfer: `gap` cycles after the last
// one completed, or after its last burst was granted (how a DMA engine with
// several requests in flight uses the link, timing model §5).
enum class IssueFrom { Completion, FinalGrant };

// Completion cycles per requester, cycle-stepped over byte slots: cycle c
// offers slots [c*W, (c+1)*W) and every grant takes the next burst's bytes.
// `waits` gets each transfer's link wait (timing model §9), classified cycle
// by cycle: a cycle in which the request was eligible with bytes not yet
// granted and none of the requester's bytes crossed the link.
std::vector<std::vector<uint64_t>> naive(const Traffic& t, IssueFrom from, std::vector<std::vector<uint64_t>>& waits) {
    size_t n = t.bytes.size();
    std::vector<std::vector<uint64_t>> done(n);
    std::vector<size_t> next(n, 0);
    std::vector<uint64_t> issue_at(n, 0), remaining(n, 0), eligible(n, 0);
    std::vector<std::vector<uint64_t>> completes(n);  // pending completion cycles, in order
    for (size_t i = 0; i < n; ++i) issue_at[i] = t.gap[i][0];
    waits.assign(n, {});
    std::vector<uint64_t> slots_end(n, 0),
        waited(n, 0);  // per requester: after its last granted slot; this transfer's wait
    std::vector<bool> waiting(n);
    uint64_t next_slot = 0;
    size_t last = n - 1;
    for (uint64_t c = 0;; ++c) {
        bool all_done = true;
        for (size_t i = 0; i < n; ++i) {
            // Two transfers of one requester may complete in one cycle (a burst longer than
            // W lets the next transfer's bytes fall in its last cycle).
            while (!completes[i].empty() && completes[i].front() == c) {
                done[i].push_back(c);
                completes[i].erase(completes[i].begin());
                if (from == IssueFrom::Completion && next[i] < t.bytes[i].size()) issue_at[i] = c + t.gap[i][next[i]];
            }
            if (issue_at[i] == c && next[i] < t.bytes[i].size()) {
                remaining[i] = t.bytes[i][next[i]++];
                eligible[i] = c + 1;
                issue_at[i] = kNone;
            }
            if (next[i] < t.bytes[i].size() || remaining[i] || !completes[i].empty()) all_done = false;
        }
        if (all_done) return done;
        for (size_t i = 0; i < n; ++i) waiting[i] = remaining[i] && eligible[i] <= c;
        for (;;) {
            uint64_t at = std::max(next_slot, c * t.width);
            if (at >= (c + 1) * t.width) break;
            bool granted = false;
            for (size_t step = 1; step <= n && !granted; ++step) {
                size_t i = (last + step) % n;
                if (!remaining[i] || eligible[i] > c) continue;
                uint64_t b = std::min(remaining[i], t.burst);
                remaining[i] -= b;
                next_slot = at + b;
                slots_end[i] = next_slot;
                last = i;
                granted = true;
                if (!remaining[i]) {
                    waits[i].push_back(waited[i]);  // no wait in this cycle: it moved a burst
                    waited[i] = 0;
                    completes[i].push_back((next_slot - 1) / t.width + 1 + t.latency);
                    if (from == IssueFrom::FinalGrant && next[i] < t.bytes[i].size()) {
                        issue_at[i] = c + t.gap[i][next[i]];
                        if (issue_at[i] == c) {  // issued in the cycle of the grant, eligible from c + 1
                            remaining[i] = t.bytes[i][next[i]++];
                            eligible[i] = c + 1;
                            issue_at[i] = kNone;
                        }
                    }
                }
            }
            if (!granted) break;
        }
        for (size_t i = 0; i < n; ++i)
            if (waiting[i] && remaining[i] && slots_end[i] <= c * t.width) ++waited[i];
    }
}

// next_final_grant, computed in closed form, is exact: with no further
// request, no last burst is granted before the cycle it names, and one is
// granted in it, first that of the requester it names.
void expect_exact_prediction(const hw::RoundRobinLink& link, uint64_t predicted) {
    int requester = -2;
    ASSERT_EQ(link.next_final_grant(&requester), predicted);
    if (predicted == hw::RoundRobinLink::kNever) {
        EXPECT_EQ(requester, -1);
        return;
    }
    ASSERT_GT(predicted, 0u);
    hw::RoundRobinLink replay = link;
    std::vector<hw::RoundRobinLink::Completion> done;
    replay.advance(predicted - 1, done);
    EXPECT_TRUE(done.empty()) << "a last burst granted at cycle " << done.front().granted << ", before " << predicted;
    replay.advance(predicted, done);
    ASSERT_FALSE(done.empty()) << "no last burst granted at the predicted cycle " << predicted;
    EXPECT_EQ(done.front().granted, predicted);
    EXPECT_EQ(done.front().requester, requester);
}

// The same traffic through RoundRobinLink, visiting only event cycles.
std::vector<std::vector<uint64_t>> event_driven(const Traffic& t, IssueFrom from,
                                                std::vector<std::vector<uint64_t>>& waits) {
    size_t n = t.bytes.size();
    hw::RoundRobinLink link(int(n), t.width, t.burst, t.latency);
    std::vector<std::vector<uint64_t>> done(n);
    waits.assign(n, {});
    std::vector<size_t> next(n, 0);
    std::vector<uint64_t> issue_at(n);
    std::vector<std::vector<uint64_t>> completes(n);
    for (size_t i = 0; i < n; ++i) issue_at[i] = t.gap[i][0];
    std::vector<hw::RoundRobinLink::Completion> finished;
    uint64_t now = 0;
    for (;;) {
        for (size_t i = 0; i < n; ++i) {
            while (!completes[i].empty() && completes[i].front() == now) {
                done[i].push_back(now);
                completes[i].erase(completes[i].begin());
                if (from == IssueFrom::Completion && next[i] < t.bytes[i].size()) issue_at[i] = now + t.gap[i][next[i]];
            }
            if (issue_at[i] == now) {
                link.request(int(i), t.bytes[i][next[i]++], now);
                issue_at[i] = kNone;
            }
        }
        // Before the link has decided cycles up to now, requests issued now
        // join turns the prediction has started counting.
        expect_exact_prediction(link, link.next_final_grant());
        link.advance(now, finished);
        for (auto& f : finished) {
            size_t i = size_t(f.requester);
            EXPECT_EQ(f.granted, now);
            completes[i].push_back(f.cycle);
            waits[i].push_back(f.link_wait);
            if (from == IssueFrom::FinalGrant && next[i] < t.bytes[i].size()) {
                issue_at[i] = now + t.gap[i][next[i]];
                if (issue_at[i] == now) {  // issued in the cycle of the grant, after it
                    link.request(int(i), t.bytes[i][next[i]++], now);
                    issue_at[i] = kNone;
                }
            }
        }
        finished.clear();
        uint64_t wake = link.next_final_grant();
        EXPECT_TRUE(wake == hw::RoundRobinLink::kNever || wake > now);
        expect_exact_prediction(link, wake);
        for (size_t i = 0; i < n; ++i) {
            wake = std::min(wake, issue_at[i]);
            if (!completes[i].empty()) wake = std::min(wake, completes[i].front());
        }
        if (wake == kNone) return done;
        now = wake;
    }
}

Traffic random_traffic(std::mt19937_64& rng) {
    Traffic t;
    t.width = 1 + rng() % 64;
    t.burst = 1 + rng() % 256;
    if (rng() % 3 == 0) t.burst = std::max<uint64_t>(1, t.width / (1 + rng() % 8));  // several bursts per cycle
    t.latency = rng() % 20;
    size_t n = 1 + rng() % 6;
    t.bytes.resize(n);
    t.gap.resize(n);
    for (size_t i = 0; i < n; ++i) {
        size_t transfers = 1 + rng() % 12;
        for (size_t k = 0; k < transfers; ++k) {
            t.bytes[i].push_back(1 + rng() % 3000);
            t.gap[i].push_back(rng() % 3 == 0 ? 0 : rng() % 200);
        }
    }
    return t;
}

TEST(RoundRobinLink, MatchesNaiveArbiterOnRandomTraffic) {
    std::mt19937_64 rng(12345);
    for (int trial = 0; trial < 1000; ++trial) {
        Traffic t = random_traffic(rng);
        IssueFrom from = trial % 2 ? IssueFrom::FinalGrant : IssueFrom::Completion;
        std::vector<std::vector<uint64_t>> fast_waits, naive_waits;
        ASSERT_EQ(event_driven(t, from, fast_waits), naive(t, from, naive_waits))
            << "trial " << trial << " width " << t.width << " burst " << t.burst;
        ASSERT_EQ(fast_waits, naive_waits)
            << "link waits, trial " << trial << " width " << t.width << " burst " << t.burst;
    }
}

TEST(RoundRobinLink, CountsBusyCyclesAndBytes) {
    hw::RoundRobinLink link(2, 32, 64, 100);
    std::vector<hw::RoundRobinLink::Completion> done;
    link.request(0, 4096, 0);
    link.request(1, 100, 0);
    link.advance(1000, done);
    ASSERT_EQ(done.size(), 2u);
    // Requester 1: bursts of 64 and 36 B, 2 cycles each, in rounds 0 and 1:
    // [3,5) and [7,9): ends 9 + 100.
    EXPECT_EQ(done[0].requester, 1);
    EXPECT_EQ(done[0].cycle, 109u);
    EXPECT_EQ(link.bytes(), 4196u);
    EXPECT_EQ(link.busy_cycles(), 128u + 4u);
}

// Link waits (timing model §9) of the same two transfers. Both are eligible
// from cycle 1; requester 0 moves [32,96) (cycles 1-2), requester 1 [96,160)
// (3-4), requester 0 [160,224) (5-6), requester 1 its last 36 B [224,260)
// (7-8), then requester 0 alone [260,4228) (8-132). Requester 1 spans
// cycles 1-8 and moves in 4 of them: 4 waited. Requester 0 spans 1-132 and
// waits in cycles 3, 4 and 7 only (cycle 8 carries bytes of both).
TEST(RoundRobinLink, CountsLinkWaitsPerTransfer) {
    hw::RoundRobinLink link(2, 32, 64, 100);
    std::vector<hw::RoundRobinLink::Completion> done;
    link.request(0, 4096, 0);
    link.request(1, 100, 0);
    link.advance(1000, done);
    ASSERT_EQ(done.size(), 2u);
    EXPECT_EQ(done[0].requester, 1);
    EXPECT_EQ(done[0].link_wait, 4u);
    EXPECT_EQ(done[1].requester, 0);
    EXPECT_EQ(done[1].cycle, 133u + 100u);
    EXPECT_EQ(done[1].link_wait, 3u);
}

// A transfer alone on the link never waits, whatever W and S: a lone
// 1000 B at 24 B/cycle in 64 B bursts moves in every cycle from 1 to 42.
TEST(RoundRobinLink, ALoneTransferHasNoLinkWait) {
    hw::RoundRobinLink link(3, 24, 64, 7);
    std::vector<hw::RoundRobinLink::Completion> done;
    link.request(2, 1000, 0);
    link.advance(1000, done);
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0].cycle, 1u + 42u + 7u);
    EXPECT_EQ(done[0].link_wait, 0u);
}

}  // namespace
