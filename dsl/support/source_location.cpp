#include "dsl/support/source_location.h"

namespace dsl {

// Lines are found by scanning on demand: diagnostics are rare, so an index
// of line starts would cost more than it saves.
std::string SourceFile::line_text(int line) const {
    if (line < 1) return "";
    size_t start = 0;
    for (int l = 1; l < line; ++l) {
        size_t nl = text.find('\n', start);
        if (nl == std::string::npos) return "";
        start = nl + 1;
    }
    if (start > text.size()) return "";
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    // A CRLF file must not print a stray '\r' that would move the caret.
    if (end > start && text[end - 1] == '\r') --end;
    return text.substr(start, end - start);
}

}  // namespace dsl
