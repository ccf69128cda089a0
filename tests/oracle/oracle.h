// The reference oracle: a deliberately naive, cycle-stepped model of
// docs/timing-model.md in plain C++ (no SystemC), written from the spec text
// and independent of sim/hw/. It consumes the same arch::Program as the
// SystemC model and must produce identical per-command start/end cycles.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace oracle {

// One command's timing. `index` is the command's position in its stream.
struct Timing {
    uint32_t block = 0, cluster = 0;
    arch::EngineId engine;
    uint32_t index = 0;
    uint64_t start = 0, end = 0;
    uint64_t link_wait = 0;  // DMA: cycles its request waited for the link (§9)
};

// Where one engine's cycles went (§9, cycle accounting): each cycle of the
// run classified as it is stepped. The parts sum to total_cycles.
struct EngineCycles {
    uint32_t cluster = 0;
    arch::EngineId engine;
    uint64_t busy = 0, link_wait = 0, flag_wait = 0, issue = 0, idle = 0;
};

// One block's placement and timing (§4): start = dispatch decision +
// dispatch_cycles, end = largest command end (or start if it has none).
struct BlockTiming {
    uint32_t cluster = 0;
    uint64_t start = 0, end = 0;
};

// The L2's lookups and DDR transfers (§6.1), in lines.
struct L2Counts {
    uint64_t read_hits = 0, read_misses = 0, write_hits = 0, write_misses = 0;
    uint64_t fills = 0, writebacks = 0;
    uint64_t gathered_bytes = 0;  // gathers' rows, read past the cache
    uint64_t flush_lines = 0;     // dirty lines left at the end
};

struct Result {
    uint64_t total_cycles = 0;
    std::vector<Timing> commands;       // program order: block, stream, index
    std::vector<BlockTiming> blocks;    // indexed by block number
    std::vector<EngineCycles> engines;  // every engine of every cluster (used or not), cluster by cluster
    std::optional<L2Counts> l2;         // with an L2
};

// Runs until every block has ended. Throws std::runtime_error on a malformed
// program, on deadlock (nothing can ever happen again but blocks remain), or
// when the simulated time would exceed `max_cycles`.
constexpr uint64_t kDefaultMaxCycles = 200'000'000;
Result run(const arch::Program& program, const arch::Config& config, uint64_t max_cycles = kDefaultMaxCycles);

}  // namespace oracle
