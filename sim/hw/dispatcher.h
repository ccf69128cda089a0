// Hands blocks to clusters (docs/timing-model.md §4): at each cycle, the
// lowest-numbered block whose dependencies have ended goes to the cluster
// with a free slot that holds the fewest blocks (the lowest-numbered among
// equals), at most P = max_parallel blocks in flight, ceil(P / clusters) per
// cluster; with vector.separate_cores each side of a cluster (its cube core,
// its vector cores) is dispatched so on its own. A slot freeing at cycle e is seen in the decision of cycle e,
// which the dispatcher makes at e + 1, once every event of cycle e is known.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include <systemc>

#include "sim/arch/block_source.h"
#include "sim/arch/program.h"
#include "sim/hw/cluster.h"

namespace hw {

class Dispatcher : public sc_core::sc_module {
public:
    // `program` gives max_parallel; its blocks come from `blocks`, each
    // acquired when it is dispatched and released when it ends.
    Dispatcher(sc_core::sc_module_name name, const arch::Program& program, arch::BlockSource& blocks,
               std::vector<Cluster*> clusters, const arch::Config& config, trace::Recorder* recorder);

    bool all_done() const { return done_ == blocks_.size(); }
    uint64_t end_cycle() const { return end_cycle_; }
    uint64_t block_start(size_t b) const { return start_[b]; }
    uint64_t block_end(size_t b) const { return end_[b]; }
    uint32_t block_cluster(size_t b) const { return cluster_of_[b]; }
    uint32_t block_slot(size_t b) const { return slot_of_[b]; }  // within its side

private:
    static constexpr uint64_t kNotYet = ~uint64_t{0};
    void run();
    void decide(uint64_t cycle);
    void block_finished(uint32_t cluster, uint32_t lane, uint64_t end);
    // Every block of `r` has ended by `cycle`; if not, `unfinished` is one
    // that has not ended at all (kNoBlock: all have, one after `cycle`).
    bool ended(const arch::BlockRange& r, uint64_t cycle, uint32_t& unfinished) const;

    arch::BlockSource& blocks_;
    std::vector<Cluster*> clusters_;
    uint64_t dispatch_cycles_;
    trace::Recorder* recorder_;   // told of every finished block (may be null)
    size_t slots_ = 1;            // blocks a side of a cluster holds at once
    size_t sides_ = 1;            // 2 with vector.separate_cores (arch::Side), else 1
    size_t in_flight_limit_ = 0;  // P, per side
    // Per cluster, side and slot, in that order (a cluster's lane
    // side * slots_ + k): the block it holds, -1 when free, and the cycle it
    // last freed.
    std::vector<int> running_block_;
    std::vector<uint64_t> free_at_;
    std::vector<uint64_t> start_, end_;
    std::vector<uint32_t> cluster_of_, slot_of_;
    size_t done_ = 0;
    // The blocks not dispatched yet that a decision looks at, per side
    // (arch::Side; one with a single side, so that a decision passes over
    // neither side's blocks once that side is full), in order: those never
    // set aside in a list (the first, and after each the next; kNoBlock:
    // none), those put back in an ordered set. A block not ready is set
    // aside until the block it waits for ends, a ready pinned one until a
    // block on its cluster's side ends: a decision then passes over it only
    // until then, not at every decision (a program of thousands of blocks
    // waiting on one another made dispatch quadratic). A decision takes the
    // same blocks: the lowest-numbered ready ones.
    static constexpr uint32_t kNoBlock = ~uint32_t{0};
    std::vector<uint32_t> first_unassigned_, next_unassigned_;
    std::vector<std::set<uint32_t>> put_back_;
    size_t side_of(uint32_t b) const { return sides_ == 1 ? 0 : size_t(blocks_.info(b).side); }
    // The blocks set aside: a list per block waited for and per cluster
    // side (c * sides_ + side), each its first block and after each the
    // next (a block is on one list at most); put back when it ends.
    std::vector<uint32_t> first_waiting_on_, first_waiting_for_side_, next_waiting_;
    void put_back(uint32_t& first);
    // Of the blocks block `b` (dispatch info `info`) waits for, one that
    // has not ended at all (kNoBlock: none; `ready` says whether all ended
    // by `cycle`). Decisions come in cycle order, so the dependencies found
    // ended stay ended: each block's are looked at from where the last look
    // stopped (`deps_ended_`, a count of its ranges; a block may wait for
    // thousands).
    uint32_t unfinished_dependency(uint32_t b, const arch::DispatchInfo& info, uint64_t cycle, bool& ready);
    std::vector<uint32_t> deps_ended_;
    // Blocks [0, ended_prefix_) have all ended, the last of them at
    // prefix_end_: most dependencies are answered from these two.
    size_t ended_prefix_ = 0;
    uint64_t prefix_end_ = 0;
    uint64_t end_cycle_ = 0;
    sc_core::sc_event_queue wake_;  // one notification per finished block
};

}  // namespace hw
