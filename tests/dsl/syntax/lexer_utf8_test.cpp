// A program must be UTF-8 text without NUL bytes, as Python source is; the
// first bad byte is reported where it is.
#include "dsl/support/utf8.h"
#include "dsl/syntax/lexer.h"

#include "tests/dsl/dsl_test_util.h"

using dsl_test::error_of;
using dsl_test::source;

namespace {

std::string lex_error(const std::string& text) {
    return error_of([&] { dsl::tokenize(source(text, "u.pto")); });
}

TEST(Utf8, SequenceLengths) {
    EXPECT_EQ(dsl::utf8_sequence_length("a", 0), 1u);
    EXPECT_EQ(dsl::utf8_sequence_length("\xc3\xa9", 0), 2u);
    EXPECT_EQ(dsl::utf8_sequence_length("\xef\xbc\x8c", 0), 3u);      // U+FF0C
    EXPECT_EQ(dsl::utf8_sequence_length("\xf0\x9f\x98\x80", 0), 4u);  // U+1F600
    EXPECT_EQ(dsl::utf8_sequence_length("\xe9", 0), 0u);              // Latin-1 'é'
    EXPECT_EQ(dsl::utf8_sequence_length("\xc3", 0), 0u);              // cut short
    EXPECT_EQ(dsl::utf8_sequence_length("\xa9", 0), 0u);              // continuation byte
    EXPECT_EQ(dsl::utf8_sequence_length("\xc0\xaf", 0), 0u);          // overlong '/'
    EXPECT_EQ(dsl::utf8_sequence_length("\xe0\x80\xaf", 0), 0u);      // overlong
    EXPECT_EQ(dsl::utf8_sequence_length("\xed\xa0\x80", 0), 0u);      // surrogate U+D800
    EXPECT_EQ(dsl::utf8_sequence_length("\xf4\x90\x80\x80", 0), 0u);  // above U+10FFFF
    EXPECT_EQ(dsl::utf8_sequence_length("\xff", 0), 0u);
}

TEST(LexerUtf8, Latin1ByteInAString) {
    EXPECT_EQ(lex_error("x = 1\ny = 'caf\xe9'\n"),
              "u.pto:2:9: error: invalid UTF-8 byte 0xE9: a program must be UTF-8 text\ny = 'caf?'\n        ^\n");
}

TEST(LexerUtf8, InvalidByteInAComment) {
    EXPECT_EQ(lex_error("# \xff\n"),
              "u.pto:1:3: error: invalid UTF-8 byte 0xFF: a program must be UTF-8 text\n# ?\n  ^\n");
}

TEST(LexerUtf8, NulByte) {
    EXPECT_EQ(lex_error(std::string("x = 1\0\n", 7)),
              "u.pto:1:6: error: invalid character U+0000: a program must be UTF-8 text\nx = 1?\n     ^\n");
}

// Columns do not count the byte-order mark, which a terminal does not show.
TEST(LexerUtf8, ColumnsAfterAByteOrderMark) {
    EXPECT_EQ(lex_error("\xef\xbb\xbfx = '\xe9'\n"),
              "u.pto:1:6: error: invalid UTF-8 byte 0xE9: a program must be UTF-8 text\n\xef\xbb\xbfx = '?'\n     ^\n");
}

TEST(LexerUtf8, WellFormedTextIsAccepted) {
    EXPECT_NO_THROW(dsl::tokenize(source("name = 'caf\xc3\xa9 \xe4\xb8\xad'  # \xf0\x9f\x98\x80\n", "u.pto")));
}

}  // namespace
