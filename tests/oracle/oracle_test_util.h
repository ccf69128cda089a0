// Helpers for the oracle tests: hand-built programs and lookups.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "tests/oracle/oracle.h"
#include "tests/support/json_parse.h"
#include "tests/support/program_builders.h"

namespace oracle_test {

using namespace testprog;

// The default configuration with some parameters overridden, e.g.
// config(R"({"ddr": {"latency_cycles": 0}})").
inline arch::Config config(const std::string& overrides = "{}") {
    return arch::config_from_json(testjson::parse(overrides), "test");
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

// An engine's cycle accounting (§9) as (busy, link wait, flag wait, issue, idle).
struct Cycles {
    uint64_t busy, link_wait, flag_wait, issue, idle;
    bool operator==(const Cycles& o) const {
        return busy == o.busy && link_wait == o.link_wait && flag_wait == o.flag_wait && issue == o.issue &&
               idle == o.idle;
    }
};
inline std::ostream& operator<<(std::ostream& os, const Cycles& c) {
    return os << "busy " << c.busy << ", link wait " << c.link_wait << ", flag wait " << c.flag_wait << ", issue "
              << c.issue << ", idle " << c.idle;
}

inline Cycles cycles_of(const oracle::Result& r, uint32_t cluster, EngineId engine) {
    for (const oracle::EngineCycles& e : r.engines)
        if (e.cluster == cluster && e.engine == engine) return {e.busy, e.link_wait, e.flag_wait, e.issue, e.idle};
    ADD_FAILURE() << "no engine " << arch::engine_name(engine) << " in cluster " << cluster;
    return {};
}

// The link wait of command `index` of `engine` in `block`.
inline uint64_t link_wait_of(const oracle::Result& r, uint32_t block, EngineId engine, uint32_t index) {
    for (const oracle::Timing& t : r.commands)
        if (t.block == block && t.engine == engine && t.index == index) return t.link_wait;
    ADD_FAILURE() << "no command " << index << " of " << arch::engine_name(engine) << " in block " << block;
    return ~0ull;
}

}  // namespace oracle_test
