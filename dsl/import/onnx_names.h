// ONNX names in program text: as identifiers (variables) and as string
// literals (the tensor names pypo.input/weight/output keep).
#pragma once

#include <string>

namespace dsl {

// `name` as an identifier: every character other than an ASCII letter,
// digit or '_' becomes '_'; a leading digit (or nothing) gets "t_" before
// it; a Python keyword or the module's names (pypo, pypto) get a '_' after.
// Not yet unique: the caller adds "_2", "_3", ...
std::string identifier_of(const std::string& name);

// `s` as a double-quoted Python string literal; control characters
// escaped. False when `s` is not UTF-8 (a name the program cannot hold).
bool string_literal(const std::string& s, std::string& out);

// `s` fit for a one-line comment: control characters as '?'.
std::string comment_text(const std::string& s);

}  // namespace dsl
