#include "dsl/diagnostics.h"

#include <memory>

namespace dsl {

std::string format_diagnostic(const SourceLoc& loc, const std::string& message) {
    std::string path = loc.file ? loc.file->path : "<unknown>";
    if (loc.line <= 0) return path + ": error: " + message + "\n";

    std::string out = path + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) +
                      ": error: " + message + "\n";
    std::string text = loc.file ? loc.file->line_text(loc.line) : "";
    out += text + "\n";
    // Copy tabs so the caret lands under the same column a terminal shows.
    for (int i = 0; i + 1 < loc.col; ++i)
        out += (size_t(i) < text.size() && text[size_t(i)] == '\t') ? '\t' : ' ';
    out += "^\n";
    return out;
}

CompileError::CompileError(SourceLoc loc, std::string message)
    : std::runtime_error(format_diagnostic(loc, message)),
      loc_(std::move(loc)),
      message_(std::move(message)) {}

CompileError file_error(const std::string& path, const std::string& message) {
    auto file = std::make_shared<SourceFile>();
    file->path = path;
    SourceLoc loc;
    loc.file = file;
    return CompileError(loc, message);
}

}  // namespace dsl
