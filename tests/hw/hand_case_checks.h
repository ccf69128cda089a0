// Checks of the SystemC model on the hand-worked cases of tests/support/
// (path_cases.h, side_dispatch_cases.h), whose configurations are JSON text.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "hw_test_util.h"
#include "tests/support/json_parse.h"
#include "tests/support/path_cases.h"

namespace hwtest {

inline arch::Config from(const std::string& text) { return arch::config_from_json(testjson::parse(text), "test"); }

// Every expected command starts and ends at the cycles worked out by hand.
inline void expect_ends(const SimRun& r, const std::vector<pathcases::Expected>& want) {
    for (const pathcases::Expected& w : want) {
        EXPECT_EQ(r.at(w.block, w.engine, w.index).start, w.start) << arch::engine_name(w.engine) << " " << w.index;
        EXPECT_EQ(r.at(w.block, w.engine, w.index).end, w.end) << arch::engine_name(w.engine) << " " << w.index;
    }
}

}  // namespace hwtest
