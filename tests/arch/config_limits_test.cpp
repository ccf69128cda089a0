// Absurd hardware descriptions are refused with the key that is wrong, not
// simulated until memory runs out or a byte count overflows.
#include "sim/arch/config.h"

#include <string>

#include <gtest/gtest.h>

namespace {

std::string error_of(const std::string& text) {
    try {
        arch::config_from_text(text, "x.json");
    } catch (const arch::ConfigError& e) {
        return e.what();
    }
    return "(accepted)";
}

TEST(ConfigLimits, TrillionClusters) {
    EXPECT_EQ(error_of(R"({"chip": {"clusters": 1000000000000}})"),
              "x.json: chip.clusters: 1000000000000 is too large (at most 1024)");
}

TEST(ConfigLimits, ClusterCountBoundary) {
    EXPECT_EQ(error_of(R"({"chip": {"clusters": 1024}, "cluster": {"cubes": 1}})"), "(accepted)");
    EXPECT_EQ(error_of(R"({"chip": {"clusters": 1025}})"), "x.json: chip.clusters: 1025 is too large (at most 1024)");
}

TEST(ConfigLimits, TerabyteL1) {
    EXPECT_EQ(error_of(R"({"cluster": {"l1_kib": 1073741824}})"),
              "x.json: cluster.l1_kib: 1073741824 is too large (at most 1048576)");
}

TEST(ConfigLimits, BufferBoundaryIsOneGibibyte) {
    arch::Config c = arch::config_from_text(R"({"cluster": {"l1_kib": 1048576}, "cube": {"l0_kib": 1048576}})", "x");
    EXPECT_EQ(c.l1_bytes(), int64_t{1} << 30);
    EXPECT_EQ(c.l0_bytes(), int64_t{1} << 30);
    EXPECT_EQ(error_of(R"({"cube": {"l0_kib": 1048577}})"),
              "x.json: cube.l0_kib: 1048577 is too large (at most 1048576)");
}

// 2^64 B does not fit in 64 bits: JSON reads it as a float, which a size is not.
TEST(ConfigLimits, SizeBeyondSixtyFourBits) {
    EXPECT_EQ(error_of(R"({"ddr": {"size_gib": 18446744073709551616}})"),
              "x.json: ddr.size_gib: expected a positive integer, got 1.8446744073709552e+19");
    EXPECT_EQ(error_of(R"({"ddr": {"size_gib": 1e400}})"),
              "x.json:1:26: invalid JSON: number overflow parsing '1e400'");
}

TEST(ConfigLimits, ZeroBandwidth) {
    EXPECT_EQ(error_of(R"({"ddr": {"bytes_per_cycle": 0}})"),
              "x.json: ddr.bytes_per_cycle: expected a positive integer, got 0");
    EXPECT_EQ(error_of(R"({"cluster": {"l1_bytes_per_cycle": 0}})"),
              "x.json: cluster.l1_bytes_per_cycle: expected a positive integer, got 0");
}

// The largest array per dimension: the derived MACs per cycle (2^30) stay
// far from overflow. Its smallest tile needs 8 MiB of L0 and 4 MiB of L1
// (config_smallest_tile_test.cpp).
TEST(ConfigLimits, MacArrayDimensions) {
    arch::Config c = arch::config_from_text(
        R"({"cube": {"mac_rows": 1024, "mac_cols": 1024, "k_per_cycle": 1024, "l0_kib": 8192}, "cluster": {"l1_kib": 4096}})",
        "x");
    EXPECT_EQ(c.macs_per_cycle(), int64_t{1} << 30);
    EXPECT_EQ(error_of(R"({"cube": {"mac_rows": 2147483647}})"),
              "x.json: cube.mac_rows: 2147483647 is too large (at most 1024)");
}

// Each engine is a SystemC thread: 1024 clusters x (2 x 7 + 1 + 1) = 16384
// is the most; one more cube per cluster is refused, naming all four keys.
TEST(ConfigLimits, TotalEngines) {
    EXPECT_EQ(error_of(R"({"chip": {"clusters": 1024}, "cluster": {"cubes": 7}})"), "(accepted)");
    EXPECT_EQ(error_of(R"({"chip": {"clusters": 1024}, "cluster": {"cubes": 8}})"),
              "x.json: chip.clusters x (2 x cluster.cubes + cluster.dma_engines + cluster.vector_units) = "
              "1024 x (2 x 8 + 1 + 1) = 18432 engines, at most 16384 (each is a simulated thread)");
}

TEST(ConfigLimits, ClockRange) {
    EXPECT_EQ(error_of(R"({"clock_ghz": 0.001})"), "(accepted)");
    EXPECT_EQ(error_of(R"({"clock_ghz": 1000})"), "(accepted)");
    EXPECT_EQ(error_of(R"({"clock_ghz": 1e-300})"),
              "x.json: clock_ghz: expected a number from 0.001 to 1000, got 1e-300");
    EXPECT_EQ(error_of(R"({"clock_ghz": 1000.5})"),
              "x.json: clock_ghz: expected a number from 0.001 to 1000, got 1000.5");
}

// Valid JSON, wrong shape: each names where the shape goes wrong.
TEST(ConfigLimits, ValidJsonOfTheWrongShape) {
    EXPECT_EQ(error_of(R"([{"chip": {"clusters": 2}}])"),
              "x.json: expected a JSON object at the top level, got [{\"chip\":{\"clusters\":2}}]");
    EXPECT_EQ(error_of(R"({"chip": [4]})"), "x.json: chip: expected an object, got [4]");
    EXPECT_EQ(error_of(R"({"chip": {"clusters": {"count": 4}}})"),
              "x.json: chip.clusters: expected a positive integer, got {\"count\":4}");
    EXPECT_EQ(error_of(R"("cluster.json")"), "x.json: expected a JSON object at the top level, got \"cluster.json\"");
}

TEST(ConfigLimits, DuplicateKeys) {
    EXPECT_EQ(error_of(R"({"cube": {"l0_kib": 32, "l0_kib": 64}})"),
              "x.json: cube.l0_kib: duplicate key (given twice in one object)");
    EXPECT_EQ(error_of(R"({"cube": {"l0_kib": 32}, "cube": {"mac_rows": 8}})"),
              "x.json: cube: duplicate key (given twice in one object)");
}

}  // namespace
