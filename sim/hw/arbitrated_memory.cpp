#include "sim/hw/arbitrated_memory.h"

#include <algorithm>
#include <stdexcept>

#include "sim/hw/ddr_region_extension.h"
#include "sim/hw/link_wait_extension.h"
#include "sim/hw/sim_time.h"

namespace hw {

ArbitratedMemory::ArbitratedMemory(sc_core::sc_module_name name, const LinkParams& params)
    : sc_module(name), socket("socket"), params_(params) {
    socket.register_b_transport(this, &ArbitratedMemory::b_transport);
}

ArbitratedMemory::ArbitratedMemory(sc_core::sc_module_name name, const LinkParams& params,
                                   const arch::Config* l2_config, trace::Recorder* recorder)
    : ArbitratedMemory(name, params) {
    l2_config_ = l2_config;
    recorder_ = recorder;
}

void ArbitratedMemory::before_end_of_elaboration() {
    int n = int(socket.size());
    link_ = std::make_unique<RoundRobinLink>(n, params_.bytes_per_cycle, params_.burst_bytes, params_.latency_cycles);
    // Only a memory with a limited path needs them (§6.2): neither the DDR
    // side nor an L1 port unless a rate is set.
    if (params_.paths.limited()) paths_ = std::make_unique<DmaPaths>(n, params_.paths);
    if (params_.write_bytes_per_cycle)
        write_link_ = std::make_unique<RoundRobinLink>(n, params_.write_bytes_per_cycle, params_.burst_bytes,
                                                       params_.latency_cycles);
    if (l2_config_) {
        l2_ = std::make_unique<L2Memory>(*l2_config_, n, recorder_);
        link_->observe(l2_.get());
        if (write_link_) write_link_->observe(l2_.get());
    }
    for (int i = 0; i < n; ++i) granted_.push_back(std::make_unique<sc_core::sc_event>());
    done_.assign(size_t(n), 0);
    completes_at_.assign(size_t(n), 0);
    link_wait_.assign(size_t(n), 0);
}

void ArbitratedMemory::b_transport(int requester, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    // Requests are never temporally decoupled: an initiator running ahead
    // would reorder them and break the exact arbitration. Only the response
    // carries a delay.
    if (delay != sc_core::SC_ZERO_TIME)
        throw std::logic_error(std::string(name()) + ": annotated delay on a shared link");
    uint64_t bytes = trans.get_data_length();
    if (trans.get_address() >= params_.capacity_bytes || bytes == 0) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    (trans.is_read() ? bytes_read_ : bytes_written_) += bytes;
    if (l2_) {
        const DdrRegionExtension* ext = trans.get_extension<DdrRegionExtension>();
        if (!ext) throw std::logic_error(std::string(name()) + ": a request to the L2 without its DDR region");
        l2_->begin(requester, ext->region, !trans.is_read());
    }
    // Decisions up to now first: they do not depend on the request
    // (eligible from the next cycle), and the link skips whole rounds only
    // while every pending request is eligible.
    decide(requester);
    done_[size_t(requester)] = 0;
    // With two ports, the requester's last bytes on the other one may still
    // be moving: those cycles are not link waits (§9).
    const bool writes_apart = write_link_ && !trans.is_read();
    RoundRobinLink& port = writes_apart ? *write_link_ : *link_;
    const RoundRobinLink* other = !write_link_ ? nullptr : writes_apart ? link_.get() : write_link_.get();
    port.request(requester, bytes, now_cycles(), other ? other->moving_until(requester) : 0);
    if (paths_) paths_->request(requester, !trans.is_read(), bytes, now_cycles() + 1);
    schedule_wake();
    while (!done_[size_t(requester)]) {
        suspend(*granted_[size_t(requester)]);
        decide(requester);
        schedule_wake();
    }
    delay = cycles(completes_at_[size_t(requester)] - now_cycles());
    if (LinkWaitExtension* wait = trans.get_extension<LinkWaitExtension>())
        wait->cycles = link_wait_[size_t(requester)];
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void ArbitratedMemory::decide(int self) {
    const uint64_t now = now_cycles();
    // The timed wake-up fired at the start of this cycle (its initiator may
    // not have run yet): it is not pending any more.
    if (wake_at_ == now) {
        fired_ = woken_;
        fired_at_ = now;
        woken_ = -1;
        wake_at_ = RoundRobinLink::kNever;
    }
    advance_ports(now);
    for (const RoundRobinLink::Completion& c : completed_) {
        if (c.granted != now || c.cycle <= now)
            throw std::logic_error(std::string(name()) + ": last burst granted in the past");
        const size_t r = size_t(c.requester);
        done_[r] = 1;
        // §6.2: no sooner than it leaves its path, plus the latency.
        const uint64_t path = paths_ ? paths_->leaves(c.requester) : 0;
        completes_at_[r] = path ? std::max(c.cycle, path + params_.latency_cycles) : c.cycle;
        link_wait_[r] = c.link_wait;
        // The one woken at this cycle is running or about to.
        const bool woken_now = c.requester == fired_ && fired_at_ == now;
        if (c.requester != self && !woken_now) granted_[r]->notify(sc_core::SC_ZERO_TIME);
    }
    completed_.clear();
}

void ArbitratedMemory::advance_ports(uint64_t now) {
    if (!write_link_) {
        link_->advance(now, completed_);
        return;
    }
    // Each port's decisions change nothing of the other's, but both hand
    // their bursts to the one L2, whose outcome depends on their order.
    for (;;) {
        const uint64_t reads = link_->next_decision_cycle(), writes = write_link_->next_decision_cycle();
        const uint64_t cycle = std::min(reads, writes);
        if (cycle > now) return;
        if (reads == cycle) link_->advance(cycle, completed_);
        if (writes == cycle) write_link_->advance(cycle, completed_);
    }
}

void ArbitratedMemory::schedule_wake() {
    const uint64_t now = now_cycles();
    int next_woken = -1;
    uint64_t next = link_->next_final_grant(&next_woken);
    if (write_link_) {
        // The earlier of the two ports' next last bursts (the read port's
        // on a tie: the other is woken a delta later by decide).
        int write_woken = -1;
        const uint64_t write_next = write_link_->next_final_grant(&write_woken);
        if (write_next < next) next = write_next, next_woken = write_woken;
    }
    if (next == wake_at_ && next_woken == woken_) return;
    if (wake_at_ != RoundRobinLink::kNever) granted_[size_t(woken_)]->cancel();
    woken_ = next_woken;
    wake_at_ = next;
    if (next != RoundRobinLink::kNever) granted_[size_t(next_woken)]->notify(cycles(next - now));
}

}  // namespace hw
