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
std::vector<std::vector<uint64_t>> naive(const Traffic& t, IssueFrom from) {
    size_t n = t.bytes.size();
    std::vector<std::vector<uint64_t>> done(n);
    std::vector<size_t> next(n, 0);
    std::vector<uint64_t> issue_at(n, 0), remaining(n, 0), eligible(n, 0);
    std::vector<std::vector<uint64_t>> completes(n);  // pending completion cycles, in order
    for (size_t i = 0; i < n; ++i) issue_at[i] = t.gap[i][0];
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
                last = i;
                granted = true;
                if (!remaining[i]) {
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
    }
}

// The same traffic through RoundRobinLink, visiting only event cycles.
std::vector<std::vector<uint64_t>> event_driven(const Traffic& t, IssueFrom from) {
    size_t n = t.bytes.size();
    hw::RoundRobinLink link(int(n), t.width, t.burst, t.latency);
    std::vector<std::vector<uint64_t>> done(n);
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
        link.advance(now, finished);
        for (auto& f : finished) {
            size_t i = size_t(f.requester);
            EXPECT_EQ(f.granted, now);
            completes[i].push_back(f.cycle);
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
    for (int trial = 0; trial < 200; ++trial) {
        Traffic t = random_traffic(rng);
        IssueFrom from = trial % 2 ? IssueFrom::FinalGrant : IssueFrom::Completion;
        ASSERT_EQ(event_driven(t, from), naive(t, from))
            << "trial " << trial << " width " << t.width << " burst " << t.burst;
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

}  // namespace
