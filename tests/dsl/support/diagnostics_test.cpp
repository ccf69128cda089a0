#include "dsl/support/diagnostics.h"

#include "tests/dsl/dsl_test_util.h"

using dsl_test::at;
using dsl_test::source;

namespace {}  // namespace

TEST(Diagnostics, LineTextSplitsOnNewlinesAndDropsCarriageReturns) {
    auto f = source("first\r\nsecond\n\nfourth");
    EXPECT_EQ(f->line_text(1), "first");
    EXPECT_EQ(f->line_text(2), "second");
    EXPECT_EQ(f->line_text(3), "");
    EXPECT_EQ(f->line_text(4), "fourth");
    EXPECT_EQ(f->line_text(5), "");
    EXPECT_EQ(f->line_text(0), "");
}

// A bare "\r" ends a line, as it does for the lexer (dsl/support/line_breaks.h).
TEST(Diagnostics, LineTextSplitsOnBareCarriageReturns) {
    auto f = source("one\rtwo\r\rfour\r\nfive\r");
    EXPECT_EQ(f->line_text(1), "one");
    EXPECT_EQ(f->line_text(2), "two");
    EXPECT_EQ(f->line_text(3), "");
    EXPECT_EQ(f->line_text(4), "four");
    EXPECT_EQ(f->line_text(5), "five");
    EXPECT_EQ(f->line_text(6), "");
    EXPECT_EQ(f->line_text(7), "");
}

// A column past the end of its line (short or windowed) prints the caret
// just after the line instead of throwing.
TEST(Diagnostics, ColumnPastTheLineIsClampedNeverThrows) {
    auto f = source("abc\n");
    EXPECT_EQ(dsl::format_diagnostic(at(f, 1, 50), "bad"), "t.pto:1:50: error: bad\nabc\n   ^\n");
    auto g = source(std::string(300, 'x') + "\n");
    const std::string long_line = dsl::format_diagnostic(at(g, 1, 2000), "bad");
    EXPECT_EQ(long_line, "t.pto:1:2000: error: bad\n..." + std::string(80, 'x') + "\n" + std::string(83, ' ') + "^\n");
    EXPECT_EQ(dsl::format_diagnostic(at(f, 9, 4), "bad"), "t.pto:9:4: error: bad\n\n^\n");
}

TEST(Diagnostics, FormatsLocationSourceLineAndCaret) {
    auto f = source("x = 1\nc = pypo.op.matmul(a, b)\n", "models/gemm.pto");
    EXPECT_EQ(dsl::format_diagnostic(at(f, 2, 5), "something is wrong"),
              "models/gemm.pto:2:5: error: something is wrong\n"
              "c = pypo.op.matmul(a, b)\n"
              "    ^\n");
}

TEST(Diagnostics, CaretKeepsTabsSoItLinesUp) {
    auto f = source("\tx =\t$\n");
    EXPECT_EQ(dsl::format_diagnostic(at(f, 1, 6), "bad"), "t.pto:1:6: error: bad\n\tx =\t$\n\t   \t^\n");
}

TEST(Diagnostics, CaretAtColumnOne) {
    auto f = source("oops\n");
    EXPECT_EQ(dsl::format_diagnostic(at(f, 1, 1), "bad"), "t.pto:1:1: error: bad\noops\n^\n");
}

TEST(Diagnostics, CompileErrorKeepsLocationAndMessage) {
    auto f = source("abc\n");
    dsl::CompileError e(at(f, 1, 2), "no");
    EXPECT_EQ(e.message(), "no");
    EXPECT_EQ(e.loc().line, 1);
    EXPECT_EQ(e.loc().col, 2);
    EXPECT_STREQ(e.what(), "t.pto:1:2: error: no\nabc\n ^\n");
}

TEST(Diagnostics, FileLevelErrorHasNoLineOrCaret) {
    EXPECT_STREQ(dsl::file_error("missing.pto").what(), "missing.pto: error: cannot open file\n");
}
