// Helpers for the oracle tests: hand-built programs and lookups.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "tests/oracle/oracle.h"
#include "tests/support/program_builders.h"

namespace oracle_test {

using namespace testprog;

// The default configuration with some parameters overridden, e.g.
// config(R"({"ddr": {"latency_cycles": 0}})").
inline arch::Config config(const std::string& overrides = "{}") {
    return arch::config_from_json(nlohmann::json::parse(overrides), "test");
}

struct StartEnd {
    uint64_t start, end;
    bool operator==(const StartEnd& o) const { return start == o.start && end == o.end; }
};
inline std::ostream& operator<<(std::ostream& os, const StartEnd& s) {
    return os << "[" << s.start << ", " << s.end << ")";
}

// The timing of command `index` of `engine` in `block`.
inline StartEnd at(const oracle::Result& r, uint32_t block, EngineId engine, uint32_t index) {
    for (const oracle::Timing& t : r.commands)
        if (t.block == block && t.engine == engine && t.index == index) return {t.start, t.end};
    ADD_FAILURE() << "no command " << index << " of " << arch::engine_name(engine) << " in block " << block;
    return {~0ull, ~0ull};
}

}  // namespace oracle_test
