// The SystemC model's dispatch with separate vector cores
// (docs/timing-model.md §4) on the case worked out by hand in
// tests/support/side_dispatch_cases.h, which the oracle is checked on in
// tests/oracle/oracle_side_dispatch_test.cpp.
#include "hand_case_checks.h"
#include "sim/arch/program_check.h"
#include "tests/support/side_dispatch_cases.h"

using namespace hwtest;
using namespace sidecases;

namespace {

TEST(SideDispatch, EachSideOfAClusterHoldsItsOwnBlock) {
    const SimRun r = simulate(from(config_text(true)), two_sides());
    expect_ends(r, two_sides_ends(true));
    EXPECT_EQ(r.stats.total_cycles, 214u);
    EXPECT_EQ(r.stats.ddr_bytes_read, 320u);
}

TEST(SideDispatch, WithoutTheKeyABlockHoldsTheWholeCluster) {
    const SimRun r = simulate(from(config_text(false)), two_sides());
    expect_ends(r, two_sides_ends(false));
    EXPECT_EQ(r.stats.total_cycles, 227u);
}

// A block is on one side: the program check names the engine on the other.
TEST(SideDispatch, ABlockUsingBothSidesIsRefused) {
    arch::Program p = program(
        {block({stream(dma_engine(0), {load(64)}), stream(vector_unit(0), {vec(arch::VectorOp::Relu, 1, 256)})})});
    try {
        arch::check_program(p, from(config_text(true)));
        FAIL() << "not refused";
    } catch (const arch::ProgramError& e) {
        EXPECT_STREQ(e.what(),
                     "invalid program: block 0, vector0 command 0: engine is on the vector cores, the block's first "
                     "engine with commands on the cube core: with vector.separate_cores a block runs on one side of "
                     "the cluster");
    }
    EXPECT_NO_THROW(arch::check_program(p, from(config_text(false))));
}

}  // namespace
