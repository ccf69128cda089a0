// A call as the library sees it: evaluated arguments that remember where
// they came from, and Python's rules for binding them to parameters.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "dsl/sema/value.h"
#include "dsl/syntax/ast.h"

namespace dsl {

struct Arg {
    Value value;
    SourceLoc loc;                    // the argument expression
    const ast::Expr* expr = nullptr;  // for messages that quote the program's spelling
    std::string keyword;              // empty for a positional argument
    SourceLoc keyword_loc;
};

struct CallSite {
    std::string callee;     // qualified name, e.g. "pypo.input"
    SourceLoc loc;          // the start of the callee: every call-level error points here
    std::vector<Arg> args;  // positional first, then keywords, as written
};

// The parameters of a library function in order; the first `required` must
// be given. Only the first `positional` may be passed by position: options
// such as conv2d's stride are keyword-only, so `conv2d(x, w, 2)` is an
// error rather than a silent stride. `not_yet` lists keywords the language
// will accept later, which get "'tile' is not supported yet" rather than
// "unexpected".
struct Signature {
    static constexpr size_t kAll = size_t(-1);

    Signature(std::string name_, std::vector<std::string> params_, size_t required_,
              std::vector<std::string> not_yet_ = {}, size_t positional_ = kAll)
        : name(std::move(name_)),
          params(std::move(params_)),
          required(required_),
          not_yet(std::move(not_yet_)),
          positional(positional_ == kAll ? params.size() : positional_) {}

    std::string name;  // prefix of every message: "matmul", "pypo.input"
    std::vector<std::string> params;
    size_t required = 0;
    std::vector<std::string> not_yet;
    size_t positional = 0;

    // The index of `param`, or kAll if the signature has no such parameter.
    size_t index_of(const std::string& param) const;
};

// Binds the call's arguments to the signature's parameters, throwing
// CompileError for too many, unknown, repeated or missing arguments. An
// unknown keyword lists the valid ones and suggests a close spelling:
// "conv2d: unexpected keyword argument 'strides' (did you mean 'stride'?);
// valid keywords are: stride, padding, rounding, dtype, layout".
std::vector<std::optional<Arg>> bind_args(const Signature& sig, const CallSite& call);

// The candidate `name` is most plausibly a misspelling of (edit distance at
// most a third of its length, at least 1), or "" if none is close. Ties go to
// the earlier candidate.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

// "a, b, c": how messages list valid names.
std::string join_names(const std::vector<std::string>& names);

}  // namespace dsl
