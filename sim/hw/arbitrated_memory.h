// A memory whose port is a shared, arbitrated link: the DDR channel (shared
// by every cluster's DMA engines) and each cluster's L1 (shared by its
// cubes' DMA engines). A TLM-2.0 target: each initiator bound to the socket
// is one requester of the round-robin arbiter, numbered in binding order.
//
// The model is timing-only: payloads carry no data pointer; the data length
// is the number of bytes crossing the link.
//
// b_transport returns in the cycle the transfer's last burst is granted,
// when the initiator may issue its next request, with `delay` set to the
// time until the transfer completes (its data has arrived, latency
// included): the DMA engine keeps several requests in flight that way
// (timing model §5).
//
// The arbiter has no process of its own: the link is brought up to date by
// the initiators' threads, in b_transport, when a request arrives and when
// a waiting initiator wakes. Decisions at a cycle <= now never depend on a
// request issued at now (it is eligible from now + 1), so bringing the link
// up to now from any process at now gives the same grants. The link predicts
// the next last burst in closed form (which transfer, which cycle): only
// that initiator's wake-up is scheduled, at that cycle, and moved when a new
// request changes the prediction. An initiator whose last burst is granted
// in a cycle it was not woken for (another's in the same cycle) is woken
// one delta later.
//
// With an L2 cache (the DDR channel's memory when l2.kib > 0), the port is
// the L2's and the L2 looks up every burst it grants (§6.1): the transfer
// completes when its data is there, and the DDR channel behind it serves
// the L2's fills and write-backs. Its requests carry a DdrRegionExtension.
// With a write port of its own (l2.write_bytes_per_cycle > 0), writes are
// arbitrated on a second link; both are brought up to date together, one
// decision cycle at a time, the read port's first within a cycle.
//
// On the DDR side each request also crosses its engine's read or write
// path (§6.2, DmaPaths): a transfer completes no sooner than it leaves its
// path, plus the latency.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include "sim/hw/dma_paths.h"
#include "sim/hw/l2_memory.h"
#include "sim/hw/round_robin_link.h"

namespace hw {

struct LinkParams {
    uint64_t capacity_bytes = 0;
    uint64_t bytes_per_cycle = 1;
    uint64_t burst_bytes = 1;
    uint64_t latency_cycles = 0;
    // The requesters' read and write paths (§6.2): on the DDR side the
    // clusters' and vector units', on an L1 port each cube's read path.
    PathLayout paths;
    // > 0: writes cross a port of their own at this bandwidth (the L2's
    // write port, §6.1), with the same burst and latency; bytes_per_cycle
    // is then the read port's.
    uint64_t write_bytes_per_cycle = 0;
};

class ArbitratedMemory : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<ArbitratedMemory> socket;

    ArbitratedMemory(sc_core::sc_module_name name, const LinkParams& params);
    // With `l2_config` (not null), the DDR channel behind an L2 cache:
    // `params` are the L2 port's; the recorder sees its DDR transfers.
    ArbitratedMemory(sc_core::sc_module_name name, const LinkParams& params, const arch::Config* l2_config,
                     trace::Recorder* recorder);

    const LinkParams& params() const { return params_; }
    uint64_t bytes_read() const { return bytes_read_; }
    uint64_t bytes_written() const { return bytes_written_; }
    // The port's busy cycles; with a write port of its own, the read port's.
    uint64_t busy_cycles() const { return link_ ? link_->busy_cycles() : 0; }
    uint64_t write_port_busy_cycles() const { return write_link_ ? write_link_->busy_cycles() : 0; }
    // The L2 cache behind the port, if there is one.
    const L2Memory* l2() const { return l2_.get(); }

private:
    void before_end_of_elaboration() override;
    void b_transport(int requester, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    // Makes every decision up to now and wakes the initiators whose last
    // burst was granted (but `self`, the caller).
    void decide(int self);
    // Schedules the wake-up of the initiator of the next last burst (moves
    // it if the prediction changed).
    void schedule_wake();

    LinkParams params_;
    // Makes every decision of both ports at cycles <= now, in cycle order
    // (the L2 looks their bursts up in that order, §6.1).
    void advance_ports(uint64_t now);

    std::unique_ptr<RoundRobinLink> link_;        // sized once the socket is bound
    std::unique_ptr<RoundRobinLink> write_link_;  // likewise; only with a write port of its own
    std::unique_ptr<DmaPaths> paths_;             // likewise; null without a limited path
    const arch::Config* l2_config_ = nullptr;
    trace::Recorder* recorder_ = nullptr;
    std::unique_ptr<L2Memory> l2_;
    std::vector<std::unique_ptr<sc_core::sc_event>> granted_;  // per requester: wakes its initiator
    std::vector<char> done_;                                   // per requester: its last burst was granted
    std::vector<uint64_t> completes_at_;                       // per requester: the cycle its transfer completes
    std::vector<uint64_t> link_wait_;                          // per requester: its transfer's link wait (§9)
    std::vector<RoundRobinLink::Completion> completed_;
    // The one timed wake-up pending: requester `woken` at cycle `wake_at`
    // (kNever: none).
    int woken_ = -1;
    uint64_t wake_at_ = RoundRobinLink::kNever;
    int fired_ = -1;  // the requester of the last timed wake-up to fire, and its cycle
    uint64_t fired_at_ = RoundRobinLink::kNever;
    uint64_t bytes_read_ = 0, bytes_written_ = 0;
};

}  // namespace hw
