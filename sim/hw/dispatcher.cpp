#include "sim/hw/dispatcher.h"

#include <algorithm>

#include "sim/arch/program_check.h"
#include "sim/hw/sim_time.h"

namespace hw {

Dispatcher::Dispatcher(sc_core::sc_module_name name, const arch::Program& program, arch::BlockSource& blocks,
                       std::vector<Cluster*> clusters, const arch::Config& config, trace::Recorder* recorder)
    : sc_module(name),
      blocks_(blocks),
      clusters_(std::move(clusters)),
      dispatch_cycles_(uint64_t(config.dispatch_cycles)),
      recorder_(recorder),
      start_(blocks.size(), kNotYet),
      end_(blocks.size(), kNotYet),
      cluster_of_(blocks.size(), 0),
      slot_of_(blocks.size(), 0),
      next_unassigned_(blocks.size(), kNoBlock),
      wake_("wake") {
    for (size_t b = 0; b + 1 < blocks.size(); ++b) next_unassigned_[b] = uint32_t(b + 1);
    first_unassigned_ = blocks.size() ? 0 : kNoBlock;
    in_flight_limit_ = size_t(arch::blocks_in_flight(program, config));
    slots_ = size_t(arch::blocks_per_cluster(program, config));
    sides_ = size_t(config.dispatch_sides());
    clusters_.resize(size_t(arch::clusters_in_use(program, config)));
    running_block_.assign(clusters_.size() * sides_ * slots_, -1);
    free_at_.assign(clusters_.size() * sides_ * slots_, 0);
    for (Cluster* c : clusters_) {
        c->set_slots(slots_);
        c->on_block_finished = [this](uint32_t cluster, uint32_t lane, uint64_t end) {
            block_finished(cluster, lane, end);
        };
    }
    SC_HAS_PROCESS(Dispatcher);
    SC_THREAD(run);
}

void Dispatcher::run() {
    count_activation();
    decide(0);
    while (!all_done()) {
        suspend(wake_.default_event());
        decide(now_cycles() - 1);
    }
}

void Dispatcher::decide(uint64_t cycle) {
    // A slot that frees at this very cycle may already have reported it
    // (decisions for cycle e - 1 run at e): only count it from its cycle on.
    auto is_free = [&](size_t slot) { return running_block_[slot] < 0 && free_at_[slot] <= cycle; };
    // Each side of each cluster (c * sides_ + side) is dispatched as a
    // cluster of its own: its blocks held, its blocks in flight.
    std::vector<size_t> in_flight(sides_, 0);
    std::vector<size_t> held(clusters_.size() * sides_, 0);  // per cluster and side: slots not free
    for (size_t i = 0; i < running_block_.size(); ++i)
        if (!is_free(i)) ++in_flight[(i / slots_) % sides_], ++held[i / slots_];
    // The cluster with a free slot on `side` holding the fewest blocks there,
    // lowest-numbered first; clusters_.size() for none.
    auto pick = [&](size_t first, size_t last, size_t side) {
        size_t best = clusters_.size();
        for (size_t c = first; c < last; ++c) {
            const size_t h = held[c * sides_ + side];
            if (h < slots_ && (best == clusters_.size() || h < held[best * sides_ + side])) best = c;
        }
        return best;
    };
    std::vector<bool> full(sides_, false);  // no more blocks go to this side in this decision
    size_t full_sides = 0;
    // The unassigned blocks in order (a linked list, so that the blocks
    // dispatched out of order, around a pinned block waiting for its
    // cluster, are not scanned again).
    uint32_t before = kNoBlock;  // the last block kept in the list
    for (uint32_t b = first_unassigned_, next = 0; b != kNoBlock && full_sides < sides_; b = next) {
        next = next_unassigned_[b];
        auto keep = [&] { before = b; };
        const arch::DispatchInfo& block = blocks_.info(b);
        const size_t side = sides_ == 1 ? 0 : size_t(block.side);
        if (full[side]) {
            keep();
            continue;
        }
        if (in_flight[side] >= in_flight_limit_) {
            full[side] = true, ++full_sides;
            keep();
            continue;
        }
        // A pinned block waits for its cluster; later blocks may still go.
        // Every cluster's side full: no later block goes there either.
        const bool pinned = block.cluster != arch::Block::kAnyCluster;
        const size_t c =
            pinned ? pick(size_t(block.cluster), size_t(block.cluster) + 1, side) : pick(0, clusters_.size(), side);
        if (c == clusters_.size()) {
            if (!pinned || pick(0, clusters_.size(), side) == clusters_.size()) full[side] = true, ++full_sides;
            keep();
            continue;
        }
        bool ready = std::all_of(block.deps.begin(), block.deps.end(),
                                 [&](const arch::BlockRange& r) { return ended(r, cycle); });
        // After a print, the whole program before it must drain first.
        if (ready && block.drain > 0) ready = ended({0, block.drain}, cycle);
        if (!ready) {
            keep();
            continue;
        }
        (before == kNoBlock ? first_unassigned_ : next_unassigned_[before]) = next;
        const size_t first_slot = (c * sides_ + side) * slots_;
        size_t slot = 0;
        while (!is_free(first_slot + slot)) ++slot;
        running_block_[first_slot + slot] = int(b);
        ++held[c * sides_ + side];
        ++in_flight[side];
        start_[b] = cycle + dispatch_cycles_;
        cluster_of_[b] = uint32_t(c);
        slot_of_[b] = uint32_t(slot);
        clusters_[c]->run_block(blocks_.acquire(b), uint32_t(b), uint32_t(side * slots_ + slot), start_[b]);
    }
}

bool Dispatcher::ended(const arch::BlockRange& r, uint64_t cycle) const {
    if (r.last <= ended_prefix_ && prefix_end_ <= cycle) return true;
    // From the last: later blocks tend to end later, so a block still
    // running is found at once.
    for (size_t d = r.last; d-- > r.first;)
        if (end_[d] == kNotYet || end_[d] > cycle) return false;
    return true;
}

void Dispatcher::block_finished(uint32_t cluster, uint32_t lane, uint64_t end) {
    const size_t i = size_t(cluster) * sides_ * slots_ + lane;
    int b = running_block_[i];
    running_block_[i] = -1;
    free_at_[i] = end;
    end_[size_t(b)] = end;
    end_cycle_ = std::max(end_cycle_, end);
    ++done_;
    for (; ended_prefix_ < end_.size() && end_[ended_prefix_] != kNotYet; ++ended_prefix_)
        prefix_end_ = std::max(prefix_end_, end_[ended_prefix_]);
    if (recorder_) recorder_->on_block(uint32_t(b), cluster, start_[size_t(b)], end);
    // Every engine and recorder is done with the block's commands.
    blocks_.release(size_t(b));
    wake_.notify(cycles(1));
}

}  // namespace hw
