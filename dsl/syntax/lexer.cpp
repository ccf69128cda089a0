#include "dsl/syntax/lexer.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "dsl/support/diagnostics.h"
#include "dsl/support/line_breaks.h"
#include "dsl/support/utf8.h"

namespace dsl {

namespace {

const char* const kKeywords[] = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield",
};

// Longest first, so "**=" wins over "**" and "*".
const char* const kOperators[] = {
    "**=", "//=", ">>=", "<<=", "...", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->", "+=", "-=",
    "*=",  "/=",  "%=",  "&=",  "|=",  "^=", "@=", ":=", "+",  "-",  "*",  "/",  "%",  "@",  "&",  "|",
    "^",   "~",   "<",   ">",   "(",   ")",  "[",  "]",  "{",  "}",  ",",  ":",  ".",  ";",  "=",
};

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

class Lexer {
public:
    explicit Lexer(std::shared_ptr<const SourceFile> src) : src_(std::move(src)), text_(src_->text) {
        // An editor's UTF-8 byte-order mark is not part of the program.
        if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = line_start_ = 3;
    }

    std::vector<Token> run() {
        check_utf8();
        bool at_line_start = true;
        while (pos_ < text_.size()) {
            if (at_line_start && brackets_.empty()) {
                at_line_start = false;
                if (!indentation()) {  // blank or comment-only line
                    at_line_start = true;
                    continue;
                }
            }
            char c = text_[pos_];
            if (c == ' ' || c == '\t' || c == '\f') {
                ++pos_;
            } else if (c == '#') {
                skip_comment();
            } else if (is_line_break(c)) {
                SourceLoc loc = here();
                consume_newline();
                // Inside brackets a newline is only whitespace (implicit joining).
                if (brackets_.empty()) {
                    push_newline(loc);
                    at_line_start = true;
                }
            } else if (c == '\\') {
                continuation();
            } else if (is_digit(c) || (c == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))) {
                number();
            } else if (is_ident_start(c)) {
                name_or_string();
            } else if (c == '\'' || c == '"') {
                string(here(), pos_, false);
            } else {
                op();
            }
        }
        SourceLoc end = here();
        if (brackets_.empty()) {
            push_newline(end);
            while (indents_.size() > 1) {
                indents_.pop_back();
                push(TokenKind::Dedent, "", end);
            }
        }
        // With a bracket still open the parser reports "'(' was never closed".
        push(TokenKind::End, "", end);
        return std::move(tokens_);
    }

private:
    // Python reads source as UTF-8 without NUL bytes. Checked up front, so
    // that a Latin-1 or binary file stops at its first bad byte instead of
    // reaching names, strings and messages as broken text.
    void check_utf8() const {
        size_t line_start = line_start_;
        int line = 1;
        for (size_t i = pos_; i < text_.size();) {
            if (const size_t b = line_break_length(text_, i)) {
                ++line;
                line_start = i += b;
                continue;
            }
            const size_t n = utf8_sequence_length(text_, i);
            if (n == 0 || text_[i] == '\0') {
                SourceLoc loc;
                loc.file = src_;
                loc.line = line;
                loc.col = int(i - line_start) + 1;
                // Python refuses NUL in source too: it is how a binary file shows first.
                char buf[80];
                std::snprintf(buf, sizeof buf,
                              n == 0 ? "invalid UTF-8 byte 0x%02X: a program must be UTF-8 text"
                                     : "invalid character U+%04X: a program must be UTF-8 text",
                              unsigned((unsigned char)text_[i]));
                fail(loc, buf);
            }
            i += n;
        }
    }

    SourceLoc here() const { return loc_at(pos_); }
    SourceLoc loc_at(size_t pos) const {
        SourceLoc loc;
        loc.file = src_;
        loc.line = line_;
        loc.col = int(pos - line_start_) + 1;
        return loc;
    }
    [[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) const { throw CompileError(loc, msg); }

    Token& push(TokenKind kind, std::string text, const SourceLoc& loc) {
        Token t;
        t.kind = kind;
        t.text = std::move(text);
        t.loc = loc;
        tokens_.push_back(std::move(t));
        return tokens_.back();
    }

    void push_newline(const SourceLoc& loc) {
        if (tokens_.empty()) return;
        TokenKind last = tokens_.back().kind;
        if (last == TokenKind::Newline || last == TokenKind::Indent || last == TokenKind::Dedent) return;
        push(TokenKind::Newline, "", loc);
    }

    void consume_newline() {
        pos_ += line_break_length(text_, pos_);
        ++line_;
        line_start_ = pos_;
    }

    void skip_comment() {
        while (pos_ < text_.size() && !is_line_break(text_[pos_])) ++pos_;
    }

    // Measures the indentation of a new logical line and emits Indent/Dedent.
    // Returns false for a line with no tokens, which Python ignores entirely.
    // Two widths are kept, tabs to multiples of 8 and tabs as 1 column: when
    // they order the levels differently the indentation depends on the
    // reader's tab size, which is Python's TabError.
    bool indentation() {
        int col = 0, alt = 0;
        size_t start = pos_;
        while (pos_ < text_.size()) {
            char c = text_[pos_];
            if (c == ' ') {
                ++col;
                ++alt;
            } else if (c == '\t') {
                col = (col / 8 + 1) * 8;
                ++alt;
            } else if (c == '\f') {
                col = alt = 0;
            } else {
                break;
            }
            ++pos_;
        }
        if (pos_ >= text_.size()) return false;
        char c = text_[pos_];
        if (c == '#') {
            skip_comment();
            return false;
        }
        if (is_line_break(c)) {
            consume_newline();
            return false;
        }
        SourceLoc loc = here();
        auto [top, top_alt] = indents_.back();
        if (col == top) {
            if (alt != top_alt) tab_error(loc);
        } else if (col > top) {
            if (alt <= top_alt) tab_error(loc);
            // Python's limit; it also bounds the parser's block recursion.
            if (indents_.size() >= 100) fail(loc, "too many levels of indentation");
            indents_.push_back({col, alt});
            Token& t = push(TokenKind::Indent, "", loc);
            t.text = text_.substr(start, pos_ - start);
        } else {
            while (indents_.size() > 1 && col < indents_.back().first) {
                indents_.pop_back();
                push(TokenKind::Dedent, "", loc);
            }
            if (col != indents_.back().first) fail(loc, "unindent does not match any outer indentation level");
            if (alt != indents_.back().second) tab_error(loc);
        }
        return true;
    }

    [[noreturn]] void tab_error(const SourceLoc& loc) const {
        fail(loc, "inconsistent use of tabs and spaces in indentation");
    }

    void continuation() {
        SourceLoc loc = here();
        ++pos_;
        if (pos_ >= text_.size()) fail(loc, "unexpected end of file after line continuation character");
        if (!is_line_break(text_[pos_])) fail(loc, "unexpected character after line continuation character");
        consume_newline();
    }

    // Digits with single underscores between them; returns false on a
    // misplaced underscore so the caller can report the whole literal.
    bool digits(bool (*accept)(char)) {
        bool ok = true;
        while (pos_ < text_.size()) {
            char c = text_[pos_];
            if (accept(c)) {
                ++pos_;
            } else if (c == '_') {
                if (pos_ + 1 >= text_.size() || !accept(text_[pos_ + 1])) ok = false;
                ++pos_;
            } else {
                break;
            }
        }
        return ok;
    }

    void number() {
        SourceLoc loc = here();
        size_t start = pos_;
        bool is_float = false;
        bool ok = true;
        int base = 10;
        if (text_[pos_] == '0' && pos_ + 1 < text_.size() &&
            std::string("xXoObB").find(text_[pos_ + 1]) != std::string::npos) {
            char p = char(text_[pos_ + 1] | 0x20);
            base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
            pos_ += 2;
            if (pos_ < text_.size() && text_[pos_] == '_') ++pos_;
            size_t first = pos_;
            if (base == 16) ok = digits(is_hex);
            else if (base == 8) ok = digits([](char c) { return c >= '0' && c <= '7'; });
            else ok = digits([](char c) { return c == '0' || c == '1'; });
            if (pos_ == first) ok = false;
        } else {
            ok = digits(is_digit);
            if (pos_ < text_.size() && text_[pos_] == '.') {
                is_float = true;
                ++pos_;
                if (pos_ < text_.size() && is_digit(text_[pos_])) ok = digits(is_digit) && ok;
            }
            if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
                size_t save = pos_;
                ++pos_;
                if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
                if (pos_ < text_.size() && is_digit(text_[pos_])) {
                    is_float = true;
                    ok = digits(is_digit) && ok;
                } else {
                    pos_ = save;  // "1else" style: let the check below reject it
                }
            }
        }
        std::string text = text_.substr(start, pos_ - start);
        const char* kind = base == 16 ? "hexadecimal" : base == 8 ? "octal" : base == 2 ? "binary" : "decimal";
        if (!ok || (pos_ < text_.size() && is_ident_char(text_[pos_])))
            fail(loc, std::string("invalid ") + kind + " literal");

        std::string clean;
        for (char c : text)
            if (c != '_') clean += c;
        Token& t = push(is_float ? TokenKind::Float : TokenKind::Int, text, loc);
        if (is_float) {
            errno = 0;
            t.float_value = std::strtod(clean.c_str(), nullptr);
            if (errno == ERANGE && std::isinf(t.float_value)) fail(loc, "float literal is out of range");
            return;
        }
        if (base == 10 && clean.size() > 1 && clean[0] == '0' && clean.find_first_not_of('0') != std::string::npos)
            fail(loc,
                 "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
        // Python integers are unbounded; ours are int64 so a literal beyond
        // that is rejected here rather than silently wrapped.
        errno = 0;
        unsigned long long v = std::strtoull(base == 10 ? clean.c_str() : clean.c_str() + 2, nullptr, base);
        if (errno == ERANGE || v > uint64_t(INT64_MAX))
            fail(loc, "integer literal is too large (the limit is 9223372036854775807)");
        t.int_value = int64_t(v);
    }

    void name_or_string() {
        SourceLoc loc = here();
        size_t start = pos_;
        while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
        std::string word = text_.substr(start, pos_ - start);
        if (pos_ < text_.size() && (text_[pos_] == '\'' || text_[pos_] == '"') && word.size() <= 2) {
            std::string lower;
            for (char c : word) lower += char(c | 0x20);
            if (lower == "r" || lower == "u") {
                string(loc, start, lower == "r");
                return;
            }
            if (lower == "b" || lower == "f" || lower == "rb" || lower == "br" || lower == "fr" || lower == "rf")
                fail(loc, "string prefix '" + word + "' is not supported; only plain and r'' strings are");
        }
        if (pos_ < text_.size() && (unsigned char)text_[pos_] >= 0x80) invalid_character();
        push(is_python_keyword(word) ? TokenKind::Keyword : TokenKind::Name, word, loc);
    }

    // pos_ is at the opening quote; `start` is where the token (with any
    // prefix) began, so the token's text is its full source spelling.
    void string(const SourceLoc& loc, size_t start, bool raw) {
        char q = text_[pos_];
        bool triple = text_.compare(pos_, 3, std::string(3, q)) == 0;
        pos_ += triple ? 3 : 1;
        std::string value;
        for (;;) {
            if (pos_ >= text_.size())
                fail(loc, triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
            char c = text_[pos_];
            if (c == q && (!triple || text_.compare(pos_, 3, std::string(3, q)) == 0)) {
                pos_ += triple ? 3 : 1;
                break;
            }
            if (is_line_break(c)) {
                if (!triple) fail(loc, "unterminated string literal");
                value += '\n';
                consume_newline();
                continue;
            }
            if (c != '\\') {
                value += c;
                ++pos_;
                continue;
            }
            escape(value, raw);
        }
        Token& t = push(TokenKind::String, text_.substr(start, pos_ - start), loc);
        t.str_value = std::move(value);
    }

    void escape(std::string& value, bool raw) {
        SourceLoc loc = here();
        if (pos_ + 1 >= text_.size()) {
            ++pos_;
            return;  // the loop then reports the unterminated literal
        }
        char e = text_[pos_ + 1];
        if (is_line_break(e)) {
            // Backslash-newline inside a string joins the lines (dropped unless raw).
            if (raw) value += '\\';
            ++pos_;
            if (raw) value += '\n';
            consume_newline();
            return;
        }
        if (raw) {
            value += '\\';
            value += e;
            pos_ += 2;
            return;
        }
        pos_ += 2;
        switch (e) {
        case '\\': value += '\\'; return;
        case '\'': value += '\''; return;
        case '"': value += '"'; return;
        case 'n': value += '\n'; return;
        case 't': value += '\t'; return;
        case 'r': value += '\r'; return;
        case 'a': value += '\a'; return;
        case 'b': value += '\b'; return;
        case 'f': value += '\f'; return;
        case 'v': value += '\v'; return;
        default: break;
        }
        if (e >= '0' && e <= '7') {
            int v = e - '0';
            for (int i = 0; i < 2 && pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '7'; ++i)
                v = v * 8 + (text_[pos_++] - '0');
            append_utf8(value, uint32_t(v));
            return;
        }
        int width = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
        if (width == 0) {
            // Python keeps unknown escapes verbatim.
            value += '\\';
            value += e;
            return;
        }
        uint32_t cp = 0;
        for (int i = 0; i < width; ++i) {
            if (pos_ >= text_.size() || !is_hex(text_[pos_]))
                fail(loc, std::string("invalid \\") + e + " escape: expected " + std::to_string(width) + " hex digits");
            char h = text_[pos_++];
            cp = cp * 16 + uint32_t(is_digit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
        }
        if (cp > 0x10FFFF) fail(loc, "invalid \\U escape: code point beyond U+10FFFF");
        if (e == 'x') value += char(cp);  // \xhh is a byte value in our byte strings
        else append_utf8(value, cp);
    }

    void op() {
        SourceLoc loc = here();
        for (const char* o : kOperators) {
            std::string s(o);
            if (text_.compare(pos_, s.size(), s) != 0) continue;
            pos_ += s.size();
            if (s == "(" || s == "[" || s == "{") {
                // Python's own limit; it also bounds the parser's recursion.
                if (brackets_.size() >= 200) fail(loc, "too many nested parentheses");
                brackets_.push_back(s[0]);
            } else if (s == ")" || s == "]" || s == "}") {
                if (brackets_.empty()) fail(loc, "unmatched '" + s + "'");
                // A mismatched closer is left to the parser, which knows
                // which opener it was expecting and where that was.
                brackets_.pop_back();
            }
            push(TokenKind::Op, s, loc);
            return;
        }
        invalid_character();
    }

    [[noreturn]] void invalid_character() {
        SourceLoc loc = here();
        unsigned char c = (unsigned char)text_[pos_];
        if (c < 0x80) {
            char buf[40];
            if (c >= 0x20 && c < 0x7F) std::snprintf(buf, sizeof buf, "invalid character '%c'", c);
            else std::snprintf(buf, sizeof buf, "invalid character U+%04X", unsigned(c));
            fail(loc, buf);
        }
        // Name the whole UTF-8 sequence (a full-width comma, say), not a byte.
        int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
        std::string seq(1, char(c));
        for (int i = 1; i < len && pos_ + size_t(i) < text_.size(); ++i) {
            seq += text_[pos_ + size_t(i)];
            cp = (cp << 6) | ((unsigned char)text_[pos_ + size_t(i)] & 0x3F);
        }
        char buf[16];
        std::snprintf(buf, sizeof buf, "U+%04X", unsigned(cp));
        fail(loc, "invalid character '" + seq + "' (" + buf + ")");
    }

    std::shared_ptr<const SourceFile> src_;
    const std::string& text_;
    size_t pos_ = 0;
    size_t line_start_ = 0;
    int line_ = 1;
    std::vector<std::pair<int, int>> indents_{{0, 0}};
    std::vector<char> brackets_;
    std::vector<Token> tokens_;
};

}  // namespace

bool is_python_keyword(const std::string& word) {
    for (const char* k : kKeywords)
        if (word == k) return true;
    return false;
}

std::string describe_token(const Token& t) {
    switch (t.kind) {
    case TokenKind::Newline: return "end of line";
    case TokenKind::Indent: return "indent";
    case TokenKind::Dedent: return "dedent";
    case TokenKind::End: return "end of file";
    case TokenKind::String: return "string " + t.text;
    default: return "'" + t.text + "'";
    }
}

std::vector<Token> tokenize(std::shared_ptr<const SourceFile> src) { return Lexer(std::move(src)).run(); }

}  // namespace dsl
