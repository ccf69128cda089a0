#include "sim/trace/before_window.h"

namespace trace {

void BeforeWindow::on_command(const CommandRecord& r, const arch::Command& c) {
    if (!filter_.keeps_cluster(r.cluster)) return;
    if (filter_.keeps(r, c, program_)) {
        blocks_[r.block].cluster = r.cluster;
        return;
    }
    // Ended before the window (a command of no cycles: at a cycle before it).
    const bool before = r.end < filter_.start || (r.end == filter_.start && r.start < r.end);
    if (!before) return;
    Block& b = blocks_[r.block];
    b.cluster = r.cluster;
    ++b.done[arch::engine_order(r.engine)];
    for (arch::FlagId f : c.sets) ++b.tokens[f];
    for (arch::FlagId f : c.waits) --b.tokens[f];
}

void BeforeWindow::on_block(uint32_t block, uint32_t /*cluster*/, uint64_t /*start*/, uint64_t end) {
    auto it = blocks_.find(block);
    if (it == blocks_.end()) return;
    // Ended before the window: its tokens were dropped then.
    if (end <= filter_.start) blocks_.erase(it);
    else it->second.end = end;
}

}  // namespace trace
