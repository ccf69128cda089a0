// bfloat16 conversion at its boundaries (ties to even on the 16 dropped
// bits, the carry into the exponent, overflow to infinity, NaN kept quiet,
// subnormals), and the functional model's loads, stores and rounding of
// bfloat16 elements.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "sim/arch/bfloat16.h"
#include "sim/func/numerics.h"

namespace {

using arch::bfloat16_to_float;
using arch::float_to_bfloat16;

TEST(BFloat16, ExactValuesRoundTrip) {
    for (uint32_t b = 0; b < 0x7f80; ++b) {
        EXPECT_EQ(float_to_bfloat16(bfloat16_to_float(uint16_t(b))), b) << b;
        EXPECT_EQ(float_to_bfloat16(bfloat16_to_float(uint16_t(b | 0x8000))), b | 0x8000) << b;
    }
}

TEST(BFloat16, TiesToEven) {
    EXPECT_EQ(float_to_bfloat16(1.0f), 0x3f80);
    // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: to 1 (even).
    EXPECT_EQ(float_to_bfloat16(1.0f + 0x1p-8f), 0x3f80);
    // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 and 1 + 2^-6: to the even 1 + 2^-6.
    EXPECT_EQ(float_to_bfloat16(1.0f + 3 * 0x1p-8f), 0x3f82);
    EXPECT_EQ(float_to_bfloat16(1.0f + 0x1p-8f + 0x1p-23f), 0x3f81);  // just above the tie
    EXPECT_EQ(float_to_bfloat16(-(1.0f + 0x1p-8f)), 0xbf80);
    // 1.9921875 (0x3fff) + half an ulp carries into the exponent: 2.0.
    EXPECT_EQ(float_to_bfloat16(0x1.ffp0f), 0x4000);
    EXPECT_EQ(bfloat16_to_float(0x4049), 3.140625f);  // pi, rounded down
    EXPECT_EQ(float_to_bfloat16(3.14159265f), 0x4049);
}

TEST(BFloat16, RangeIsFloat32s) {
    // The largest bfloat16, 0x7f7f = (2 - 2^-7) * 2^127, and the midpoint above it to infinity.
    EXPECT_EQ(bfloat16_to_float(0x7f7f), 0x1.fep127f);
    EXPECT_EQ(float_to_bfloat16(0x1.fep127f), 0x7f7f);
    EXPECT_EQ(float_to_bfloat16(0x1.ff0000p127f), 0x7f80);  // the tie rounds to even: inf
    EXPECT_EQ(float_to_bfloat16(0x1.fefffep127f), 0x7f7f);  // just below it
    EXPECT_EQ(float_to_bfloat16(65520.0f), 0x4780);         // float16's overflow is finite here: 65536
    EXPECT_EQ(float_to_bfloat16(std::numeric_limits<float>::infinity()), 0x7f80);
    EXPECT_EQ(float_to_bfloat16(-std::numeric_limits<float>::infinity()), 0xff80);
    // A NaN whose payload is all in the dropped bits stays NaN (quiet).
    uint32_t bits = 0x7f800001u;
    float snan;
    std::memcpy(&snan, &bits, 4);
    EXPECT_EQ(float_to_bfloat16(snan), 0x7fc0);
    EXPECT_TRUE(std::isnan(bfloat16_to_float(float_to_bfloat16(std::nanf("")))));
}

TEST(BFloat16, Subnormals) {
    EXPECT_EQ(float_to_bfloat16(0x1p-133f), 0x0001);    // the smallest subnormal
    EXPECT_EQ(float_to_bfloat16(0x1p-134f), 0x0000);    // half of it: the tie to even is 0
    EXPECT_EQ(float_to_bfloat16(0x1.8p-133f), 0x0002);  // 1.5 of it: to even, 2
    EXPECT_EQ(bfloat16_to_float(0x0001), 0x1p-133f);
}

TEST(BFloat16, FunctionalLoadsStoresAndRounds) {
    const std::vector<float> v{1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, -2.5f, 65520.0f};
    std::vector<uint8_t> bytes(8);
    func::store_run(bytes.data(), arch::DType::BFloat16, v.size(), v.data());
    EXPECT_EQ(bytes, (std::vector<uint8_t>{0x80, 0x3f, 0x82, 0x3f, 0x20, 0xc0, 0x80, 0x47}));
    std::vector<float> back(4);
    func::load_run(bytes.data(), arch::DType::BFloat16, 4, back.data());
    EXPECT_EQ(back, (std::vector<float>{1.0f, 1.015625f, -2.5f, 65536.0f}));
    EXPECT_EQ(func::load_one(bytes.data() + 2, arch::DType::BFloat16), 1.015625f);
    std::vector<float> r = v;
    func::round_run(arch::DType::BFloat16, r.size(), r.data());
    EXPECT_EQ(r, back);
    uint8_t one[2];
    func::store_one(one, arch::DType::BFloat16, 3.14159265f);
    EXPECT_EQ(one[0], 0x49);
    EXPECT_EQ(one[1], 0x40);
}

}  // namespace
