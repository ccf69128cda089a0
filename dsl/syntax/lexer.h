// Turns program text into tokens with Python's rules: INDENT/DEDENT from
// leading whitespace, implicit line joining inside brackets, explicit '\'
// continuation, comments, numbers with '_', quoted strings with escapes.
#pragma once

#include <memory>
#include <vector>

#include "dsl/support/source_location.h"
#include "dsl/syntax/token.h"

namespace dsl {

// Throws CompileError at the first malformed token. The result always ends
// with an End token, preceded by a Newline and the Dedents that close every
// open indentation level.
std::vector<Token> tokenize(std::shared_ptr<const SourceFile> src);

bool is_python_keyword(const std::string& word);

}  // namespace dsl
