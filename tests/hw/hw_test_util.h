// Builders for hand-written programs and a one-shot simulation helper.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/hw/chip.h"
#include "sim/trace/run_stats.h"

namespace hwtest {

inline arch::Command dma(arch::Space src, arch::Space dst, uint32_t bytes) {
    arch::Command c;
    c.op = arch::Opcode::Dma;
    c.dma.src = src;
    c.dma.dst = dst;
    c.dma.rows = 1;
    c.dma.row_bytes = bytes;
    return c;
}

inline arch::Command matmul(uint32_t m, uint32_t k, uint32_t n, arch::DType t) {
    arch::Command c;
    c.op = arch::Opcode::Matmul;
    c.mm.m = m, c.mm.k = k, c.mm.n = n;
    c.mm.dtype = t;
    c.mm.a_addr = 0;
    c.mm.b_addr = 0;
    c.mm.c_addr = 0;
    return c;
}

inline arch::Stream stream(arch::EngineKind kind, int index, std::vector<arch::Command> commands) {
    return arch::Stream{{kind, index}, std::move(commands)};
}

inline arch::Block block(std::vector<arch::Stream> streams, uint16_t flags = 0, std::vector<uint32_t> deps = {}) {
    arch::Block b;
    b.name = "test";
    b.num_flags = flags;
    b.deps = std::move(deps);
    b.streams = std::move(streams);
    return b;
}

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
