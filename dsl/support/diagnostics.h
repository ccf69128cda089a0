// Compiler-style error reports: "file:line:col: error: message", the source
// line, and a caret under the offending column. Every problem in a program is
// reported through CompileError so the CLI has one thing to catch.
#pragma once

#include <stdexcept>
#include <string>

#include "dsl/support/source_location.h"

namespace dsl {

// PATH:LINE:COL: error: MESSAGE, then the source line and a caret line.
// A location with line 0 names only the file: "PATH: error: MESSAGE".
std::string format_diagnostic(const SourceLoc& loc, const std::string& message);

class CompileError : public std::runtime_error {
public:
    // The on-chip memory a program does not fit, when the message gives its
    // capacity in bytes: a caller may add where the rest of it went (the
    // lowering names the on-chip tensors' region and MAX_PARALLEL's slots;
    // UB: a vector unit's Unified Buffer, which the tensors kept there
    // share with the streams).
    enum class Capacity { None, L1, L0, UB };

    CompileError(SourceLoc loc, std::string message, Capacity capacity = Capacity::None);

    const SourceLoc& loc() const { return loc_; }
    const std::string& message() const { return message_; }
    Capacity capacity() const { return capacity_; }

private:
    SourceLoc loc_;
    std::string message_;
    Capacity capacity_;
};

// The error for a program file that cannot be read: "PATH: error: cannot open file".
CompileError file_error(const std::string& path, const std::string& message = "cannot open file");

}  // namespace dsl
