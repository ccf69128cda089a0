// The oracle's dispatch with separate vector cores (docs/timing-model.md
// §4) on the hand-worked case of tests/support/side_dispatch_cases.h;
// tests/hw/side_dispatch_test.cpp checks the SystemC model on it.
#include <gtest/gtest.h>

#include "tests/oracle/hand_case_checks.h"
#include "tests/support/side_dispatch_cases.h"

namespace {

using namespace oracle_test;
using namespace sidecases;

TEST(OracleSideDispatch, EachSideOfAClusterHoldsItsOwnBlock) {
    const oracle::Result r = oracle::run(two_sides(), config(config_text(true)));
    expect_ends(r, two_sides_ends(true));
    EXPECT_EQ(r.total_cycles, 214u);
}

TEST(OracleSideDispatch, WithoutTheKeyABlockHoldsTheWholeCluster) {
    const oracle::Result r = oracle::run(two_sides(), config(config_text(false)));
    expect_ends(r, two_sides_ends(false));
    EXPECT_EQ(r.total_cycles, 227u);
}

}  // namespace
