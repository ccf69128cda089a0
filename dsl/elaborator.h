// Runs a parsed PyPTO program at compile time. Python values (shapes, sizes)
// are computed outright; tensor-valued calls become nodes of the TaskGraph.
// What is left when the program ends is the graph the lowering consumes.
#pragma once

#include <map>
#include <string>

#include "dsl/ast.h"
#include "dsl/pypo_library.h"
#include "dsl/task_graph.h"
#include "dsl/value.h"

namespace dsl {

class Elaborator {
public:
    Elaborator();
    // The library refers to graph_, so an Elaborator cannot be copied.
    Elaborator(const Elaborator&) = delete;
    Elaborator& operator=(const Elaborator&) = delete;

    // Throws CompileError at the first problem.
    TaskGraph run(const ast::Module& module);

private:
    void exec(const ast::Stmt& s);
    void assign(const ast::Expr& target, const Value& value, const SourceLoc& value_loc);
    Value eval(const ast::Expr& e);
    Value eval_name(const ast::Name& e);
    Value eval_call(const ast::Call& e);
    Value eval_subscript(const ast::Subscript& e);
    Value eval_compare(const ast::Compare& e);

    TaskGraph graph_;
    PypoLibrary library_;
    std::map<std::string, Value> globals_;
};

}  // namespace dsl
