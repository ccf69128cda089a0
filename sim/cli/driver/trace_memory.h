// --trace and --vcd are computed after the run from every command and its
// start and end, all held in memory: about 1 KiB per command (measured: a
// 540 x 960 super-resolution frame, 2.06 M commands, peaks at 1.96 GB with
// --vcd and 1.43 GB with --trace). A 4K frame would need some 40 GB and be
// killed by the system hours later. This says so before simulating, when
// the program cannot fit the machine at all. With a trace filter
// (--trace-window, ...) the run keeps only the commands shown, so the
// bound is checked as they come: at most the memory's worth of them.
#pragma once

#include <cstdint>
#include <string>

namespace cli {

constexpr uint64_t kTraceBytesPerCommand = 1024;

// The memory this process may use: the physical memory, or the cgroup's
// limit (a container) when lower; DAVINCI_SIM_MEMORY_BYTES overrides both.
uint64_t usable_memory_bytes();

// "" when `commands` fit in `memory` bytes with every record kept;
// otherwise the message (the options asked for, their cost, the way out).
std::string trace_memory_refusal(const std::string& options, uint64_t commands, uint64_t memory);

// The message when a trace filter kept more than `max_kept` commands.
std::string trace_filter_refusal(const std::string& options, uint64_t max_kept);

}  // namespace cli
