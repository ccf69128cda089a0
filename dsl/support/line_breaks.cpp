#include "dsl/support/line_breaks.h"

namespace dsl {

size_t line_break_length(std::string_view text, size_t pos) {
    if (pos >= text.size() || !is_line_break(text[pos])) return 0;
    return text[pos] == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n' ? 2 : 1;
}

// Lines are found by scanning on demand: diagnostics are rare, so an index
// of line starts would cost more than it saves.
std::string_view line_of(std::string_view text, int line) {
    if (line < 1) return {};
    size_t start = 0;
    for (int l = 1; l < line; ++l) {
        while (start < text.size() && !is_line_break(text[start])) ++start;
        if (start >= text.size()) return {};
        start += line_break_length(text, start);
    }
    size_t end = start;
    while (end < text.size() && !is_line_break(text[end])) ++end;
    return text.substr(start, end - start);
}

}  // namespace dsl
