// What a simulation measured: per unit and per link, and the total.
// Filled by StatsRecorder (units) and the hardware model (links).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/trace/cycle_accounting.h"
#include "sim/trace/memory_traffic.h"
#include "sim/trace/op_stats.h"
#include "sim/trace/power.h"
#include "sim/trace/recorder.h"
#include "sim/trace/trace_filter.h"

namespace trace {

struct UnitStats {
    std::string name;  // "cluster0.cube1"
    std::string kind;  // "cube", "cube_dma", "dma", "vector"
    uint32_t cluster = 0;
    uint64_t busy_cycles = 0;  // in flight (§9), link waits included
    // The cycle accounting (§9, sim/trace/cycle_accounting.h): with the
    // idle cycles, split() sums to the run's total.
    uint64_t link_wait_cycles = 0, flag_wait_cycles = 0, issue_cycles = 0;
    uint64_t commands = 0;
    uint64_t macs = 0;          // cubes
    uint64_t float32_macs = 0;  // cubes: the MACs of float32 MATMULs (at the float32 rate, §7.3)
    uint64_t int8_macs = 0;     // cubes: the MACs of int8 MATMULs (at the int8 rate, §7.1)
    uint64_t bytes = 0;         // DMA engines
    uint64_t elements = 0;      // vector units: rows * cols per command
    uint64_t vector_bytes = 0;  // vector units: the source bytes each command works through (src_bytes)

    CycleSplit split(uint64_t total_cycles) const {
        return CycleSplit::of(busy_cycles, link_wait_cycles, flag_wait_cycles, issue_cycles, total_cycles);
    }
};

// A link and the memory it serves (its upper end: DDR for the DDR channel,
// the cluster's L1 for an L1 port, the cube's L0 for the L0->cube path).
// bytes_read crossed it away from that memory (DDR -> L1, L1 -> L0,
// L0 -> cube), bytes_written towards it (L1 -> DDR, L0 -> L1).
struct LinkStats {
    std::string name;  // "ddr", "cluster0.l1", "cluster0.cube1.l0"
    std::string kind;  // "ddr_l1", "l1_l0", "l0_cube"
    uint64_t peak_bytes_per_cycle = 0;
    uint64_t bytes_read = 0;
    uint64_t bytes_written = 0;
    uint64_t busy_cycles = 0;  // cycles the link was transferring
    uint64_t bytes() const { return bytes_read + bytes_written; }
};

// The L2 cache's figures (timing model §6.1), in lines looked up; each
// fill and write-back moves line_bytes.
struct L2Stats {
    uint64_t read_hits = 0, read_misses = 0;
    uint64_t write_hits = 0, write_misses = 0;
    uint64_t writebacks = 0;   // dirty lines evicted during the run
    uint64_t flush_bytes = 0;  // dirty lines left at the end, in bytes
    uint64_t line_bytes = 0;
    uint64_t lookups() const { return read_hits + read_misses + write_hits + write_misses; }
};

struct RunStats {
    uint64_t total_cycles = 0;
    uint64_t blocks = 0;
    uint64_t ddr_bytes_read = 0;
    uint64_t ddr_bytes_written = 0;
    MemoryTraffic memory;
    std::vector<UnitStats> units;
    std::vector<LinkStats> links;
    std::vector<OpStats> ops;   // per program operation, in program order
    std::optional<L2Stats> l2;  // with an L2 cache
    PowerSeries power;          // dynamic energy per microsecond (sim/trace/power.h)
};

// Accumulates per-unit figures and the memory traffic from command records.
class StatsRecorder : public Recorder {
public:
    explicit StatsRecorder(const arch::Config& c);
    void on_command(const CommandRecord& r, const arch::Command& c) override;
    const std::vector<UnitStats>& units() const { return units_; }
    const MemoryTraffic& memory() const { return memory_; }

private:
    const arch::Config& config_;
    std::vector<UnitStats> units_;
    std::vector<CycleAccount> accounts_;  // per unit
    MemoryTraffic memory_;
};

// Keeps every command's start and end, for `--timing-csv` and the oracle.
class TimingRecorder : public Recorder {
public:
    TimingRecorder() = default;
    // Keeps only the commands `filter` keeps, at most `max_records` of them
    // (then none more, and overflowed() says so); the DDR transfers in its
    // window. `program` gives the commands' operations.
    TimingRecorder(const TraceFilter& filter, const arch::Program& program, uint64_t max_records)
        : filter_(&filter), program_(&program), max_records_(max_records) {}
    void on_command(const CommandRecord& r, const arch::Command& c) override {
        if (filter_ && !filter_->keeps(r, c, *program_)) return;
        if (max_records_ && records.size() >= max_records_) {
            overflowed_ = true;
            return;
        }
        records.push_back(r);
    }
    void on_ddr_transfer(const DdrTransferRecord& t) override {
        if (!filter_ || filter_->keeps_cycles(std::min(t.queued, t.start), std::max(t.leave, t.start + 1)))
            ddr_transfers.push_back(t);
    }
    bool overflowed() const { return overflowed_; }
    std::vector<CommandRecord> records;
    std::vector<DdrTransferRecord> ddr_transfers;  // with an L2 only

private:
    const TraceFilter* filter_ = nullptr;
    const arch::Program* program_ = nullptr;
    uint64_t max_records_ = 0;
    bool overflowed_ = false;
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
    void on_ddr_transfer(const DdrTransferRecord& x) override {
        for (Recorder* t : targets_) t->on_ddr_transfer(x);
    }

private:
    std::vector<Recorder*> targets_;
};

}  // namespace trace
