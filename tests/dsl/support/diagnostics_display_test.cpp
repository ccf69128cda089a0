// How a diagnostic quotes a source line that is not plain short text: broken
// UTF-8 and control characters as '?', long lines as a window with the
// caret still under the column.
#include "dsl/support/diagnostics.h"

#include "tests/dsl/dsl_test_util.h"

using dsl_test::at;
using dsl_test::source;

namespace {

TEST(DiagnosticsDisplay, BrokenBytesShowAsQuestionMarksOneForOne) {
    auto f = source(std::string("a\x01 = \"caf\xe9\" \xc3\xa9\x7f", 15), "t.pto");
    EXPECT_EQ(dsl::format_diagnostic(at(f, 1, 10), "bad"),
              "t.pto:1:10: error: bad\na? = \"caf?\" \xc3\xa9?\n         ^\n");
}

TEST(DiagnosticsDisplay, LineOf160IsShownWhole) {
    auto f = source(std::string(159, 'a') + "b", "t.pto");
    EXPECT_EQ(dsl::format_diagnostic(at(f, 1, 160), "bad"),
              "t.pto:1:160: error: bad\n" + std::string(159, 'a') + "b\n" + std::string(159, ' ') + "^\n");
}

TEST(DiagnosticsDisplay, LongLineNearItsStart) {
    auto f = source("x" + std::string(999, 'a'), "t.pto");
    EXPECT_EQ(dsl::format_diagnostic(at(f, 1, 1), "bad"),
              "t.pto:1:1: error: bad\nx" + std::string(159, 'a') + "...\n^\n");
}

TEST(DiagnosticsDisplay, LongLineInTheMiddle) {
    auto f = source(std::string(500, 'a') + "X" + std::string(500, 'b'), "t.pto");
    EXPECT_EQ(dsl::format_diagnostic(at(f, 1, 501), "bad"), "t.pto:1:501: error: bad\n..." + std::string(80, 'a') +
                                                                "X" + std::string(79, 'b') + "...\n" +
                                                                std::string(83, ' ') + "^\n");
}

TEST(DiagnosticsDisplay, LongLineAtItsEnd) {
    auto f = source(std::string(1000, 'a') + "Z", "t.pto");
    EXPECT_EQ(dsl::format_diagnostic(at(f, 1, 1001), "bad"),
              "t.pto:1:1001: error: bad\n..." + std::string(80, 'a') + "Z\n" + std::string(83, ' ') + "^\n");
}

// The window never starts inside a UTF-8 sequence: 80 bytes before the
// column falls in the middle of a three-byte character, so it starts one
// byte earlier.
TEST(DiagnosticsDisplay, WindowStartsOnACharacterBoundary) {
    std::string wide;
    for (int i = 0; i < 300; ++i) wide += "\xe4\xb8\xad";  // U+4E2D, three bytes each
    auto f = source(wide + "X", "t.pto");
    std::string shown = "...";
    for (int i = 0; i < 27; ++i) shown += "\xe4\xb8\xad";
    EXPECT_EQ(dsl::format_diagnostic(at(f, 1, 901), "bad"),
              "t.pto:1:901: error: bad\n" + shown + "X\n" + std::string(84, ' ') + "^\n");
}

}  // namespace
