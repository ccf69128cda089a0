// The end-of-run report: where the cycles went, as text for people and as
// JSON for sweep scripts. Both come from the same RunStats.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/arch/config.h"
#include "sim/trace/messages.h"
#include "sim/trace/run_stats.h"

namespace trace {

// The version of report_json's format ("schema_version"), raised when a
// change would make an older reader misread a report. 2: the links' labels
// say both directions ("DDR <-> L1") and `directions` splits their bytes;
// `compute_bound_cycles` counts float32 MACs at the float32 rate;
// `cube_busy`.
constexpr int kReportSchemaVersion = 2;

struct RunInfo {
    std::string program;  // path of the .pto file
    std::string config;   // path of the config, or "built-in default"
    // What the compiler did that the program did not write, from its graph
    // (nothing for --program-json): the casts that promote mixed float
    // dtypes (dsl/passes/pass_promote.h), and its notes (what a task's
    // placement could not host, dsl/ir/placement_notes.h).
    uint64_t promotions = 0;
    std::vector<std::string> notes;
    // The program's pypo.param constants as it ran (--param's or the
    // defaults), in declaration order: name, value (a JSON number, bool or
    // string) and how the program writes it (repr: 2, True, 'abc').
    struct Param {
        std::string name;
        nlohmann::json value;
        std::string repr;
    };
    std::vector<Param> params;
    // --tokens: the tokens the run makes, for the energy and time per
    // token; 0 when not given.
    uint64_t tokens = 0;
    // The program's print and pypo.log messages (sim/trace/messages.h).
    std::vector<Message> messages;
};

// 1234567 as "1,234,567", as the report writes counts.
std::string grouped(uint64_t v);
// `v` through a printf format of one double ("%.3f"), at most 63 characters.
std::string formatted(const char* printf_format, double v);

std::string format_report(const RunStats& s, const arch::Config& c, const RunInfo& info);
nlohmann::json report_json(const RunStats& s, const arch::Config& c, const RunInfo& info);

}  // namespace trace
