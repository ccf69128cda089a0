// A call as the library sees it: evaluated arguments that remember where
// they came from, and Python's rules for binding them to parameters.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dsl/ast.h"
#include "dsl/value.h"

namespace dsl {

struct Arg {
    Value value;
    SourceLoc loc;                    // the argument expression
    const ast::Expr* expr = nullptr;  // for messages that quote the program's spelling
    std::string keyword;              // empty for a positional argument
    SourceLoc keyword_loc;
};

struct CallSite {
    std::string callee;  // qualified name, e.g. "pypo.input"
    SourceLoc loc;       // the start of the callee: every call-level error points here
    std::vector<Arg> args;  // positional first, then keywords, as written
};

// The parameters of a library function in order; the first `required` must
// be given. `not_yet` lists keywords the language will accept later, which
// get "'tile' is not supported yet" rather than "unexpected".
struct Signature {
    std::string name;  // prefix of every message: "matmul", "pypo.input"
    std::vector<std::string> params;
    size_t required = 0;
    std::vector<std::string> not_yet;
};

// Binds the call's arguments to the signature's parameters, throwing
// CompileError for too many, unknown, repeated or missing arguments.
std::vector<std::optional<Arg>> bind_args(const Signature& sig, const CallSite& call);

}  // namespace dsl
