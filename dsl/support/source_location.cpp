#include "dsl/support/source_location.h"

#include "dsl/support/line_breaks.h"

namespace dsl {

std::string SourceFile::line_text(int line) const { return std::string(line_of(text, line)); }

std::string loc_text(const SourceLoc& loc) { return std::to_string(loc.line) + ":" + std::to_string(loc.col); }

std::string file_line_col(const SourceLoc& loc) {
    return (loc.file ? loc.file->path : std::string("?")) + ":" + loc_text(loc);
}

}  // namespace dsl
