// The tokens of PyPTO source, following Python's tokenisation: layout is
// carried by explicit Newline/Indent/Dedent tokens so the parser never looks
// at whitespace.
#pragma once

#include <cstdint>
#include <string>

#include "dsl/support/source_location.h"

namespace dsl {

enum class TokenKind {
    Name,     // identifier that is not a keyword
    Keyword,  // Python keyword: text is the keyword
    Int,      // int_value holds the value
    Float,    // float_value holds the value
    String,   // str_value holds the decoded value (adjacent literals are separate tokens)
    Op,       // operator or delimiter: text is its spelling ("**=", "(", "->")
    Newline,  // end of a logical line
    Indent,
    Dedent,
    End,  // end of file
};

struct Token {
    TokenKind kind = TokenKind::End;
    std::string text;  // the source spelling (empty for layout tokens)
    std::string str_value;
    int64_t int_value = 0;
    double float_value = 0.0;
    SourceLoc loc;

    bool is_op(const char* s) const { return kind == TokenKind::Op && text == s; }
    bool is_keyword(const char* s) const { return kind == TokenKind::Keyword && text == s; }
};

// How a token is named in a message: "'x'", "'('", "end of line", "end of file".
std::string describe_token(const Token& t);

}  // namespace dsl
