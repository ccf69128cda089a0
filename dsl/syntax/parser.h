// Recursive-descent parser for PyPTO's Python syntax. It accepts the
// statements and expressions of the language and rejects the rest with one
// located message ("'class' is outside the PyPTO language"). It never
// crashes on bad input: every problem is a CompileError at the offending
// token. Parsing is a pure function of its input (fuzzers call parse()).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dsl/support/source_location.h"
#include "dsl/syntax/ast.h"
#include "dsl/syntax/token.h"

namespace dsl {

ast::Module parse(std::shared_ptr<const SourceFile> src);  // tokenizes, then parses
// The same for text in memory; `filename` is what diagnostics name.
ast::Module parse(const std::string& text, const std::string& filename);
ast::Module parse_tokens(std::shared_ptr<const SourceFile> src, std::vector<Token> tokens);

}  // namespace dsl
