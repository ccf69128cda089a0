// The arbitration and bandwidth logic of one shared link (the DDR channel,
// a cluster's L1 port), exactly as docs/timing-model.md §6 specifies, in
// plain C++ so that it costs no simulator events per burst.
//
// The link is timed in byte slots: cycle c offers the W slots
// [c*W, (c+1)*W), so it moves W bytes per cycle whatever the burst size, and
// several bursts share a cycle when they are smaller than W. Requesters take
// turns one burst at a time, round-robin by requester id. A request issued
// at cycle t is eligible from cycle t+1 ("registered"), so the outcome never
// depends on which SystemC process ran first within a cycle. Instead of
// stepping every burst, whole rounds in which every active requester moves a
// full burst are skipped in O(requesters).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace hw {

class RoundRobinLink {
public:
    static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

    struct Completion {
        int requester;
        uint64_t granted;  // the cycle its last burst was granted: the requester may issue again
        uint64_t cycle;    // the cycle the transfer completes (its last byte's cycle + 1 + latency, or
                           // later if its observer says so)
        // Cycles from its eligibility to its last byte in which none of the
        // requester's bytes crossed the link: it waited for others (§9).
        uint64_t link_wait;
    };

    // Sees every burst as it is granted, in grant order (the L2 cache, §6.1),
    // and returns the cycle the burst's data is ready beyond the link's own
    // latency (0: no later than that). A link with an observer grants burst
    // by burst, never skipping rounds.
    class BurstObserver {
    public:
        virtual ~BurstObserver() = default;
        // Bytes [offset, offset + bytes) of `requester`'s request, granted at `cycle`.
        virtual uint64_t on_burst(int requester, uint64_t offset, uint64_t bytes, uint64_t cycle) = 0;
    };

    RoundRobinLink(int requesters, uint64_t bytes_per_cycle, uint64_t burst_bytes, uint64_t latency_cycles);

    // A transfer of `bytes` (> 0) issued at cycle `now`. One at a time per
    // requester: the next may be issued from the cycle the last burst of
    // this one was granted. `moving_until`: the cycle after the last in
    // which the requester's bytes cross another link (the L2's other port,
    // §6.1), which count as its own for link waits (§9).
    void request(int requester, uint64_t bytes, uint64_t now, uint64_t moving_until = 0);

    // The cycle after the last in which `requester`'s bytes crossed the link.
    uint64_t moving_until(int requester) const { return pending_[std::size_t(requester)].moved_until; }

    // Makes every arbitration decision at cycles <= now and appends the
    // transfers whose last burst was granted. Decisions at a cycle <= now are
    // final: requests issued at `now` are only eligible from now + 1.
    void advance(uint64_t now, std::vector<Completion>& completed);

    // The cycle of the next decision that grants some transfer's last burst,
    // if no further requests arrive; kNever when the link has nothing pending.
    // `requester` (if not null) is set to the requester of that transfer
    // (-1 with kNever): when several last bursts are granted in that cycle,
    // the first of them.
    uint64_t next_final_grant(int* requester = nullptr) const;

    // The cycle of the next arbitration decision, if no further requests
    // arrive; kNever when nothing is pending. Two links whose observer is
    // the same L2 are advanced decision cycle by decision cycle with it, so
    // that the L2 sees both links' bursts in cycle order (§6.1).
    uint64_t next_decision_cycle() const { return active_ ? cycle_of(decision_slot()) : kNever; }

    void observe(BurstObserver* observer) { observer_ = observer; }

    // Cycles in which at least one byte crossed the link.
    uint64_t busy_cycles() const { return busy_cycles_; }
    uint64_t bytes() const { return bytes_; }
    int requesters() const { return int(pending_.size()); }

private:
    struct Pending {
        uint64_t remaining = 0;  // 0: no request
        uint64_t eligible_at = 0;
        uint64_t bytes = 0;       // the request's size
        uint64_t data_ready = 0;  // the latest data cycle its bursts' observer gave
        // Link waits (§9): the cycles from eligible_at that carry some of the
        // requester's bytes, and the cycle after the last one that does
        // (kept across requests: a burst longer than W may still be moving
        // when the next request becomes eligible).
        uint64_t moved = 0, moved_until = 0;
    };

    // The byte slot of the next decision. Precondition: some request is pending.
    uint64_t decision_slot() const;
    // One decision at byte slot `at`; returns the requester granted and
    // whether it was its last burst.
    int grant_one(uint64_t at, bool& last_burst);
    // Skips whole rounds whose every decision is at a cycle <= limit;
    // returns false if no round can be skipped.
    bool skip_rounds(uint64_t limit);
    // Slots [from, to) were granted: counts the cycles they touch.
    void occupy(uint64_t from, uint64_t to);
    // Slots [from, to) carry p's bytes: counts the cycles new to p.
    void move(Pending& p, uint64_t from, uint64_t to) const;
    // p's bursts of `rounds` skipped rounds, the first at slot `from`, one
    // every `period` slots: the same count in closed form.
    void move_periodic(Pending& p, uint64_t from, uint64_t rounds, uint64_t period) const;
    template <typename T>  // its count, in T (sim/hw/floor_sum.h)
    T move_cycles(const Pending& p, uint64_t from, uint64_t rounds, uint64_t period) const;
    uint64_t cycle_of(uint64_t slot) const { return slot / bytes_per_cycle_; }

    uint64_t bytes_per_cycle_, burst_bytes_, latency_;
    std::vector<Pending> pending_;
    int active_ = 0;
    int last_granted_;
    uint64_t next_slot_ = 0;   // the first byte slot not yet granted
    uint64_t counted_to_ = 0;  // busy cycles counted: those below this cycle
    uint64_t busy_cycles_ = 0;
    uint64_t bytes_ = 0;
    BurstObserver* observer_ = nullptr;
    mutable std::vector<uint64_t> lookahead_;  // next_final_grant's scratch, kept to spare an allocation
    // The earliest eligible_at of the pending requests (kNever: none), found
    // again only after a request ends: decision_slot needs it per decision.
    mutable uint64_t earliest_eligible_ = kNever;
    mutable bool earliest_stale_ = false;
};

}  // namespace hw
