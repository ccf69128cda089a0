// Where a piece of program text came from, for diagnostics.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace dsl {

// A program file held in memory; diagnostics quote its lines.
struct SourceFile {
    std::string path;
    std::string text;
    // The text of line `line` (1-based), without its newline; "" if out of range.
    std::string line_text(int line) const;
};

struct SourceLoc {
    std::shared_ptr<const SourceFile> file;
    int line = 0;  // 1-based
    int col = 0;   // 1-based, in bytes
};

// "5:7": the line and column, as a message names another place in the
// same program.
std::string loc_text(const SourceLoc& loc);

// "models/x.pto:5:7", as reports name a place in the program ("?" for the
// file of a location that has none).
std::string file_line_col(const SourceLoc& loc);

}  // namespace dsl
