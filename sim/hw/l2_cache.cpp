#include "sim/hw/l2_cache.h"

namespace hw {

L2Cache::L2Cache(uint64_t sets, uint64_t ways) : sets_(sets), ways_(ways), sets_of_ways_(sets) {}

L2Cache::Outcome L2Cache::access(uint64_t line, bool write) {
    const size_t index = size_t(line % sets_), base = index * size_t(ways_);
    std::unique_ptr<Way[]>& ways = sets_of_ways_[index];
    if (!ways) ways = std::make_unique<Way[]>(ways_);
    Way* set = ways.get();
    ++clock_;
    Outcome out;
    Way* victim = nullptr;
    for (uint64_t w = 0; w < ways_; ++w) {
        Way& way = set[w];
        if (way.line_plus_one == line + 1) {
            way.last_use = clock_;
            dirty_ += write && !way.dirty;
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
    out.way = base + size_t(victim - set);
    dirty_ -= victim->line_plus_one != 0 && victim->dirty;
    dirty_ += write;
    victim->line_plus_one = line + 1;
    victim->last_use = clock_;
    victim->dirty = write;
    return out;
}

}  // namespace hw
