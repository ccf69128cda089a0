// The SystemC model's read and write paths (docs/timing-model.md §6.2) on
// the cases worked out by hand in tests/support/path_cases.h, which the
// oracle is checked on in tests/oracle/oracle_path_test.cpp. One
// simulation per test.
#include "hand_case_checks.h"
#include "tests/support/path_cases.h"

using namespace hwtest;
using namespace pathcases;

namespace {

TEST(ClusterPath, TwoEnginesShareTheReadPath) {
    SimRun r = simulate(from(two_engines_config()), two_engines_share_the_read_path());
    expect_ends(r, two_engines_share_the_read_path_ends());
    EXPECT_EQ(r.stats.total_cycles, 235u);
    EXPECT_EQ(r.stats.ddr_bytes_read, 448u);
    EXPECT_EQ(r.stats.ddr_bytes_written, 64u);
}

TEST(ClusterPath, ClustersHaveTheirOwnPaths) {
    expect_ends(simulate(from(one_engine_config()), clusters_have_their_own_paths()),
                clusters_have_their_own_paths_ends());
}

TEST(ClusterPath, BehindAnL2ThePathPaysTheHitLatency) {
    expect_ends(simulate(from(behind_an_l2_config()), behind_an_l2()), behind_an_l2_ends());
}

TEST(ClusterPath, AVectorUnitWithABufferHasItsOwnEnginesAndPaths) {
    SimRun r = simulate(from(vector_buffer_config()), vector_unit_has_its_own_engines_and_paths());
    expect_ends(r, vector_unit_has_its_own_engines_and_paths_ends());
    EXPECT_EQ(r.stats.total_cycles, 236u);
    EXPECT_EQ(r.stats.ddr_bytes_read, 448u);
    EXPECT_EQ(r.stats.ddr_bytes_written, 64u);
}

TEST(ClusterPath, CubesHaveTheirOwnReadPathsFromL1) {
    SimRun r = simulate(from(cube_read_path_config()), cubes_have_their_own_read_paths());
    expect_ends(r, cubes_have_their_own_read_paths_ends());
    EXPECT_EQ(r.stats.total_cycles, 29u);
}

}  // namespace
