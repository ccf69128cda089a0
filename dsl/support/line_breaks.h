// One definition of a line break for everything that reads program text
// by lines: the lexer, SourceFile (which quotes lines in diagnostics) and
// the topology reader. A line ends at "\n", "\r\n" or a bare "\r", as
// Python reads source; if two readers disagreed, a diagnostic's line and
// column would point into another line than the one its reader meant.
#pragma once

#include <cstddef>
#include <string_view>

namespace dsl {

inline bool is_line_break(char c) { return c == '\n' || c == '\r'; }

// Bytes of the line break at text[pos]: 2 for "\r\n", 1 for "\n" or a bare
// "\r", 0 when there is none (or pos is past the end).
size_t line_break_length(std::string_view text, size_t pos);

// Line `line` (1-based) of `text` without its line break; empty when the
// text has fewer lines. A view into `text`.
std::string_view line_of(std::string_view text, int line);

}  // namespace dsl
