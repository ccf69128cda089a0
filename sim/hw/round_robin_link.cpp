#include "sim/hw/round_robin_link.h"

#include <algorithm>
#include <cassert>

#include "sim/arch/ceil_div.h"
#include "sim/hw/floor_sum.h"

namespace hw {

RoundRobinLink::RoundRobinLink(int requesters, uint64_t bytes_per_cycle, uint64_t burst_bytes, uint64_t latency_cycles)
    : bytes_per_cycle_(bytes_per_cycle),
      burst_bytes_(burst_bytes),
      latency_(latency_cycles),
      pending_(size_t(std::max(requesters, 1))),
      last_granted_(std::max(requesters, 1) - 1) {}

void RoundRobinLink::request(int requester, uint64_t bytes, uint64_t now, uint64_t moving_until) {
    Pending& p = pending_[size_t(requester)];
    assert(p.remaining == 0 && bytes > 0);
    p.moved_until = std::max(p.moved_until, moving_until);
    p.remaining = bytes;
    p.eligible_at = now + 1;
    p.bytes = bytes;
    p.data_ready = 0;
    p.moved = p.moved_until > p.eligible_at ? p.moved_until - p.eligible_at : 0;
    ++active_;
    if (!earliest_stale_) earliest_eligible_ = std::min(earliest_eligible_, p.eligible_at);
}

uint64_t RoundRobinLink::decision_slot() const {
    if (earliest_stale_) {
        earliest_eligible_ = kNever;
        for (const Pending& p : pending_)
            if (p.remaining) earliest_eligible_ = std::min(earliest_eligible_, p.eligible_at);
        earliest_stale_ = false;
    }
    return std::max(next_slot_, earliest_eligible_ * bytes_per_cycle_);
}

void RoundRobinLink::occupy(uint64_t from, uint64_t to) {
    uint64_t first = std::max(cycle_of(from), counted_to_);
    uint64_t end = cycle_of(to - 1) + 1;
    if (end > first) busy_cycles_ += end - first;
    counted_to_ = std::max(counted_to_, end);
    bytes_ += to - from;
    next_slot_ = to;
}

void RoundRobinLink::move(Pending& p, uint64_t from, uint64_t to) const {
    const uint64_t first = std::max(cycle_of(from), p.moved_until);
    const uint64_t end = cycle_of(to - 1) + 1;
    if (end > first) p.moved += end - first;
    p.moved_until = std::max(p.moved_until, end);
}

// Burst r takes slots [from + r*period, +S), cycles f_r .. l_r. The
// cycles they touch: the sum of (l_r - f_r + 1), less one for each pair
// of consecutive bursts meeting in a cycle (f_{r+1} == l_r, possible
// only when the gap between them, period - S, is under W - 1 slots;
// then f_{r+1} - l_r is 0 or 1), less one if p's burst before them
// ended in f_0. Floors are taken from `from mod W`: the whole cycles
// before it cancel in every difference.
template <typename T>
T RoundRobinLink::move_cycles(const Pending& p, uint64_t from, uint64_t rounds, uint64_t period) const {
    const T W = bytes_per_cycle_, S = burst_bytes_, base = from % bytes_per_cycle_, R = rounds;
    T cycles = floor_sum<T>(R, W, period, base + S - 1) - floor_sum<T>(R, W, period, base) + R;
    if (rounds > 1 && period - S + 1 < W)
        cycles -=
            (R - 1) - (floor_sum<T>(R - 1, W, period, base + period) - floor_sum<T>(R - 1, W, period, base + S - 1));
    if (p.moved_until > cycle_of(from)) cycles -= 1;
    return cycles;
}

void RoundRobinLink::move_periodic(Pending& p, uint64_t from, uint64_t rounds, uint64_t period) const {
    // When W divides the slot, the period and S (the documents' DDR: 64 B
    // bursts at 32 B/cycle), every burst is S / W whole cycles of its own.
    const uint64_t W = bytes_per_cycle_, S = burst_bytes_, base = from % W;
    if (base == 0 && period % W == 0 && S % W == 0) {
        p.moved += rounds * (S / W);
    } else if (rounds < (1u << 20) && period < (1u << 19) && W < (1u << 20) && S < (1u << 19)) {
        p.moved += move_cycles<uint64_t>(p, from, rounds, period);
    } else {
        p.moved += uint64_t(move_cycles<u128>(p, from, rounds, period));
    }
    p.moved_until = cycle_of(from + (rounds - 1) * period + S - 1) + 1;
}

int RoundRobinLink::grant_one(uint64_t at, bool& last_burst) {
    const uint64_t cycle = cycle_of(at);
    int n = int(pending_.size());
    for (int step = 1; step <= n; ++step) {
        int id = (last_granted_ + step) % n;
        Pending& p = pending_[size_t(id)];
        if (!p.remaining || p.eligible_at > cycle) continue;
        uint64_t b = std::min(p.remaining, burst_bytes_);
        if (observer_) p.data_ready = std::max(p.data_ready, observer_->on_burst(id, p.bytes - p.remaining, b, cycle));
        p.remaining -= b;
        occupy(at, at + b);
        move(p, at, at + b);
        last_granted_ = id;
        last_burst = p.remaining == 0;
        if (last_burst) --active_, earliest_stale_ = true;
        return id;
    }
    assert(false && "grant_one without an eligible request");
    return -1;
}

bool RoundRobinLink::skip_rounds(uint64_t limit) {
    // A round is one full burst for every active requester in id order after
    // the last granted one, which leaves the pointer at the last of them (where
    // the round started if that requester is itself active), so every round
    // has the same order; it is uniform only if every active requester is
    // already eligible and nobody reaches its last burst.
    if (observer_ || !active_) return false;
    const uint64_t at = next_slot_;
    uint64_t rounds = kNever;
    for (const Pending& p : pending_) {
        if (!p.remaining) continue;
        if (p.eligible_at > cycle_of(at)) return false;
        uint64_t bursts = arch::ceil_div(p.remaining, burst_bytes_);
        rounds = std::min(rounds, bursts - 1);
    }
    const uint64_t round_bytes = burst_bytes_ * uint64_t(active_);
    const uint64_t last_decision_offset = round_bytes - burst_bytes_;  // within a round
    if (limit != kNever) {
        // Round r's last decision is at slot at + r * round_bytes + offset,
        // which must lie in a cycle <= limit.
        const uint64_t last_slot = (limit + 1) * bytes_per_cycle_ - 1;
        if (last_slot < at + last_decision_offset) return false;
        rounds = std::min(rounds, (last_slot - at - last_decision_offset) / round_bytes + 1);
    }
    if (rounds == 0) return false;
    uint64_t first = at;  // the slot of each active requester's first burst, in round order
    int last_in_round = last_granted_;
    for (size_t step = 0, id = size_t(last_granted_); step < pending_.size(); ++step) {
        if (++id == pending_.size()) id = 0;
        Pending& p = pending_[id];
        if (!p.remaining) continue;
        move_periodic(p, first, rounds, round_bytes);
        first += burst_bytes_;
        last_in_round = int(id);
    }
    last_granted_ = last_in_round;
    for (Pending& p : pending_)
        if (p.remaining) p.remaining -= rounds * burst_bytes_;
    occupy(at, at + rounds * round_bytes);
    return true;
}

void RoundRobinLink::advance(uint64_t now, std::vector<Completion>& completed) {
    while (active_) {
        uint64_t at = decision_slot();
        if (cycle_of(at) > now) return;
        if (at == next_slot_ && skip_rounds(now)) continue;
        bool last = false;
        int id = grant_one(at, last);
        if (last) {
            // The transfer's last byte moves in the cycle of slot next_slot_ - 1.
            const Pending& p = pending_[size_t(id)];
            const uint64_t leaves = cycle_of(next_slot_ - 1) + 1;
            completed.push_back(
                {id, cycle_of(at), std::max(leaves + latency_, p.data_ready), p.moved_until - p.eligible_at - p.moved});
        }
    }
}

// In closed form, no burst replayed. While the set of eligible requesters
// stays the same, decisions take turns among them in id order after the
// last granted one, a full burst each, and the first transfer to end is the
// one with the fewest bursts left (the earliest in turn among equals): its
// last burst is grant (b - 1) * m + i, with b its bursts, m the eligible
// requesters and i its place in turn, every grant before it a full burst.
// When a pending request becomes eligible before that grant (it was issued
// in the last cycle), the grants in the cycles before it are taken turn by
// turn at once, it joins, and the prediction starts again: at most once per
// pending request.
uint64_t RoundRobinLink::next_final_grant(int* requester) const {
    if (requester) *requester = -1;
    if (!active_) return kNever;
    const size_t n = pending_.size();
    std::vector<uint64_t>& left = lookahead_;  // per requester: bytes still to grant
    left.resize(n);
    for (size_t id = 0; id < n; ++id) left[id] = pending_[id].remaining;
    uint64_t at = decision_slot();
    size_t last = size_t(last_granted_);
    for (;;) {
        const uint64_t cycle = cycle_of(at);
        uint64_t fewest = kNever, joins = kNever;
        size_t m = 0, place = 0, first = 0;
        for (size_t step = 0, id = last; step < n; ++step) {
            if (++id == n) id = 0;
            if (!left[id]) continue;
            if (pending_[id].eligible_at > cycle) {
                joins = std::min(joins, pending_[id].eligible_at);
                continue;
            }
            const uint64_t bursts = arch::ceil_div(left[id], burst_bytes_);
            if (bursts < fewest) fewest = bursts, place = m, first = id;
            ++m;
        }
        const uint64_t final_cycle = cycle_of(at + ((fewest - 1) * m + place) * burst_bytes_);
        if (final_cycle < joins) {
            if (requester) *requester = int(first);
            return final_cycle;
        }
        // The grants at slots before the join's cycle: none is a last burst.
        const uint64_t grants = arch::ceil_div(joins * bytes_per_cycle_ - at, burst_bytes_);
        const uint64_t rounds = grants / m, extra = grants % m;
        for (size_t step = 0, id = last, k = 0; step < n; ++step) {
            if (++id == n) id = 0;
            if (!left[id] || pending_[id].eligible_at > cycle) continue;
            left[id] -= (rounds + (k < extra)) * burst_bytes_;
            if (++k == (extra ? extra : m)) last = id;  // the requester of the last of those grants
        }
        at = std::max(at + grants * burst_bytes_, joins * bytes_per_cycle_);
    }
}

}  // namespace hw
