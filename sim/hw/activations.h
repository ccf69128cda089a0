// How often the model's SystemC processes run: every resumption of a thread
// from a wait and every call of a method is one activation. It is the
// scheduling work per command, which --timings reports (the benchmark
// harness's activations per command); counting is an increment, so it is
// always on. The count is deterministic: the same program and configuration
// give the same count.
#pragma once

#include <cstdint>
#include <utility>

#include <systemc>

namespace hw {

// Activations since the process started (a process elaborates SystemC once).
inline uint64_t activation_count = 0;

// sc_core::wait(args...), counting the resumption.
template <typename... Args>
void suspend(Args&&... args) {
    sc_core::wait(std::forward<Args>(args)...);
    ++activation_count;
}

// The first statement of every SC_METHOD and SC_THREAD (a thread's first run).
inline void count_activation() { ++activation_count; }

}  // namespace hw
