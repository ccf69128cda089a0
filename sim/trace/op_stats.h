// Where the cycles went per program operation (and so per coarse task):
// each command is charged to the operation its tag names.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/trace/interval_union.h"
#include "sim/trace/memory_traffic.h"
#include "sim/trace/recorder.h"

namespace trace {

struct OpStats {
    std::string name, kind, task;                           // as in arch::ProgramOp
    int32_t fused_into = -1;                                // as in arch::ProgramOp
    uint64_t start = std::numeric_limits<uint64_t>::max();  // first command start
    uint64_t end = 0;                                       // last command end
    uint64_t commands = 0;
    uint64_t cube_cycles = 0;    // busy cycles of MAC arrays
    uint64_t dma_cycles = 0;     // busy cycles of DMA engines (cluster and cube)
    uint64_t vector_cycles = 0;  // busy cycles of vector units
    uint64_t macs = 0;           // a depthwise convolution's taps on the vector units count too (op_stats.cpp)
    uint64_t cube_macs = 0;      // the MATMULs' alone
    uint64_t float32_macs = 0;   // the MACs of its float32 MATMULs (at the float32 rate, §7.3)
    uint64_t int8_macs = 0;      // the MACs of its int8 MATMULs (at the int8 rate, §7.1)
    uint64_t dma_bytes = 0;
    uint64_t vector_bytes = 0;  // the source bytes its VECTOR commands work through (src_bytes)
    MemoryTraffic memory;       // bytes read and written per memory level (sim/trace/memory_traffic.h)
    // The cycle accounting of its commands (timing model §9), summed over
    // them: their DMA requests' link waits, and the flag-wait and issue
    // cycles before each on its engine, as the units' accounting counts
    // them (so the operations' sums are the units').
    uint64_t link_wait_cycles = 0, flag_wait_cycles = 0, issue_cycles = 0;
    // The cycles of [start, end) in which at least one of its commands was
    // running, on any engine. Per operation only: task_stats leaves it 0
    // (a task's operations overlap, so their figures do not add up).
    uint64_t active_cycles = 0;
    std::vector<int32_t> inputs;  // operations it reads (indices into the same list)
    bool ran() const { return commands > 0; }
    uint64_t cycles() const { return ran() ? end - start : 0; }
    // The cycles of its span in which none of its commands ran: it waited
    // for flags (data from other operations), for its engines (busy with
    // other operations' commands), for a cluster, or for loop control.
    uint64_t stall_cycles() const { return cycles() - active_cycles; }
};

class OpStatsRecorder : public Recorder {
public:
    OpStatsRecorder(const arch::Program& p, const arch::Config& c);
    void on_command(const CommandRecord& r, const arch::Command& c) override;
    const std::vector<OpStats>& ops() const { return ops_; }

private:
    const arch::Program& program_;
    const arch::Config& config_;
    std::vector<OpStats> ops_;
    std::vector<IntervalUnion> engine_busy_;  // by arch::engine_slot, in start order
    std::vector<IntervalUnion> active_;       // per operation: when its commands ran, in any order
};

// The operations grouped by task, in order of first appearance ("" = top
// level); each task's figures are its operations' summed, but its
// active_cycles 0.
std::vector<OpStats> task_stats(const std::vector<OpStats>& ops);

// The chain of operations that set the run's length: from the operation that
// ends last, back through the input that ended last, to an operation that
// reads only program inputs. Views (no commands) are passed through, not
// listed. Indices into `ops`, first operation first.
std::vector<size_t> critical_path(const std::vector<OpStats>& ops);

}  // namespace trace
