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
      first_waiting_on_(blocks.size(), kNoBlock),
      next_waiting_(blocks.size(), kNoBlock),
      deps_ended_(blocks.size(), 0),
      wake_("wake") {
    in_flight_limit_ = size_t(arch::blocks_in_flight(program, config));
    slots_ = size_t(arch::blocks_per_cluster(program, config));
    sides_ = size_t(config.dispatch_sides());
    first_unassigned_.assign(sides_, kNoBlock);
    put_back_.resize(sides_);
    std::vector<uint32_t> last(sides_, kNoBlock);
    for (uint32_t b = 0; b < blocks.size(); ++b) {
        const size_t s = side_of(b);
        (last[s] == kNoBlock ? first_unassigned_[s] : next_unassigned_[last[s]]) = b;
        last[s] = b;
    }
    clusters_.resize(size_t(arch::clusters_in_use(program, config)));
    running_block_.assign(clusters_.size() * sides_ * slots_, -1);
    first_waiting_for_side_.assign(clusters_.size() * sides_, kNoBlock);
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
    // The unassigned blocks but those set aside, both sides' in one order,
    // the lowest-numbered first; a full side's no further. Per side, where
    // the decision is in the list (`at`, after `before`) and in the set.
    struct Cursor {
        uint32_t before = kNoBlock, at = kNoBlock;
        std::set<uint32_t>::iterator back;
    };
    std::vector<Cursor> cur(sides_);
    for (size_t k = 0; k < sides_; ++k) cur[k].at = first_unassigned_[k], cur[k].back = put_back_[k].begin();
    auto set_head = [&](size_t k) { return cur[k].back == put_back_[k].end() ? kNoBlock : *cur[k].back; };
    auto head = [&](size_t k) { return std::min(cur[k].at, set_head(k)); };
    auto in_list = [&](size_t k) { return cur[k].at < set_head(k); };  // the head is the list's
    // Past the block looked at on side k, keeping it, or taking it out.
    auto keep = [&](size_t k) {
        Cursor& c = cur[k];
        if (in_list(k)) c.before = c.at, c.at = next_unassigned_[c.at];
        else ++c.back;
    };
    auto take_out = [&](size_t k) {
        Cursor& c = cur[k];
        if (!in_list(k)) {
            c.back = put_back_[k].erase(c.back);
            return;
        }
        const uint32_t next = next_unassigned_[c.at];
        (c.before == kNoBlock ? first_unassigned_[k] : next_unassigned_[c.before]) = next;
        c.at = next;
    };
    while (full_sides < sides_) {
        size_t side = sides_;
        uint32_t b = kNoBlock;
        for (size_t k = 0; k < sides_; ++k)
            if (const uint32_t h = full[k] ? kNoBlock : head(k); h < b) b = h, side = k;
        if (side == sides_) break;
        const arch::DispatchInfo& block = blocks_.info(b);
        if (in_flight[side] >= in_flight_limit_) {
            full[side] = true, ++full_sides;
            keep(side);
            continue;
        }
        // Not ready until the block found unfinished ends: set aside till
        // then (a block whose dependencies all ended, one after `cycle`,
        // stays).
        bool ready = false;
        const uint32_t waits_for = unfinished_dependency(b, block, cycle, ready);
        if (!ready) {
            if (waits_for != kNoBlock) {
                take_out(side);
                next_waiting_[b] = first_waiting_on_[waits_for], first_waiting_on_[waits_for] = b;
            } else {
                keep(side);
            }
            continue;
        }
        // A pinned block waits for its cluster; later blocks may still go.
        // Every cluster's side full: no later block goes there either.
        const bool pinned = block.cluster != arch::Block::kAnyCluster;
        const size_t c =
            pinned ? pick(size_t(block.cluster), size_t(block.cluster) + 1, side) : pick(0, clusters_.size(), side);
        if (c == clusters_.size()) {
            if (!pinned || pick(0, clusters_.size(), side) == clusters_.size()) full[side] = true, ++full_sides;
            // A pinned block is set aside while every slot there runs a
            // block (a slot whose block has ended frees at its end cycle,
            // which a later decision sees).
            auto all_running = [&] {
                const auto lanes =
                    running_block_.begin() + std::ptrdiff_t((size_t(block.cluster) * sides_ + side) * slots_);
                return std::all_of(lanes, lanes + std::ptrdiff_t(slots_), [](int r) { return r >= 0; });
            };
            if (pinned && all_running()) {
                take_out(side);
                uint32_t& first = first_waiting_for_side_[size_t(block.cluster) * sides_ + side];
                next_waiting_[b] = first, first = b;
            } else {
                keep(side);
            }
            continue;
        }
        take_out(side);
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

uint32_t Dispatcher::unfinished_dependency(uint32_t b, const arch::DispatchInfo& info, uint64_t cycle, bool& ready) {
    ready = false;
    // The first of the block's dependency ranges not found ended, then
    // (after a print) the whole program before it, which must drain first.
    uint32_t& from = deps_ended_[b];
    uint32_t unfinished = kNoBlock;
    for (; from < info.deps.size(); ++from)
        if (!ended(info.deps[from], cycle, unfinished)) return unfinished;
    if (info.drain > 0 && !ended({0, info.drain}, cycle, unfinished)) return unfinished;
    ready = true;
    return kNoBlock;
}

bool Dispatcher::ended(const arch::BlockRange& r, uint64_t cycle, uint32_t& unfinished) const {
    unfinished = kNoBlock;
    if (r.last <= ended_prefix_ && prefix_end_ <= cycle) return true;
    // From the last: later blocks tend to end later, so a block still
    // running is found at once. One that ended after `cycle` decides, but
    // the look goes on for one still running, down to ended_prefix_ (below
    // it every block has ended).
    bool late = false;
    for (size_t d = r.last; d-- > r.first;) {
        if (end_[d] == kNotYet) {
            unfinished = uint32_t(d);
            return false;
        }
        late = late || end_[d] > cycle;
        if (late && d <= ended_prefix_) break;
    }
    return !late;
}

void Dispatcher::put_back(uint32_t& first) {
    for (uint32_t w = first, next = 0; w != kNoBlock; w = next) {
        next = next_waiting_[w];
        next_waiting_[w] = kNoBlock;
        put_back_[side_of(w)].insert(w);
    }
    first = kNoBlock;
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
    // What waited for it, or for a slot on its cluster's side, is looked
    // at again (it may wait for more).
    put_back(first_waiting_on_[size_t(b)]);
    put_back(first_waiting_for_side_[size_t(cluster) * sides_ + lane / slots_]);
    if (recorder_) recorder_->on_block(uint32_t(b), cluster, start_[size_t(b)], end);
    // Every engine and recorder is done with the block's commands.
    blocks_.release(size_t(b));
    wake_.notify(cycles(1));
}

}  // namespace hw
