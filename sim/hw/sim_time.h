// Time inside the model is an integer cycle count. SystemC's time resolution
// is set so that one SystemC time unit is exactly one cycle; conversion to
// seconds happens only in the report, through clock_ghz.
#pragma once

#include <cstdint>

#include <systemc>

#include "sim/hw/activations.h"

namespace hw {

inline uint64_t now_cycles() { return sc_core::sc_time_stamp().value(); }

inline sc_core::sc_time cycles(uint64_t n) { return sc_core::sc_time::from_value(n); }

// Waits (in an SC_THREAD) until absolute cycle `at`; no-op if already there.
inline void wait_until(uint64_t at) {
    uint64_t now = now_cycles();
    if (at > now) suspend(cycles(at - now));
}

// Once per process, before any sc_time exists: one time unit = one cycle,
// SystemC errors become exceptions, no banner.
void setup_systemc();

}  // namespace hw
