// The oracle's read and write paths (docs/timing-model.md §6.2) on the
// hand-worked cases of tests/support/path_cases.h; tests/hw/
// cluster_path_test.cpp checks the SystemC model on the same cases.
#include <gtest/gtest.h>

#include "tests/oracle/hand_case_checks.h"
#include "tests/support/path_cases.h"

namespace {

using namespace oracle_test;
using namespace pathcases;

TEST(OraclePath, TwoEnginesShareTheReadPath) {
    expect_ends(oracle::run(two_engines_share_the_read_path(), config(two_engines_config())),
                two_engines_share_the_read_path_ends());
}

TEST(OraclePath, ClustersHaveTheirOwnPaths) {
    expect_ends(oracle::run(clusters_have_their_own_paths(), config(one_engine_config())),
                clusters_have_their_own_paths_ends());
}

TEST(OraclePath, BehindAnL2ThePathPaysTheHitLatency) {
    expect_ends(oracle::run(behind_an_l2(), config(behind_an_l2_config())), behind_an_l2_ends());
}

TEST(OraclePath, AVectorUnitWithABufferHasItsOwnEnginesAndPaths) {
    expect_ends(oracle::run(vector_unit_has_its_own_engines_and_paths(), config(vector_buffer_config())),
                vector_unit_has_its_own_engines_and_paths_ends());
}

TEST(OraclePath, CubesHaveTheirOwnReadPathsFromL1) {
    expect_ends(oracle::run(cubes_have_their_own_read_paths(), config(cube_read_path_config())),
                cubes_have_their_own_read_paths_ends());
}

// Without a limit (the default) the paths play no part: the same program
// as §6 alone gives (link only).
TEST(OraclePath, NoLimitIsTheLinkAlone) {
    oracle::Result r = oracle::run(two_engines_share_the_read_path(),
                                   config(R"({"cluster": {"dma_engines": 2}, "dma": {"max_outstanding": 1}})"));
    EXPECT_EQ(at(r, 0, dma_engine(0), 0), (StartEnd{1, 114}));
    EXPECT_EQ(at(r, 0, dma_engine(1), 0), (StartEnd{1, 110}));
}

}  // namespace
