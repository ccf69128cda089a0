#include "dsl/syntax/lexer.h"

#include "tests/dsl/dsl_test_util.h"

using dsl_test::error_of;
using dsl_test::source;

namespace {

std::vector<dsl::Token> lex(const std::string& text) { return dsl::tokenize(source(text)); }

// Tokens as one line: source spellings, with layout tokens in angle brackets.
std::string spell(const std::string& text) {
    std::string out;
    for (const dsl::Token& t : lex(text)) {
        if (!out.empty()) out += ' ';
        switch (t.kind) {
        case dsl::TokenKind::Newline: out += "<NL>"; break;
        case dsl::TokenKind::Indent: out += "<IN>"; break;
        case dsl::TokenKind::Dedent: out += "<DE>"; break;
        case dsl::TokenKind::End: out += "<END>"; break;
        default: out += t.text;
        }
    }
    return out;
}

std::string lex_error(const std::string& text) {
    return error_of([&] { lex(text); });
}

}  // namespace

TEST(Lexer, TokensCarryKindTextAndLocation) {
    auto toks = lex("c = pypo.op.matmul(a, b, tile=64)\n");
    ASSERT_EQ(toks.size(), 18u);
    EXPECT_EQ(toks[0].kind, dsl::TokenKind::Name);
    EXPECT_EQ(toks[0].text, "c");
    EXPECT_EQ(toks[0].loc.line, 1);
    EXPECT_EQ(toks[0].loc.col, 1);
    EXPECT_EQ(toks[1].kind, dsl::TokenKind::Op);
    EXPECT_EQ(toks[1].text, "=");
    EXPECT_EQ(toks[1].loc.col, 3);
    EXPECT_EQ(toks[6].text, "matmul");
    EXPECT_EQ(toks[6].loc.col, 13);
    EXPECT_EQ(toks[7].text, "(");
    EXPECT_EQ(toks[7].loc.col, 19);
    EXPECT_EQ(toks[14].kind, dsl::TokenKind::Int);
    EXPECT_EQ(toks[14].int_value, 64);
    EXPECT_EQ(toks[14].loc.col, 31);
    EXPECT_EQ(toks[16].kind, dsl::TokenKind::Newline);
    EXPECT_EQ(toks[17].kind, dsl::TokenKind::End);
    EXPECT_EQ(toks[0].loc.file->path, "t.pto");
}

TEST(Lexer, KeywordsAreDistinguishedFromNames) {
    auto toks = lex("import pypto as pypo\nTrue None notx not\n");
    EXPECT_EQ(toks[0].kind, dsl::TokenKind::Keyword);
    EXPECT_EQ(toks[1].kind, dsl::TokenKind::Name);
    EXPECT_EQ(toks[2].kind, dsl::TokenKind::Keyword);
    EXPECT_EQ(toks[5].kind, dsl::TokenKind::Keyword);  // True
    EXPECT_EQ(toks[6].kind, dsl::TokenKind::Keyword);  // None
    EXPECT_EQ(toks[7].kind, dsl::TokenKind::Name);     // notx
    EXPECT_EQ(toks[8].kind, dsl::TokenKind::Keyword);  // not
    EXPECT_TRUE(dsl::is_python_keyword("lambda"));
    EXPECT_FALSE(dsl::is_python_keyword("match"));  // a soft keyword stays a name
}

TEST(Lexer, IndentAndDedent) {
    EXPECT_EQ(spell("if x:\n    a\n    b\nc\n"), "if x : <NL> <IN> a <NL> b <NL> <DE> c <NL> <END>");
}

TEST(Lexer, SeveralDedentsAtOnceAndAtEndOfFile) {
    EXPECT_EQ(spell("a:\n  b:\n    c\nd\n"), "a : <NL> <IN> b : <NL> <IN> c <NL> <DE> <DE> d <NL> <END>");
    EXPECT_EQ(spell("a:\n  b:\n    c"), "a : <NL> <IN> b : <NL> <IN> c <NL> <DE> <DE> <END>");
}

TEST(Lexer, BlankAndCommentLinesDoNotAffectIndentation) {
    EXPECT_EQ(spell("a:\n    b\n\n# note\n        # deeper comment\n    c  # trailing\n"),
              "a : <NL> <IN> b <NL> c <NL> <DE> <END>");
}

TEST(Lexer, EmptyAndCommentOnlyFilesHaveOnlyEnd) {
    EXPECT_EQ(spell(""), "<END>");
    EXPECT_EQ(spell("# nothing\n\n   \n"), "<END>");
}

TEST(Lexer, BracketsJoinLinesImplicitly) {
    EXPECT_EQ(spell("f(a,\n      b,  # why\n\n  c)\nd\n"), "f ( a , b , c ) <NL> d <NL> <END>");
}

TEST(Lexer, BackslashJoinsLinesExplicitly) {
    auto toks = lex("x = 1 + \\\n  2\n");
    EXPECT_EQ(spell("x = 1 + \\\n  2\n"), "x = 1 + 2 <NL> <END>");
    EXPECT_EQ(toks[4].loc.line, 2);
    EXPECT_EQ(toks[4].loc.col, 3);
}

TEST(Lexer, Numbers) {
    auto toks = lex("1_000 0 00 0x_ff 0o17 0b101 2.5 1e-3 .5 3. 1_0.2_5e+1_0 2E3\n");
    EXPECT_EQ(toks[0].int_value, 1000);
    EXPECT_EQ(toks[1].int_value, 0);
    EXPECT_EQ(toks[2].int_value, 0);
    EXPECT_EQ(toks[3].int_value, 255);
    EXPECT_EQ(toks[4].int_value, 15);
    EXPECT_EQ(toks[5].int_value, 5);
    EXPECT_EQ(toks[6].kind, dsl::TokenKind::Float);
    EXPECT_DOUBLE_EQ(toks[6].float_value, 2.5);
    EXPECT_DOUBLE_EQ(toks[7].float_value, 1e-3);
    EXPECT_DOUBLE_EQ(toks[8].float_value, 0.5);
    EXPECT_DOUBLE_EQ(toks[9].float_value, 3.0);
    EXPECT_DOUBLE_EQ(toks[10].float_value, 10.25e10);
    EXPECT_DOUBLE_EQ(toks[11].float_value, 2000.0);
    EXPECT_EQ(toks[11].text, "2E3");
    EXPECT_EQ(lex("9223372036854775807\n")[0].int_value, INT64_MAX);
}

TEST(Lexer, StringsWithEscapes) {
    auto toks = lex(R"(s = "a\tb\n" 'it\'s' "\x41\u00e9" r'\d+' "say \"hi\"" '\q')"
                    "\n");
    EXPECT_EQ(toks[2].kind, dsl::TokenKind::String);
    EXPECT_EQ(toks[2].str_value, "a\tb\n");
    EXPECT_EQ(toks[2].text, R"("a\tb\n")");
    EXPECT_EQ(toks[3].str_value, "it's");
    EXPECT_EQ(toks[4].str_value, "A\xC3\xA9");
    EXPECT_EQ(toks[5].str_value, "\\d+");
    EXPECT_EQ(toks[6].str_value, "say \"hi\"");
    EXPECT_EQ(toks[7].str_value, "\\q");  // unknown escapes stay, as in Python
}

TEST(Lexer, TripleQuotedStringsSpanLines) {
    auto toks = lex("doc = \"\"\"one\ntwo \"quoted\" \"\"\"\nx = 1\n");
    EXPECT_EQ(toks[2].str_value, "one\ntwo \"quoted\" ");
    EXPECT_EQ(toks[4].text, "x");
    EXPECT_EQ(toks[4].loc.line, 3);
}

TEST(Lexer, AllOperatorsAndDelimiters) {
    EXPECT_EQ(spell("+ - * / // % ** @ << >> & | ^ ~ < > <= >= == != ( ) [ ] { } , : . ; = -> += -= *= /= "
                    "//= %= @= &= |= ^= >>= <<= **= := ...\n"),
              "+ - * / // % ** @ << >> & | ^ ~ < > <= >= == != ( ) [ ] { } , : . ; = -> += -= *= /= "
              "//= %= @= &= |= ^= >>= <<= **= := ... <NL> <END>");
    EXPECT_EQ(spell("a**-b//c\n"), "a ** - b // c <NL> <END>");
}

TEST(Lexer, CrLfLineEndings) {
    EXPECT_EQ(spell("a = 1\r\nif b:\r\n  c\r\n"), "a = 1 <NL> if b : <NL> <IN> c <NL> <DE> <END>");
}

// A bare "\r" ends a line for the lexer and for the diagnostic that quotes
// it alike: the caret sits under the offending character of the right line.
TEST(Lexer, BareCarriageReturnLineEndings) {
    EXPECT_EQ(spell("a = 1\rif b:\r  c\r"), "a = 1 <NL> if b : <NL> <IN> c <NL> <DE> <END>");
    EXPECT_EQ(lex_error("a = 1\rb = 2 $\rc = 3\n"), "t.pto:2:7: error: invalid character '$'\nb = 2 $\n      ^\n");
    EXPECT_EQ(lex_error("a = 1\rb = \xff\n"),
              "t.pto:2:5: error: invalid UTF-8 byte 0xFF: a program must be UTF-8 text\nb = ?\n    ^\n");
}

TEST(Lexer, ErrorInconsistentDedent) {
    EXPECT_EQ(lex_error("if x:\n    a\n  b\n"),
              "t.pto:3:3: error: unindent does not match any outer indentation level\n  b\n  ^\n");
}

TEST(Lexer, ErrorTabsAndSpacesMixed) {
    // A tab is 8 columns to Python but 1 to an editor set otherwise: ambiguous.
    EXPECT_EQ(lex_error("if x:\n\ta\n\tb\n"), "<no error>");
    EXPECT_EQ(lex_error("if x:\n        a\n\tb\n"),
              "t.pto:3:2: error: inconsistent use of tabs and spaces in indentation\n\tb\n\t^\n");
    EXPECT_EQ(lex_error("if x:\n    a\n\tb\n"),
              "t.pto:3:2: error: inconsistent use of tabs and spaces in indentation\n\tb\n\t^\n");
}

TEST(Lexer, ErrorUnterminatedStrings) {
    EXPECT_EQ(lex_error("x = \"abc\ny = 1\n"), "t.pto:1:5: error: unterminated string literal\nx = \"abc\n    ^\n");
    EXPECT_EQ(lex_error("x = '''abc\n"),
              "t.pto:1:5: error: unterminated triple-quoted string literal\nx = '''abc\n    ^\n");
}

TEST(Lexer, ErrorInvalidCharacters) {
    EXPECT_EQ(lex_error("x = a $ b\n"), "t.pto:1:7: error: invalid character '$'\nx = a $ b\n      ^\n");
    EXPECT_EQ(lex_error("f(a\xEF\xBC\x8C b)\n"),
              "t.pto:1:4: error: invalid character '\xEF\xBC\x8C' (U+FF0C)\nf(a\xEF\xBC\x8C b)\n   ^\n");
}

TEST(Lexer, ErrorBadNumbers) {
    EXPECT_EQ(lex_error("n = 1__000\n"), "t.pto:1:5: error: invalid decimal literal\nn = 1__000\n    ^\n");
    EXPECT_EQ(lex_error("n = 12abc\n"), "t.pto:1:5: error: invalid decimal literal\nn = 12abc\n    ^\n");
    EXPECT_EQ(lex_error("n = 0x\n"), "t.pto:1:5: error: invalid hexadecimal literal\nn = 0x\n    ^\n");
    EXPECT_EQ(lex_error("n = 0123\n"),
              "t.pto:1:5: error: leading zeros in decimal integer literals are not permitted; use an 0o prefix "
              "for octal integers\nn = 0123\n    ^\n");
    EXPECT_EQ(lex_error("n = 9223372036854775808\n"),
              "t.pto:1:5: error: integer literal is too large (the limit is 9223372036854775807)\n"
              "n = 9223372036854775808\n    ^\n");
}

TEST(Lexer, ErrorUnmatchedClosingBracket) {
    EXPECT_EQ(lex_error("x = a)\n"), "t.pto:1:6: error: unmatched ')'\nx = a)\n     ^\n");
}

TEST(Lexer, ErrorBackslashNotAtEndOfLine) {
    EXPECT_EQ(lex_error("x = 1 \\ + 2\n"),
              "t.pto:1:7: error: unexpected character after line continuation character\nx = 1 \\ + 2\n      ^\n");
}

TEST(Lexer, ErrorUnsupportedStringPrefix) {
    EXPECT_EQ(lex_error("s = f'{x}'\n"),
              "t.pto:1:5: error: string prefix 'f' is not supported; only plain and r'' strings are\n"
              "s = f'{x}'\n    ^\n");
}
