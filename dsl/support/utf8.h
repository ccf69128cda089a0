// UTF-8 well-formedness, for the two places that meet arbitrary bytes: the
// lexer (a program must be UTF-8 text, as Python source is) and diagnostics
// (a message quotes a source line, which must print cleanly anywhere).
#pragma once

#include <cstddef>
#include <string>

namespace dsl {

// Length (1-4) of the well-formed UTF-8 sequence starting at s[i], or 0 if
// s[i] does not start one (a stray continuation byte, an overlong form, a
// surrogate, a code point above U+10FFFF, a sequence cut short).
std::size_t utf8_sequence_length(const std::string& s, std::size_t i);

}  // namespace dsl
