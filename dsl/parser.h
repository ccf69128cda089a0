// Recursive-descent parser for PyPTO's Python syntax. It accepts the
// statements and expressions the language has so far and rejects the rest
// with one located message: Python constructs the language will grow into
// ("'for' statements are not supported yet") and those it never will
// ("'class' is outside the PyPTO language"). It never crashes on bad input:
// every problem is a CompileError at the offending token.
#pragma once

#include <memory>
#include <vector>

#include "dsl/ast.h"
#include "dsl/source_location.h"
#include "dsl/token.h"

namespace dsl {

ast::Module parse(std::shared_ptr<const SourceFile> src);  // tokenizes, then parses
ast::Module parse_tokens(std::shared_ptr<const SourceFile> src, std::vector<Token> tokens);

}  // namespace dsl
