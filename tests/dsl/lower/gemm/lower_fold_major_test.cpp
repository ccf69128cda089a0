// The systolic fold schedules (timing model §10 "Systolic fold schedules"):
// however small L0 and L1 are, every fold streams its whole temporal
// dimension, so an operation's cube cycles on one array are folds * (T + F)
// - 1; where the partial sums of the ws and is arrays stay; os chains.
#include <gtest/gtest.h>

#include "sim/arch/cube_cost.h"
#include "tests/dsl/lower_test_util.h"

namespace {

using namespace lower_test;

const char* const kMatmul100x20x12 =
    "import pypto as pypo\n"
    "a = pypo.input(\"a\", shape=(100, 20))\n"
    "b = pypo.input(\"b\", shape=(20, 12))\n"
    "pypo.output(\"c\", pypo.op.matmul(a, b))\n";

// One cluster of one 8x8 cube, L0 split A/B/C (KiB), L1 (KiB).
arch::Config array(const char* dataflow, int l0a, int l0b, int l0c, int l1) {
    return config(std::string(R"({"chip": {"clusters": 1}, "cluster": {"cubes": 1, "l1_kib": )") + std::to_string(l1) +
                  R"(}, "cube": {"dataflow": ")" + dataflow + R"(", "mac_rows": 8, "mac_cols": 8, "l0_kib": )" +
                  std::to_string(l0a + l0b + l0c) + R"(, "l0a_kib": )" + std::to_string(l0a) + R"(, "l0b_kib": )" +
                  std::to_string(l0b) + R"(, "l0c_kib": )" + std::to_string(l0c) + "}}");
}

struct Matmuls {
    std::vector<arch::MatmulArgs> all;  // in block and stream order
    uint64_t cycles = 0;
    int continuing = 0, ending = 0;
};

Matmuls matmuls(const arch::Program& p, const arch::Config& c) {
    Matmuls m;
    for (const arch::Block& b : p.blocks)
        for (const arch::Stream& s : b.streams)
            for (const arch::Command& cmd : s.commands) {
                if (cmd.op != arch::Opcode::Matmul) continue;
                m.all.push_back(cmd.mm);
                m.cycles += arch::matmul_cost(c, cmd.mm).total_cycles;
                m.continuing += cmd.mm.fold_continues;
                m.ending += !cmd.mm.schedule_continues;
            }
    return m;
}

int tagged(const arch::Program& p, const std::string& label) {
    int n = 0;
    for (const arch::Block& b : p.blocks)
        for (const arch::Stream& s : b.streams)
            for (const arch::Command& cmd : s.commands) n += p.tags[cmd.tag].label == label;
    return n;
}

// ws, 100x20x12 on 8x8: (Sr, Sc, T) = (20, 12, 100): 3 x 2 folds of
// 100 + 2*8 + 8 - 2 = 122 cycles: 6 * 122 - 1 = 731, one MATMUL ending
// the schedule, in every case below.
// Roomy L0: each unit's 100 x 8 float32 partial sums (3200 B) stay in the
// 8 KiB L0C and A's 100 rows fit one chunk: 2 units x 3 k folds = 6
// MATMULs, none continuing (one chunk per fold).
TEST(LowerFoldMajor, WeightStationaryPartialSumsInL0) {
    const arch::Config c = array("ws", 4, 4, 8, 256);
    const arch::Program p = lower(kMatmul100x20x12, c);
    const Matmuls m = matmuls(p, c);
    EXPECT_EQ(m.all.size(), 6u);
    EXPECT_EQ(m.continuing, 0);
    EXPECT_EQ(m.ending, 1);
    EXPECT_EQ(m.cycles, 731u);
    EXPECT_EQ(p.blocks.size(), 2u);  // a unit (8 columns of N) per block: one cube
    EXPECT_EQ(tagged(p, "c partial sums -> L1"), 0);
}

// A 2 KiB L0C holds two 32-row chunks of partial sums (1 KiB each), not a
// unit's 3200 B: chunks of 32, 32, 32, 4 rows, the partial sums to L1 and
// back between k folds. 2 x 3 x 4 = 24 MATMULs, 2 x 3 x 3 continuing;
// the same 731 cycles (a fold: 32 + 22, then 32, 32, 4).
TEST(LowerFoldMajor, WeightStationaryPartialSumsInL1) {
    const arch::Config c = array("ws", 4, 4, 2, 256);
    const arch::Program p = lower(kMatmul100x20x12, c);
    const Matmuls m = matmuls(p, c);
    EXPECT_EQ(m.all.size(), 24u);
    EXPECT_EQ(m.continuing, 18);
    EXPECT_EQ(m.ending, 1);
    EXPECT_EQ(m.cycles, 731u);
    EXPECT_EQ(m.all[1].m, 32u);
    EXPECT_EQ(m.all[3].m, 4u);
    // Every chunk of the first two k folds leaves L0 and comes back.
    EXPECT_EQ(tagged(p, "c partial sums -> L1"), 2 * 2 * 4);
    EXPECT_EQ(tagged(p, "c partial sums -> L0"), 2 * 2 * 4);
    EXPECT_EQ(tagged(p, "c partial sums -> DDR"), 0);
}

// And a 3 KiB L1 cannot keep them: a unit's 3200 B of partial sums alone
// exceed it. Through DDR scratch instead, with 16-row chunks (two A panels
// of 16 x 8, two B folds, two out and two in buffers: 256 + 160 * 16 =
// 2816 B; 32 rows would need 5376): 2 x 3 x 7 = 42 MATMULs, still 731
// cycles.
TEST(LowerFoldMajor, WeightStationaryPartialSumsInDdr) {
    const arch::Config c = array("ws", 4, 4, 2, 3);
    const arch::Program p = lower(kMatmul100x20x12, c);
    const Matmuls m = matmuls(p, c);
    EXPECT_EQ(m.all.size(), 42u);
    EXPECT_EQ(m.cycles, 731u);
    EXPECT_EQ(tagged(p, "c partial sums -> DDR"), 2 * 2 * 7);
    ASSERT_EQ(p.tensors.back().name, "c partial sums");
    EXPECT_EQ(p.tensors.back().role, "scratch");
    EXPECT_EQ(p.tensors.back().bytes, 100u * 12 * 4);
}

// is: (Sr, Sc, T) = (K, M, N) = (20, 100, 12): 3 x 13 folds of 12 + 22:
// 39 * 34 - 1 = 1325; 13 units of 8 rows of M.
TEST(LowerFoldMajor, InputStationary) {
    const arch::Config c = array("is", 4, 4, 8, 256);
    const arch::Program p = lower(kMatmul100x20x12, c);
    const Matmuls m = matmuls(p, c);
    EXPECT_EQ(m.all.size(), 39u);
    EXPECT_EQ(m.cycles, 1325u);
    EXPECT_EQ(m.ending, 1);
    EXPECT_EQ(p.blocks.size(), 13u);
}

// os, 16x200x16 on 8x8 with a 1 KiB L0: no k-step can hold all of K = 200,
// so the tiles are one fold (8 x 8) and their 8-deep k-steps continue it:
// 4 folds of 200 + 14: 4 * 214 - 1 = 855 cycles, one fill per fold.
TEST(LowerFoldMajor, OutputStationaryChainsItsKSteps) {
    const arch::Config c =
        config(R"({"chip": {"clusters": 1}, "cluster": {"cubes": 1}, "cube": {"dataflow": "os", "mac_rows": 8,
                   "mac_cols": 8, "l0_kib": 1}})");
    const arch::Program p = lower(
        "import pypto as pypo\n"
        "a = pypo.input(\"a\", shape=(16, 200))\n"
        "b = pypo.input(\"b\", shape=(200, 16))\n"
        "pypo.output(\"c\", pypo.op.matmul(a, b))\n",
        c);
    const Matmuls m = matmuls(p, c);
    EXPECT_EQ(m.cycles, 855u);
    EXPECT_EQ(m.ending, 1);
    for (const arch::MatmulArgs& mm : m.all) {
        EXPECT_LE(mm.m, 8u);
        EXPECT_LE(mm.n, 8u);
    }
    EXPECT_EQ(int(m.all.size()) - m.continuing, 4);  // one MATMUL per fold pays its fill
}

}  // namespace
