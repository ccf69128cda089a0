// IEEE binary16 conversion at its boundaries: the largest finite value, the
// overflow threshold, ties to even, subnormals and their underflow.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "sim/arch/half.h"

namespace {

using arch::float_to_half;
using arch::half_to_float;

TEST(Half, ExactValuesRoundTrip) {
    for (uint32_t h = 0; h < 0x7c00; ++h) {
        EXPECT_EQ(float_to_half(half_to_float(uint16_t(h))), h) << h;
        EXPECT_EQ(float_to_half(half_to_float(uint16_t(h | 0x8000))), h | 0x8000) << h;
    }
}

TEST(Half, LargestFiniteAndOverflow) {
    EXPECT_EQ(float_to_half(65504.0f), 0x7bff);
    EXPECT_EQ(float_to_half(65519.99f), 0x7bff);  // below the midpoint to 65536
    EXPECT_EQ(float_to_half(65520.0f), 0x7c00);   // the midpoint rounds to even: inf
    EXPECT_EQ(float_to_half(-1e6f), 0xfc00);
    EXPECT_EQ(float_to_half(std::numeric_limits<float>::infinity()), 0x7c00);
    EXPECT_TRUE(std::isnan(half_to_float(float_to_half(std::nanf("")))));
}

TEST(Half, TiesToEven) {
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: to 1 (even).
    EXPECT_EQ(float_to_half(1.0f + 0x1p-11f), 0x3c00);
    // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: to the even 1 + 2^-9.
    EXPECT_EQ(float_to_half(1.0f + 3 * 0x1p-11f), 0x3c02);
    EXPECT_EQ(float_to_half(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);  // just above the tie
}

TEST(Half, Subnormals) {
    EXPECT_EQ(float_to_half(0x1p-24f), 0x0001);  // the smallest subnormal
    EXPECT_EQ(half_to_float(0x0001), 0x1p-24f);
    EXPECT_EQ(float_to_half(0x1p-25f), 0x0000);             // half of it: tie to even, zero
    EXPECT_EQ(float_to_half(0x1.8p-25f), 0x0001);           // above the tie
    EXPECT_EQ(float_to_half(3 * 0x1p-25f), 0x0002);         // 1.5 units: tie to even, 2
    EXPECT_EQ(float_to_half(0x1p-14f), 0x0400);             // the smallest normal
    EXPECT_EQ(float_to_half(0x1p-14f - 0x1p-25f), 0x0400);  // rounds up into the normals
    EXPECT_EQ(half_to_float(0x03ff), 0x3ffp-24f);
}

}  // namespace
