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

// Completion cycles per requester, cycle-stepped.
std::vector<std::vector<uint64_t>> naive(const Traffic& t) {
    size_t n = t.bytes.size();
    std::vector<std::vector<uint64_t>> done(n);
    std::vector<size_t> next(n, 0);
    std::vector<uint64_t> issue_at(n, 0), remaining(n, 0), eligible(n, 0), completes(n, kNone);
    for (size_t i = 0; i < n; ++i) issue_at[i] = t.gap[i][0];
    uint64_t free_at = 0;
    size_t last = n - 1;
    int final_burst = -1;
    for (uint64_t c = 0;; ++c) {
        bool all_done = true;
        for (size_t i = 0; i < n; ++i) {
            if (completes[i] == c) {
                done[i].push_back(c);
                completes[i] = kNone;
                if (next[i] < t.bytes[i].size()) issue_at[i] = c + t.gap[i][next[i]];
            }
            if (issue_at[i] == c && next[i] < t.bytes[i].size()) {
                remaining[i] = t.bytes[i][next[i]++];
                eligible[i] = c + 1;
                issue_at[i] = kNone;
            }
            if (next[i] < t.bytes[i].size() || remaining[i] || completes[i] != kNone) all_done = false;
        }
        if (all_done) return done;
        if (c < free_at) continue;
        if (final_burst >= 0) final_burst = -1;
        for (size_t step = 1; step <= n; ++step) {
            size_t i = (last + step) % n;
            if (!remaining[i] || eligible[i] > c) continue;
            uint64_t b = std::min(remaining[i], t.burst);
            remaining[i] -= b;
            free_at = c + (b + t.width - 1) / t.width;
            last = i;
            if (!remaining[i]) completes[i] = free_at + t.latency;
            break;
        }
    }
}

// The same traffic through RoundRobinLink, visiting only event cycles.
std::vector<std::vector<uint64_t>> event_driven(const Traffic& t) {
    size_t n = t.bytes.size();
    hw::RoundRobinLink link(int(n), t.width, t.burst, t.latency);
    std::vector<std::vector<uint64_t>> done(n);
    std::vector<size_t> next(n, 0);
    std::vector<uint64_t> issue_at(n), completes(n, kNone);
    for (size_t i = 0; i < n; ++i) issue_at[i] = t.gap[i][0];
    std::vector<hw::RoundRobinLink::Completion> finished;
    uint64_t now = 0;
    for (;;) {
        for (size_t i = 0; i < n; ++i) {
            if (completes[i] == now) {
                done[i].push_back(now);
                completes[i] = kNone;
                if (next[i] < t.bytes[i].size()) issue_at[i] = now + t.gap[i][next[i]];
            }
            if (issue_at[i] == now) {
                link.request(int(i), t.bytes[i][next[i]++], now);
                issue_at[i] = kNone;
            }
        }
        link.advance(now, finished);
        for (auto& f : finished) completes[size_t(f.requester)] = f.cycle;
        finished.clear();
        uint64_t wake = link.next_final_grant();
        for (size_t i = 0; i < n; ++i) wake = std::min({wake, issue_at[i], completes[i]});
        if (wake == kNone) return done;
        now = wake;
    }
}

TEST(RoundRobinLink, MatchesNaiveArbiterOnRandomTraffic) {
    std::mt19937_64 rng(12345);
    for (int trial = 0; trial < 60; ++trial) {
        Traffic t;
        t.width = 1 + rng() % 64;
        t.burst = 1 + rng() % 256;
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
        ASSERT_EQ(event_driven(t), naive(t)) << "trial " << trial << " width " << t.width << " burst " << t.burst;
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
