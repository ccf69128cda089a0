#include "dsl/support/diagnostics.h"

#include <algorithm>
#include <memory>

#include "dsl/support/utf8.h"

namespace dsl {

namespace {

// Lines longer than this are shown as a window around the column: a 1 MB
// line (generated code, a minified table) would otherwise print a megabyte
// of source and another of spaces before the caret.
constexpr size_t kMaxShown = 160;

// The source line as a terminal can show it: bytes of broken UTF-8 and
// control characters other than tab become '?', one for one, so the caret,
// placed by byte count, stays under its column.
std::string displayable(const std::string& line) {
    std::string out;
    for (size_t i = 0; i < line.size();) {
        const size_t n = utf8_sequence_length(line, i);
        const auto c = static_cast<unsigned char>(line[i]);
        if (n == 0 || (n == 1 && ((c < 0x20 && c != '\t') || c == 0x7F))) {
            out += '?';
            ++i;
        } else {
            out.append(line, i, n);
            i += n;
        }
    }
    return out;
}

// Moves `i` back to the start of the UTF-8 sequence it falls in.
size_t sequence_start(const std::string& s, size_t i) {
    while (i > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
    return i;
}

}  // namespace

std::string format_diagnostic(const SourceLoc& loc, const std::string& message) {
    std::string path = loc.file ? loc.file->path : "<unknown>";
    if (loc.line <= 0) return path + ": error: " + message + "\n";

    std::string out =
        path + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) + ": error: " + message + "\n";
    std::string text = displayable(loc.file ? loc.file->line_text(loc.line) : "");
    // A column past the line's end (a location one reader computed that
    // another cannot find, a bug) still prints: the caret after the line.
    int col = std::clamp(loc.col, 1, int(std::min<size_t>(text.size(), 1u << 30)) + 1);
    if (text.size() > kMaxShown) {
        const size_t at = size_t(col - 1);
        const size_t begin = sequence_start(text, at > kMaxShown / 2 ? at - kMaxShown / 2 : 0);
        const size_t end = sequence_start(text, std::min(text.size(), begin + kMaxShown));
        const std::string prefix = begin > 0 ? "..." : "";
        text = prefix + text.substr(begin, end - begin) + (end < text.size() ? "..." : "");
        col = int(at - begin + prefix.size()) + 1;
    }
    out += text + "\n";
    // Copy tabs so the caret lands under the same column a terminal shows.
    for (int i = 0; i + 1 < col; ++i) out += (size_t(i) < text.size() && text[size_t(i)] == '\t') ? '\t' : ' ';
    out += "^\n";
    return out;
}

CompileError::CompileError(SourceLoc loc, std::string message, Capacity capacity)
    : std::runtime_error(format_diagnostic(loc, message)),
      loc_(std::move(loc)),
      message_(std::move(message)),
      capacity_(capacity) {}

CompileError file_error(const std::string& path, const std::string& message) {
    auto file = std::make_shared<SourceFile>();
    file->path = path;
    SourceLoc loc;
    loc.file = file;
    return CompileError(loc, message);
}

}  // namespace dsl
