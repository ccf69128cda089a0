// The whole accelerator: the DDR channel, the clusters and the dispatcher,
// and the one entry point that simulates a program on it.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include <systemc>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/hw/arbitrated_memory.h"
#include "sim/hw/cluster.h"
#include "sim/hw/dispatcher.h"
#include "sim/hw/sim_time.h"
#include "sim/trace/run_stats.h"

namespace hw {

class Chip : public sc_core::sc_module {
public:
    Chip(sc_core::sc_module_name name, const arch::Config& config, const arch::Program& program,
         arch::BlockSource& blocks, trace::Recorder* recorder);

    const Dispatcher& dispatcher() const { return dispatcher_; }
    // Link figures after the run.
    std::vector<trace::LinkStats> link_stats() const;
    const ArbitratedMemory& ddr() const { return ddr_; }
    std::vector<std::string> stuck_engines() const;

private:
    static std::vector<Cluster*> pointers(std::vector<std::unique_ptr<Cluster>>& v);

    const arch::Config& config_;
    ArbitratedMemory ddr_;
    std::vector<std::unique_ptr<Cluster>> clusters_;
    Dispatcher dispatcher_;
};

// A program that cannot finish: engines wait on flags nobody will set.
class DeadlockError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Checks the program against the config, elaborates the chip, runs it to the
// end and returns the statistics. SystemC allows one elaboration per process,
// so this runs at most once per process. `recorder` (optional) sees every command.
trace::RunStats simulate(const arch::Config& config, const arch::Program& program, trace::Recorder* recorder = nullptr);

// The same, bounded: a program still running after cycle `max_cycles` (> 0)
// stops there and gives nullopt; one that ends at cycle max_cycles completes.
// Not an exception: a throw after SystemC's coroutines have run makes
// AddressSanitizer print a stack warning, which would garble the message.
std::optional<trace::RunStats> simulate_until(const arch::Config& config, const arch::Program& program,
                                              trace::Recorder* recorder, uint64_t max_cycles);

// The same with the blocks from `blocks` (a spooled program) instead of
// program.blocks, which is ignored. Checks only the program's header: the
// blocks must have been checked (arch::check_block) as they were spooled.
std::optional<trace::RunStats> simulate_until(const arch::Config& config, const arch::Program& program,
                                              arch::BlockSource& blocks, trace::Recorder* recorder,
                                              uint64_t max_cycles);

}  // namespace hw
