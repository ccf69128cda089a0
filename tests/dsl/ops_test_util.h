// Helpers for the operation tests: a program that declares some inputs,
// computes `y = <expression>` and outputs y, elaborated from memory.
#pragma once

#include <string>
#include <vector>

#include "dsl/frontend/frontend.h"
#include "tests/dsl/dsl_test_util.h"

namespace ops_test {

// `name = pypo.input("name", shape=SHAPE[, dtype="DTYPE"])`.
inline std::string input(const std::string& name, const std::string& shape, const std::string& dtype = "") {
    return name + " = pypo.input(\"" + name + "\", shape=" + shape +
           (dtype.empty() ? "" : ", dtype=\"" + dtype + "\"") + ")";
}

// The import, one line per declaration, then `y = EXPR` on line
// decls.size() + 2, then pypo.output("y", y).
inline std::string program(const std::vector<std::string>& decls, const std::string& expr) {
    std::string text = "import pypto as pypo\n";
    for (const std::string& d : decls) text += d + "\n";
    return text + "y = " + expr + "\npypo.output(\"y\", y)\n";
}

inline dsl::TaskGraph run(const std::vector<std::string>& decls, const std::string& expr) {
    return dsl::elaborate_source(dsl_test::source(program(decls, expr)));
}

inline std::string error(const std::vector<std::string>& decls, const std::string& expr) {
    return dsl_test::error_of([&] { run(decls, expr); });
}

// The diagnostic for `message` at LINE:COL of t.pto, whose line reads `text`.
inline std::string diag(int line, int col, const std::string& message, const std::string& text) {
    return "t.pto:" + std::to_string(line) + ":" + std::to_string(col) + ": error: " + message + "\n" + text + "\n" +
           std::string(size_t(col - 1), ' ') + "^\n";
}

// The diagnostic for an error in `y = EXPR` after `ndecls` declarations, at
// the column where `at` first occurs in the line (the call itself if `at`
// is empty: column 5, after "y = ").
inline std::string diag_in(size_t ndecls, const std::string& expr, const std::string& at, const std::string& message) {
    std::string line = "y = " + expr;
    size_t col = at.empty() ? 4 : line.find(at);
    return diag(int(ndecls) + 2, int(col) + 1, message, line);
}

}  // namespace ops_test
