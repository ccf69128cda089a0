#include "sim/hw/round_robin_link.h"

#include <algorithm>
#include <cassert>

namespace hw {

RoundRobinLink::RoundRobinLink(int requesters, uint64_t bytes_per_cycle, uint64_t burst_bytes, uint64_t latency_cycles)
    : bytes_per_cycle_(bytes_per_cycle),
      burst_bytes_(burst_bytes),
      latency_(latency_cycles),
      pending_(size_t(std::max(requesters, 1))),
      last_granted_(std::max(requesters, 1) - 1) {}

void RoundRobinLink::request(int requester, uint64_t bytes, uint64_t now) {
    Pending& p = pending_[size_t(requester)];
    assert(p.remaining == 0 && bytes > 0);
    p.remaining = bytes;
    p.eligible_at = now + 1;
    ++active_;
}

uint64_t RoundRobinLink::decision_cycle() const {
    uint64_t earliest = kNever;
    for (const Pending& p : pending_)
        if (p.remaining) earliest = std::min(earliest, p.eligible_at);
    return std::max(free_at_, earliest);
}

int RoundRobinLink::grant_one(uint64_t at, bool& last_burst) {
    int n = int(pending_.size());
    for (int step = 1; step <= n; ++step) {
        int id = (last_granted_ + step) % n;
        Pending& p = pending_[size_t(id)];
        if (!p.remaining || p.eligible_at > at) continue;
        uint64_t b = std::min(p.remaining, burst_bytes_);
        uint64_t cycles = burst_cycles(b);
        p.remaining -= b;
        free_at_ = at + cycles;
        busy_cycles_ += cycles;
        bytes_ += b;
        last_granted_ = id;
        last_burst = p.remaining == 0;
        if (last_burst) --active_;
        return id;
    }
    assert(false && "grant_one without an eligible request");
    return -1;
}

bool RoundRobinLink::skip_rounds(uint64_t limit) {
    // A round is one full burst for every active requester in id order after
    // the last granted one; it returns the pointer to where it started only if
    // that requester is itself active, and it is uniform only if nobody is
    // waiting to become eligible and nobody reaches its last burst.
    if (active_ < 2 || !pending_[size_t(last_granted_)].remaining) return false;
    uint64_t rounds = kNever;
    for (const Pending& p : pending_) {
        if (!p.remaining) continue;
        if (p.eligible_at > free_at_) return false;
        uint64_t bursts = (p.remaining + burst_bytes_ - 1) / burst_bytes_;
        rounds = std::min(rounds, bursts - 1);
    }
    uint64_t per_burst = burst_cycles(burst_bytes_);
    uint64_t round_cycles = per_burst * uint64_t(active_);
    uint64_t last_decision_offset = round_cycles - per_burst;  // within a round
    if (limit != kNever) {
        if (limit < free_at_ + last_decision_offset) return false;
        rounds = std::min(rounds, (limit - free_at_ - last_decision_offset) / round_cycles + 1);
    }
    if (rounds == 0) return false;
    for (Pending& p : pending_)
        if (p.remaining) p.remaining -= rounds * burst_bytes_;
    free_at_ += rounds * round_cycles;
    busy_cycles_ += rounds * round_cycles;
    bytes_ += rounds * burst_bytes_ * uint64_t(active_);
    return true;
}

void RoundRobinLink::advance(uint64_t now, std::vector<Completion>& completed) {
    while (active_) {
        uint64_t at = decision_cycle();
        if (at > now) return;
        if (skip_rounds(now)) continue;
        bool last = false;
        int id = grant_one(at, last);
        if (last) completed.push_back({id, free_at_ + latency_});
    }
}

uint64_t RoundRobinLink::next_final_grant() const {
    if (!active_) return kNever;
    RoundRobinLink copy = *this;
    for (;;) {
        copy.skip_rounds(kNever);
        uint64_t at = copy.decision_cycle();
        bool last = false;
        copy.grant_one(at, last);
        if (last) return at;
    }
}

}  // namespace hw
