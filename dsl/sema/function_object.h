// A program's `def` as a compile-time value: its syntax, the defaults
// evaluated when the def ran, the scope it closes over, and what its
// decorators asked for (@pypo.task, @pypo.shape_hint).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dsl/sema/value.h"
#include "dsl/syntax/ast.h"

namespace dsl {

// The variables of one function call, comprehension or the module. Names
// are looked up from the innermost scope outwards (Python's LEGB, without
// Python's rule that an assignment anywhere in a function makes the name
// local throughout: here a name is local from its first assignment on).
struct Scope {
    std::map<std::string, Value> vars;
    std::shared_ptr<Scope> parent;  // null for the module scope
};

// A shape from @pypo.shape_hint: `dims` with -1 for a None dimension.
struct ShapeHint {
    std::vector<int64_t> dims;
    Value shape;                      // as written, for pypo.input-style checking
    SourceLoc loc;                    // the shape in the hint dict
    const ast::Expr* expr = nullptr;  // ditto, for the caret on one dimension
};

struct FunctionObject {
    const ast::FunctionDef* def = nullptr;  // owned by the Module, which outlives elaboration
    std::vector<Value> defaults;            // per parameter; meaningful where has_default
    std::vector<bool> has_default;
    std::shared_ptr<Scope> closure;  // the scope the def ran in
    bool is_task = false;
    std::string placement;  // "cube", "vector" or "any" for a task
    bool has_shape_hint = false;
    std::map<std::string, ShapeHint> hints;  // parameter name -> shape
};

// "(None, 3, 224, 224)".
std::string hint_text(const std::vector<int64_t>& dims);

}  // namespace dsl
