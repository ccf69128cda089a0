// The L2 cache's state: set-associative, least recently used replacement,
// write-back and write-allocate without fetch (docs/timing-model.md §6.1).
// Plain C++, no timing: L2Memory (l2_memory.h) decides when it is looked up
// and what the DDR transfers it asks for cost.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace hw {

class L2Cache {
public:
    struct Stats {
        uint64_t read_hits = 0, read_misses = 0;
        uint64_t write_hits = 0, write_misses = 0;
        uint64_t writebacks = 0;  // dirty lines evicted
    };
    // What one lookup did: a miss may evict a dirty line, to be written back.
    struct Outcome {
        bool hit = false;
        bool writeback = false;
        uint64_t victim = 0;  // the evicted dirty line, if writeback
        size_t way = 0;       // where the line is now (for ready / set_ready)
    };

    L2Cache(uint64_t sets, uint64_t ways);

    Outcome access(uint64_t line, bool write);
    // The cycle a line's data is there (its fill arrived, or the line it
    // replaced was written out); set by the caller after a miss.
    uint64_t ready(size_t way) const { return sets_of_ways_[way / ways_][way % ways_].ready; }
    void set_ready(size_t way, uint64_t cycle) { sets_of_ways_[way / ways_][way % ways_].ready = cycle; }
    // Dirty lines still in the cache: the flush at the end of the run.
    uint64_t dirty_lines() const { return dirty_; }
    const Stats& stats() const { return stats_; }

private:
    struct Way {
        uint64_t line_plus_one = 0;  // 0: empty
        uint64_t last_use = 0;
        uint64_t ready = 0;
        bool dirty = false;
    };
    uint64_t sets_, ways_;
    // Each set's ways, made on its first lookup (a 192 MiB L2 has 393,216
    // lines: making them all up front was half a short run's time).
    std::vector<std::unique_ptr<Way[]>> sets_of_ways_;
    uint64_t clock_ = 0;  // lookups so far: the LRU order
    uint64_t dirty_ = 0;  // dirty lines held
    Stats stats_;
};

}  // namespace hw
