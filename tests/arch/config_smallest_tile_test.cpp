// A memory too small for the smallest cube tile is refused when the config
// loads, naming its key, not later at the first matmul that cannot fit.
// 64x32 MAC array: the smallest tile is 64x64x32 (k = the larger side), so
// A = 64x64 and B = 64x32 float16 (8 + 4 KiB), C = 64x32 float32 (8 KiB).
#include "sim/arch/config.h"

#include <string>

#include <gtest/gtest.h>

namespace {

std::string error_of(const std::string& cube, const std::string& l1_kib = "1024") {
    try {
        arch::config_from_text(
            R"({"cube": {"mac_rows": 64, "mac_cols": 32)" + cube + R"(}, "cluster": {"l1_kib": )" + l1_kib + "}}",
            "x.json");
    } catch (const arch::ConfigError& e) {
        return e.what();
    }
    return "(accepted)";
}

const std::string kTile = "the smallest cube tile (64x64x32, for cube.mac_rows x cube.mac_cols = 64x32)";

TEST(ConfigSmallestTile, L0Boundary) {
    EXPECT_EQ(error_of(R"(, "l0_kib": 20)"), "(accepted)");
    EXPECT_EQ(error_of(R"(, "l0_kib": 19)"),
              "x.json: cube.l0_kib: 19 KiB cannot hold " + kTile +
                  " with float16 A and B tiles and a float32 accumulator: it needs 20 KiB");
}

TEST(ConfigSmallestTile, L1Boundary) {
    EXPECT_EQ(error_of(R"(, "l0_kib": 20)", "12"), "(accepted)");
    EXPECT_EQ(error_of(R"(, "l0_kib": 20)", "11"),
              "x.json: cluster.l1_kib: 11 KiB cannot hold the float16 A and B tiles of one matmul step on " + kTile +
                  ": it needs 12 KiB");
}

TEST(ConfigSmallestTile, SplitL0Boundaries) {
    EXPECT_EQ(error_of(R"(, "l0_kib": 20, "l0a_kib": 8, "l0b_kib": 4, "l0c_kib": 8)"), "(accepted)");
    EXPECT_EQ(error_of(R"(, "l0_kib": 20, "l0a_kib": 7, "l0b_kib": 5, "l0c_kib": 8)"),
              "x.json: cube.l0a_kib: 7 KiB cannot hold the float16 A tile of " + kTile + ": it needs 8 KiB");
    EXPECT_EQ(error_of(R"(, "l0_kib": 20, "l0a_kib": 9, "l0b_kib": 3, "l0c_kib": 8)"),
              "x.json: cube.l0b_kib: 3 KiB cannot hold the float16 B tile of " + kTile + ": it needs 4 KiB");
    EXPECT_EQ(error_of(R"(, "l0_kib": 20, "l0a_kib": 8, "l0b_kib": 5, "l0c_kib": 7)"),
              "x.json: cube.l0c_kib: 7 KiB cannot hold the float32 accumulator of " + kTile + ": it needs 8 KiB");
}

// The documents' 4x4 cube needs 128 bytes of L0: the smallest size, 1 KiB, loads.
TEST(ConfigSmallestTile, DefaultCubeTakesOneKibibyte) {
    EXPECT_NO_THROW(arch::config_from_text(R"({"cube": {"l0_kib": 1}, "cluster": {"l1_kib": 1}})", "x.json"));
}

}  // namespace
