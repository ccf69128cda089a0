#include "sim/hw/l2_cache.h"

namespace hw {

L2Cache::L2Cache(uint64_t sets, uint64_t ways) : sets_(sets), ways_(ways), ways_of_sets_(sets * ways) {}

L2Cache::Outcome L2Cache::access(uint64_t line, bool write) {
    const size_t base = size_t((line % sets_) * ways_);
    Way* set = &ways_of_sets_[base];
    ++clock_;
    Outcome out;
    Way* victim = nullptr;
    for (uint64_t w = 0; w < ways_; ++w) {
        Way& way = set[w];
        if (way.line_plus_one == line + 1) {
            way.last_use = clock_;
            way.dirty = way.dirty || write;
            ++(write ? stats_.write_hits : stats_.read_hits);
            out.hit = true;
            out.way = base + w;
            return out;
        }
        // The first empty way, else the least recently used one.
        if (!victim || (victim->line_plus_one != 0 && (way.line_plus_one == 0 || way.last_use < victim->last_use)))
            victim = &way;
    }
    ++(write ? stats_.write_misses : stats_.read_misses);
    if (victim->line_plus_one != 0 && victim->dirty) {
        out.writeback = true;
        out.victim = victim->line_plus_one - 1;
        ++stats_.writebacks;
    }
    out.way = size_t(victim - ways_of_sets_.data());
    victim->line_plus_one = line + 1;
    victim->last_use = clock_;
    victim->dirty = write;
    return out;
}

uint64_t L2Cache::dirty_lines() const {
    uint64_t n = 0;
    for (const Way& w : ways_of_sets_) n += w.line_plus_one != 0 && w.dirty;
    return n;
}

}  // namespace hw
