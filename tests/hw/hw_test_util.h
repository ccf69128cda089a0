// Builders for hand-written programs and a one-shot simulation helper.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/hw/chip.h"
#include "sim/trace/run_stats.h"
#include "tests/support/program_builders.h"

namespace hwtest {

using namespace testprog;

struct SimRun {
    trace::RunStats stats;
    std::vector<trace::CommandRecord> commands;
    // The record of command `index` of `engine` in block `block`.
    const trace::CommandRecord& at(uint32_t blk, arch::EngineId engine, uint32_t index) const {
        for (const auto& r : commands)
            if (r.block == blk && r.engine == engine && r.index == index) return r;
        ADD_FAILURE() << "no such command";
        return commands.front();
    }
};

// The default hardware with one DMA command in flight per engine
// (dma.max_outstanding = 1): each waits for the previous one's data (§5),
// as the hand derivations that use it assume.
inline arch::Config one_dma_in_flight() {
    arch::Config c = arch::default_config();
    c.dma_max_outstanding = 1;
    return c;
}

// SystemC allows one simulation per process; ctest gives each test its own.
inline SimRun simulate(const arch::Config& c, const arch::Program& p) {
    static int runs = 0;
    if (++runs > 1) {
        ADD_FAILURE() << "one simulation per process: run hw_tests through ctest or with --gtest_filter";
        return {};
    }
    trace::TimingRecorder timing;
    SimRun r;
    r.stats = hw::simulate(c, p, &timing);
    r.commands = std::move(timing.records);
    return r;
}

}  // namespace hwtest
