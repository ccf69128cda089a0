#include "sim/hw/l2_memory.h"

#include <algorithm>

#include "sim/arch/ceil_div.h"

namespace hw {

L2Memory::L2Memory(const arch::Config& c, int requesters, trace::Recorder* recorder)
    : cache_(uint64_t(c.l2_sets()), uint64_t(c.l2_ways)),
      line_(uint64_t(c.l2_line_bytes)),
      ddr_bytes_per_cycle_(uint64_t(c.ddr_bytes_per_cycle)),
      ddr_latency_(uint64_t(c.ddr_latency_cycles)),
      current_(size_t(std::max(requesters, 1))),
      recorder_(recorder) {}

void L2Memory::begin(int requester, const arch::DdrRegion& region, bool writes) {
    current_[size_t(requester)] = {region, writes};
}

uint64_t L2Memory::queue(bool fill, uint64_t line, uint64_t cycle, uint64_t bytes) {
    const uint64_t W = ddr_bytes_per_cycle_;
    const uint64_t p = std::max(ddr_next_slot_, (cycle + 1) * W);
    ddr_next_slot_ = p + bytes;
    const uint64_t first = std::max(p / W, ddr_counted_to_);
    const uint64_t leave = arch::ceil_div(ddr_next_slot_, W);
    if (leave > first) ddr_busy_ += leave - first;
    ddr_counted_to_ = std::max(ddr_counted_to_, leave);
    const uint64_t data = fill ? leave + ddr_latency_ : leave;
    if (recorder_) recorder_->on_ddr_transfer({fill, line, bytes, cycle, p / W, leave, data});
    return data;
}

uint64_t L2Memory::on_burst(int requester, uint64_t offset, uint64_t bytes, uint64_t cycle) {
    const Current& cur = current_[size_t(requester)];
    uint64_t ready = 0;
    if (cur.region.gathered) {
        // Addresses the timing cannot know: each row's part of the burst is
        // a read miss of its own bytes, no lookup and nothing installed.
        arch::for_each_row_part(cur.region, offset, bytes, [&](uint64_t, uint64_t, uint64_t part) {
            gathered_bytes_ += part;
            ready = std::max(ready, queue(true, 0, cycle, part));
        });
        return ready;
    }
    arch::for_each_line(cur.region, offset, bytes, line_, [&](uint64_t line) {
        const L2Cache::Outcome o = cache_.access(line, cur.writes);
        if (!o.hit) {
            // The new line takes the way once the old one is out, and a
            // read's once its fill has arrived.
            uint64_t there = cycle;
            if (o.writeback) there = queue(false, o.victim, cycle, line_);
            if (!cur.writes) {
                ++fills_;
                there = queue(true, line, cycle, line_);
            }
            cache_.set_ready(o.way, there);
        }
        ready = std::max(ready, cache_.ready(o.way));
    });
    return ready;
}

}  // namespace hw
