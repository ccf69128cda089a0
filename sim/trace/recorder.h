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
};

class Recorder {
public:
    virtual ~Recorder() = default;
    virtual void on_command(const CommandRecord& r, const arch::Command& c) = 0;
    // A block ended (called at its end cycle, in simulation order).
    virtual void on_block(uint32_t /*block*/, uint32_t /*cluster*/, uint64_t /*start*/, uint64_t /*end*/) {}
};

}  // namespace trace
