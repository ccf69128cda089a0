// Hooks the hardware model calls as commands finish; statistics, reports and
// (later) trace writers implement them. Depends on sim/arch only.
#pragma once

#include <cstdint>

#include "sim/arch/program.h"

namespace trace {

// Where a command ran and when: busy over [start, end).
struct CommandRecord {
    uint32_t block = 0;
    uint32_t cluster = 0;
    arch::EngineId engine;
    uint32_t index = 0;  // position in its stream
    uint64_t start = 0;
    uint64_t end = 0;
    uint32_t slot = 0;  // the cluster slot its block ran in (timing-model §4)
    // What held the start back (§5), for the cycle accounting (§9):
    // `ready` the engine's ready cycle for it (max(block start, ...)),
    // `flags_at` the first cycle its flags allowed it (0 without waits).
    uint64_t ready = 0, flags_at = 0;
    // DMA: cycles its request waited for the link, bytes not yet granted,
    // while other requesters had it (§6, §9).
    uint64_t link_wait = 0;
};

// A transfer between the L2 cache and DDR (timing model §6.1): a fill (a
// read miss's line, or a gathered row's part of a burst: `bytes` of it,
// line 0, read past the cache) or a write-back (a dirty line evicted). Queued at the
// grant of the burst that caused it; its bytes cross the DDR channel in
// the cycles [start, leave); a fill's data is in the L2 at `data`.
struct DdrTransferRecord {
    bool fill = false;
    uint64_t line = 0;
    uint64_t bytes = 0;
    uint64_t queued = 0, start = 0, leave = 0, data = 0;
};

class Recorder {
public:
    virtual ~Recorder() = default;
    virtual void on_command(const CommandRecord& r, const arch::Command& c) = 0;
    // A block ended (called at its end cycle, in simulation order).
    virtual void on_block(uint32_t /*block*/, uint32_t /*cluster*/, uint64_t /*start*/, uint64_t /*end*/) {}
    // An L2 <-> DDR transfer (only with an L2), in the order queued.
    virtual void on_ddr_transfer(const DdrTransferRecord& /*t*/) {}
};

}  // namespace trace
