// The chip's area (docs/timing-model.md §9, "Area"; sim/trace/area.h):
// each kind of unit times its area key, exactly, from the config alone.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_report.h"
#include "cli_util.h"

using namespace clitest;

namespace {

// The um^2 of the part named `key` (count x each), 0 if the chip has none.
uint64_t part_um2(const nlohmann::json& r, const std::string& key) {
    for (const nlohmann::json& p : r["area"]["parts"])
        if (p["key"] == key) {
            EXPECT_DOUBLE_EQ(p["mm2"].get<double>(),
                             double(p["count"].get<uint64_t>() * p["um2_each"].get<uint64_t>()) * 1e-6);
            return p["count"].get<uint64_t>() * p["um2_each"].get<uint64_t>();
        }
    return 0;
}

}  // namespace

// The documents' machine at 45 nm (configs/README.md): 4 clusters of 4
// cubes of 4 x 4 MACs at 10,270 um^2; one vector unit of 128 bytes a
// cluster at 4,870 um^2 a byte; 32 KiB of L0 a cube at 4,129 um^2 a KiB
// and 256 KiB of L1 a cluster at 4,671. No Unified Buffer, no L2.
TEST(Area, DefaultMachineIsTheSumOfItsUnits) {
    const nlohmann::json r = run_report("--op matmul --shape 64,64,64", "area_default");
    EXPECT_EQ(part_um2(r, "cube_macs"), 256ull * 10270);
    EXPECT_EQ(part_um2(r, "vector"), 512ull * 4870);
    EXPECT_EQ(part_um2(r, "l0"), 512ull * 4129);
    EXPECT_EQ(part_um2(r, "l1"), 1024ull * 4671);
    EXPECT_EQ(r["area"]["parts"].size(), 4u);
    EXPECT_DOUBLE_EQ(r["area"]["mm2"].get<double>(),
                     double(256ull * 10270 + 512ull * 4870 + 512ull * 4129 + 1024ull * 4671) * 1e-6);
}

// The 910B2 preset at 7 nm: 24 cube cores of 16 x 16 x 16 MACs, 48
// vector cores 256 bytes wide with 192 KiB Unified Buffers, 256 KiB of
// L0 (A, B and C) and 512 KiB of L1 a core, and the 192 MiB L2.
TEST(Area, Ascend910B2IsTheSumOfItsUnits) {
    const nlohmann::json r =
        run_report("--config configs/ascend_910b2.json --op matmul --shape 64,64,64", "area_910b2");
    EXPECT_EQ(part_um2(r, "cube_macs"), 98304ull * 606);
    EXPECT_EQ(part_um2(r, "vector"), 12288ull * 288);
    EXPECT_EQ(part_um2(r, "l0"), 6144ull * 451);
    EXPECT_EQ(part_um2(r, "l1"), 12288ull * 405);
    EXPECT_EQ(part_um2(r, "ub"), 9216ull * 414);
    EXPECT_EQ(part_um2(r, "l2"), 196608ull * 320);
    const Outcome text = run("--config configs/ascend_910b2.json --op matmul --shape 64,64,64");
    EXPECT_NE(text.out.find("\narea               137.589 mm2  (DDR off the chip)\n"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("  L2                      62.915 mm2  45.7 %  196,608 KiB x 320 um2\n"),
              std::string::npos);
}

// Area follows the hardware, not the run: more L1 adds exactly its KiB
// at the L1's area; the program does not matter.
TEST(Area, FollowsTheConfigNotTheProgram) {
    const nlohmann::json small = run_report("--op matmul --shape 64,64,64", "area_small");
    const nlohmann::json big = run_report("--op matmul --shape 512,512,512", "area_big");
    EXPECT_EQ(small["area"], big["area"]);
    const nlohmann::json more_l1 = run_report("--op matmul --shape 64,64,64 --set cluster.l1_kib=512", "area_l1");
    EXPECT_EQ(part_um2(more_l1, "l1") - part_um2(small, "l1"), 4ull * 256 * 4671);
}
