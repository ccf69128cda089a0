// What a trace window (sim/trace/trace_filter.h) does not keep but its
// counters need: the commands that ended before the window are dropped,
// yet their flag sets and waits still count, and the commands of each
// stream they finished still shorten its queue. This recorder keeps, per
// block that runs at the window's start or has commands kept, the tokens
// those commands left per flag, how many commands of each engine's stream
// ended before the window, and the block's true end (a block's last
// commands may come after the window). Memory: the blocks in flight at the
// window's start and those of the window.
#pragma once

#include <cstdint>
#include <map>

#include "sim/arch/program.h"
#include "sim/trace/recorder.h"
#include "sim/trace/trace_filter.h"

namespace trace {

class BeforeWindow : public Recorder {
public:
    BeforeWindow(const TraceFilter& filter, const arch::Program& p) : filter_(filter), program_(p) {}
    void on_command(const CommandRecord& r, const arch::Command& c) override;
    void on_block(uint32_t block, uint32_t cluster, uint64_t start, uint64_t end) override;

    struct Block {
        uint32_t cluster = 0;
        uint64_t end = UINT64_MAX;                         // until the block ends
        std::map<arch::FlagId, int64_t> tokens;            // outstanding at the window's start, by flag
        std::map<std::pair<int, int64_t>, uint32_t> done;  // commands ended before the window, by arch::engine_order
    };
    const std::map<uint32_t, Block>& blocks() const { return blocks_; }
    uint64_t start() const { return filter_.start; }

private:
    const TraceFilter& filter_;
    const arch::Program& program_;
    std::map<uint32_t, Block> blocks_;
};

}  // namespace trace
