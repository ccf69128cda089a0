// What the L2 cache does to the cluster DMA engines' traffic
// (docs/timing-model.md §6.1): every burst the L2 port grants is looked up
// line by line (a gather's, whose addresses the timing cannot know, is read
// past the cache, each row's part a miss of its own bytes); misses and
// write-backs queue DDR transfers, which the DDR channel serves one after
// another. Plain C++, driven by the L2 port's
// RoundRobinLink through its burst observer.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/ddr_region.h"
#include "sim/hw/l2_cache.h"
#include "sim/hw/round_robin_link.h"
#include "sim/trace/recorder.h"

namespace hw {

class L2Memory : public RoundRobinLink::BurstObserver {
public:
    L2Memory(const arch::Config& c, int requesters, trace::Recorder* recorder);

    // The request `requester` is about to make: its DDR-side region, and
    // whether it writes DDR.
    void begin(int requester, const arch::DdrRegion& region, bool writes);
    uint64_t on_burst(int requester, uint64_t offset, uint64_t bytes, uint64_t cycle) override;

    const L2Cache::Stats& stats() const { return cache_.stats(); }
    uint64_t line_bytes() const { return line_; }
    uint64_t flush_bytes() const { return cache_.dirty_lines() * line_; }
    // Fills and gathered rows (§6.1).
    uint64_t ddr_bytes_read() const { return fills_ * line_ + gathered_bytes_; }
    uint64_t ddr_bytes_written() const { return cache_.stats().writebacks * line_; }
    // Cycles in which at least one byte crossed the DDR channel.
    uint64_t ddr_busy_cycles() const { return ddr_busy_; }

private:
    struct Current {
        arch::DdrRegion region;
        bool writes = false;
    };
    // Queues one L2 <-> DDR transfer at cycle `cycle`; returns the cycle its
    // data is in the L2 (a fill) or out of it (a write-back).
    uint64_t queue(bool fill, uint64_t line, uint64_t cycle, uint64_t bytes);

    L2Cache cache_;
    uint64_t line_, ddr_bytes_per_cycle_, ddr_latency_;
    std::vector<Current> current_;  // per requester
    trace::Recorder* recorder_;
    uint64_t ddr_next_slot_ = 0;   // the DDR channel's first free byte slot
    uint64_t ddr_counted_to_ = 0;  // busy cycles counted: those below this cycle
    uint64_t ddr_busy_ = 0;
    uint64_t fills_ = 0;
    uint64_t gathered_bytes_ = 0;  // gathered rows read from DDR past the cache
};

}  // namespace hw
