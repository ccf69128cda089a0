// Floats print as Python's repr does (in print/pypo.log text, messages and
// --dump-graph attributes).
#include <gtest/gtest.h>

#include "dsl/support/float_repr.h"

TEST(FloatRepr, MatchesPython) {
    EXPECT_EQ(dsl::float_repr(10.0), "10.0");
    EXPECT_EQ(dsl::float_repr(1000.0), "1000.0");
    EXPECT_EQ(dsl::float_repr(0.5), "0.5");
    EXPECT_EQ(dsl::float_repr(0.1), "0.1");
    EXPECT_EQ(dsl::float_repr(-2.5), "-2.5");
    EXPECT_EQ(dsl::float_repr(1e-4), "0.0001");
    EXPECT_EQ(dsl::float_repr(1e-5), "1e-05");
    EXPECT_EQ(dsl::float_repr(1.5e-5), "1.5e-05");
    EXPECT_EQ(dsl::float_repr(1e15), "1000000000000000.0");
    EXPECT_EQ(dsl::float_repr(1e16), "1e+16");
    EXPECT_EQ(dsl::float_repr(123456789012345678.0), "1.2345678901234568e+17");
    EXPECT_EQ(dsl::float_repr(0.0), "0.0");
    EXPECT_EQ(dsl::float_repr(1.0 / 3), "0.3333333333333333");
}
