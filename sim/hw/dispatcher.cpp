#include "sim/hw/dispatcher.h"

#include <algorithm>

#include "sim/hw/sim_time.h"

namespace hw {

Dispatcher::Dispatcher(sc_core::sc_module_name name, const arch::Program& program, std::vector<Cluster*> clusters,
                       uint64_t dispatch_cycles, trace::Recorder* recorder)
    : sc_module(name),
      program_(program),
      clusters_(std::move(clusters)),
      dispatch_cycles_(dispatch_cycles),
      recorder_(recorder),
      start_(program.blocks.size(), kNotYet),
      end_(program.blocks.size(), kNotYet),
      cluster_of_(program.blocks.size(), 0),
      wake_("wake") {
    size_t usable = clusters_.size();
    if (program.max_parallel) usable = std::min<size_t>(usable, program.max_parallel);
    clusters_.resize(usable);
    running_block_.assign(usable, -1);
    free_at_.assign(usable, 0);
    for (Cluster* c : clusters_)
        c->on_block_finished = [this](uint32_t cluster, uint64_t end) { block_finished(cluster, end); };
    SC_HAS_PROCESS(Dispatcher);
    SC_THREAD(run);
}

void Dispatcher::run() {
    decide(0);
    while (!all_done()) {
        sc_core::wait(wake_.default_event());
        decide(now_cycles() - 1);
    }
}

void Dispatcher::decide(uint64_t cycle) {
    while (next_unassigned_ < start_.size() && start_[next_unassigned_] != kNotYet) ++next_unassigned_;
    // A cluster that frees at this very cycle may already have reported it
    // (decisions for cycle e - 1 run at e): only count it from its cycle on.
    auto is_free = [&](size_t c) { return running_block_[c] < 0 && free_at_[c] <= cycle; };
    auto any_free = [&] {
        for (size_t c = 0; c < clusters_.size(); ++c)
            if (is_free(c)) return true;
        return false;
    };
    for (size_t b = next_unassigned_; b < program_.blocks.size() && any_free(); ++b) {
        if (start_[b] != kNotYet) continue;
        const arch::Block& block = program_.blocks[b];
        bool ready = std::all_of(block.deps.begin(), block.deps.end(),
                                 [&](uint32_t d) { return end_[d] != kNotYet && end_[d] <= cycle; });
        // After a print, the whole program before it must drain first.
        for (size_t e = 0; ready && e < block.drain; ++e) ready = end_[e] != kNotYet && end_[e] <= cycle;
        if (!ready) continue;
        size_t c = 0;
        if (block.cluster != arch::Block::kAnyCluster) {
            // A pinned block waits for its cluster; later blocks may still go.
            c = size_t(block.cluster);
            if (!is_free(c)) continue;
        } else {
            while (c < clusters_.size() && !is_free(c)) ++c;
            if (c == clusters_.size()) continue;
        }
        running_block_[c] = int(b);
        start_[b] = cycle + dispatch_cycles_;
        cluster_of_[b] = uint32_t(c);
        clusters_[c]->run_block(block, uint32_t(b), start_[b]);
    }
}

void Dispatcher::block_finished(uint32_t cluster, uint64_t end) {
    int b = running_block_[cluster];
    running_block_[cluster] = -1;
    free_at_[cluster] = end;
    end_[size_t(b)] = end;
    end_cycle_ = std::max(end_cycle_, end);
    ++done_;
    if (recorder_) recorder_->on_block(uint32_t(b), cluster, start_[size_t(b)], end);
    wake_.notify(cycles(1));
}

}  // namespace hw
