// What a simulation measured: per unit and per link, and the total.
// Filled by StatsRecorder (units) and the hardware model (links).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/trace/busy_union.h"
#include "sim/trace/op_stats.h"
#include "sim/trace/recorder.h"

namespace trace {

struct UnitStats {
    std::string name;  // "cluster0.cube1"
    std::string kind;  // "cube", "cube_dma", "dma", "vector"
    uint32_t cluster = 0;
    uint64_t busy_cycles = 0;
    uint64_t commands = 0;
    uint64_t macs = 0;      // cubes
    uint64_t bytes = 0;     // DMA engines
    uint64_t elements = 0;  // vector units: rows * cols per command
};

struct LinkStats {
    std::string name;  // "ddr", "cluster0.l1", "cluster0.cube1.l0"
    std::string kind;  // "ddr_l1", "l1_l0", "l0_cube"
    uint64_t peak_bytes_per_cycle = 0;
    uint64_t bytes = 0;
    uint64_t busy_cycles = 0;  // cycles the link was transferring
};

// Bytes read from and written to one memory level by the commands.
struct LevelTraffic {
    uint64_t read = 0, written = 0;
};
// Per level: DMA commands read their source and write their destination
// (an f32->f16 conversion reads 2 bytes per byte written; an im2col load
// reads the expanded tile, as the L1 port carries it); a MATMUL reads its
// operand bytes from L0 (the accumulator stays in the cube); a VECTOR
// command reads its sources and writes its result in L1.
struct MemoryTraffic {
    LevelTraffic ddr, l1, l0;
    LevelTraffic& level(arch::Space s) { return s == arch::Space::DDR ? ddr : s == arch::Space::L1 ? l1 : l0; }
};

struct RunStats {
    uint64_t total_cycles = 0;
    uint64_t blocks = 0;
    uint64_t ddr_bytes_read = 0;
    uint64_t ddr_bytes_written = 0;
    MemoryTraffic memory;
    std::vector<UnitStats> units;
    std::vector<LinkStats> links;
    std::vector<OpStats> ops;  // per program operation, in program order
};

// Accumulates per-unit figures and the DMA and VECTOR memory traffic from
// command records (the MATMULs' L0 reads are the L0->cube links' bytes,
// which the hardware model adds).
class StatsRecorder : public Recorder {
public:
    explicit StatsRecorder(const arch::Config& c);
    void on_command(const CommandRecord& r, const arch::Command& c) override;
    const std::vector<UnitStats>& units() const { return units_; }
    const MemoryTraffic& memory() const { return memory_; }

private:
    size_t slot(uint32_t cluster, arch::EngineId e) const;
    int64_t dma_engines_, cubes_, vectors_;
    std::vector<UnitStats> units_;
    std::vector<BusyUnion> busy_;  // per unit
    MemoryTraffic memory_;
};

// Keeps every command's start and end, for `--timing-csv` and the oracle.
class TimingRecorder : public Recorder {
public:
    void on_command(const CommandRecord& r, const arch::Command&) override { records.push_back(r); }
    std::vector<CommandRecord> records;
};

// Forwards to several recorders.
class RecorderFan : public Recorder {
public:
    void add(Recorder* r) { targets_.push_back(r); }
    void on_command(const CommandRecord& r, const arch::Command& c) override {
        for (Recorder* t : targets_) t->on_command(r, c);
    }
    void on_block(uint32_t block, uint32_t cluster, uint64_t start, uint64_t end) override {
        for (Recorder* t : targets_) t->on_block(block, cluster, start, end);
    }

private:
    std::vector<Recorder*> targets_;
};

}  // namespace trace
