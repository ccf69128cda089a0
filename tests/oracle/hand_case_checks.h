// Checks of the oracle on the hand-worked cases of tests/support/
// (path_cases.h, side_dispatch_cases.h).
#pragma once

#include <vector>

#include "tests/oracle/oracle.h"
#include "tests/oracle/oracle_test_util.h"
#include "tests/support/path_cases.h"

namespace oracle_test {

// Every expected command starts and ends at the cycles worked out by hand.
inline void expect_ends(const oracle::Result& r, const std::vector<pathcases::Expected>& want) {
    for (const pathcases::Expected& w : want)
        EXPECT_EQ(at(r, w.block, w.engine, w.index), (StartEnd{w.start, w.end}))
            << "block " << w.block << " " << arch::engine_name(w.engine) << " command " << w.index;
}

}  // namespace oracle_test
