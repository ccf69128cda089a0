// arch::ceil_div (sim/arch/ceil_div.h), the one rounding-up division of the
// compiler and the model: exact at the boundaries, signed and unsigned.
#include "sim/arch/ceil_div.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace {

static_assert(arch::ceil_div(0, 4) == 0);
static_assert(arch::ceil_div<uint64_t>(7, 2u) == 4);

TEST(CeilDiv, ExactAtMultiplesOfTheDivisor) {
    EXPECT_EQ(arch::ceil_div<int64_t>(63, 64), 1);
    EXPECT_EQ(arch::ceil_div<int64_t>(64, 64), 1);
    EXPECT_EQ(arch::ceil_div<int64_t>(65, 64), 2);
    EXPECT_EQ(arch::ceil_div<uint64_t>(127, 64), 2u);
    EXPECT_EQ(arch::ceil_div<uint64_t>(128, 64), 2u);
    EXPECT_EQ(arch::ceil_div<uint64_t>(129, 64), 3u);
    EXPECT_EQ(arch::ceil_div<uint64_t>(5, 1), 5u);
}

// Large operands of either signedness, as byte counts of big transfers.
TEST(CeilDiv, LargeOperands) {
    const uint64_t big = uint64_t(1) << 62;
    EXPECT_EQ(arch::ceil_div(big + 1, big), 2u);
    const int64_t sbig = std::numeric_limits<int64_t>::max() / 2;
    EXPECT_EQ(arch::ceil_div(sbig, sbig), 1);
}

}  // namespace
