// Runs a parsed PyPTO program at compile time, like a tracing JIT. Python
// values (shapes, sizes) are computed outright; loops are unrolled; plain
// functions are inlined at each call; each call of a @pypo.task function
// becomes a coarse task; tensor-valued calls become nodes of the TaskGraph.
// What is left when the program ends is the graph the lowering consumes.
//
// The statements are in elaborator.cpp, expressions in elaborator_expr.cpp,
// `with` blocks in elaborator_with.cpp, and functions (defs, decorators,
// calls, tasks, the shape-hinted entry function) in elaborator_functions.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/sema/call_args.h"
#include "dsl/sema/function_object.h"
#include "dsl/sema/pypo_library.h"
#include "dsl/sema/value.h"
#include "dsl/syntax/ast.h"

namespace dsl {

// Limits that turn a runaway program into an error instead of a hang or a
// C++ stack overflow.
constexpr int kMaxCallDepth = 200;           // nested calls of program functions
constexpr int64_t kMaxIterations = 1000000;  // loop and comprehension iterations, whole program
constexpr int64_t kMaxCalls = 1000000;       // calls of program functions, whole program
constexpr int kMaxNesting = 3000;            // statements/expressions being evaluated at once

using ShapeBindings = std::map<std::string, std::vector<int64_t>>;
using ParamBindings = std::map<std::string, std::string>;  // --param NAME=VALUE

class Elaborator {
public:
    // `ops` finds the rule of each pypo.op.* operation (dsl/sema/op_rule.h);
    // `shapes` binds the None dimensions of inputs and weights (--shape);
    // `params` the values of pypo.param constants (--param).
    explicit Elaborator(OpRuleLookup ops, const ShapeBindings& shapes = {}, const ParamBindings& params = {});
    ~Elaborator();
    // The library refers to graph_, so an Elaborator cannot be copied.
    Elaborator(const Elaborator&) = delete;
    Elaborator& operator=(const Elaborator&) = delete;

    // Throws CompileError at the first problem.
    TaskGraph run(const ast::Module& module);

private:
    // How a statement ended: normally or by break/continue/return.
    enum class Flow { Normal, Break, Continue, Return };

    // Counts one level of C++ recursion while the program is evaluated.
    class Nest {
    public:
        Nest(Elaborator& e, const SourceLoc& loc);
        ~Nest() { --e_.nesting_; }

    private:
        Elaborator& e_;
    };

    // ---- statements (elaborator.cpp) ----
    Flow exec_block(const ast::Block& body);
    Flow exec(const ast::Stmt& s);
    Flow exec_for(const ast::For& f);
    Flow exec_if(const ast::If& s);
    void count_iteration(const SourceLoc& loc);
    void assign(const ast::Expr& target, const Value& value, const SourceLoc& value_loc);
    void assign_item(const ast::Subscript& target, const Value& value, const SourceLoc& value_loc);
    void copy_into_tensor(const ast::Subscript& target, const Value& dst, const Value& value,
                          const SourceLoc& value_loc);
    void update_tensor(const ast::Subscript& target, const Value& dst, const Value& value, const SourceLoc& value_loc);
    void bind(const std::string& name, Value v) { scope_->vars[name] = std::move(v); }

    // ---- `with` (elaborator_with.cpp) ----
    Flow exec_with(const ast::With& w, size_t item);

    // ---- expressions (elaborator_expr.cpp) ----
    Value eval(const ast::Expr& e);
    Value eval_name(const ast::Name& e);
    Value eval_call(const ast::Call& e);
    Value call_method(const Value& obj, const ast::Attribute& a, const CallSite& call);
    Value eval_subscript(const ast::Subscript& e);
    Value eval_slice(const Value& seq, const ast::Slice& s);
    // t[i, a:b:s, ...] on a tensor (elaborator_index.cpp): what it picks,
    // checked against the tensor's shape.
    SliceSpec tensor_index(const ast::Subscript& e, int tensor);
    int64_t tensor_index_bound(const ast::Expr& e, const char* what);
    Value eval_compare(const ast::Compare& e);
    Value eval_dict(const ast::Dict& d);
    Value eval_list_comp(const ast::ListComp& c);
    void comprehension_level(const ast::ListComp& c, size_t level, std::vector<Value>& out);
    CallSite call_site(const ast::Call& e, std::string callee);

    // ---- functions (elaborator_functions.cpp) ----
    void define_function(const ast::FunctionDef& f);
    void apply_decorator(FunctionObject& fn, const ast::Expr& d);
    void read_shape_hints(FunctionObject& fn, const ast::Call& call);
    Value call_function(const FunctionObject& fn, const CallSite& call);
    void check_hints(const FunctionObject& fn, const std::vector<std::optional<Arg>>& bound);
    void run_entry_function();

    TaskGraph graph_;
    PypoLibrary library_;
    std::shared_ptr<Scope> globals_;
    std::shared_ptr<Scope> scope_;  // the innermost scope: where assignments bind
    // Scopes captured by nested defs; cleared at the end to break the
    // function -> closure -> function reference cycles.
    std::vector<std::shared_ptr<Scope>> captured_;
    // The module-level functions with @pypo.shape_hint, in definition order.
    std::vector<std::shared_ptr<const FunctionObject>> hinted_;
    std::map<std::string, int> task_calls_;  // per function name: "f", "f#2", ...
    Value return_value_;
    SourceLoc return_loc_;
    int call_depth_ = 0;
    int nesting_ = 0;
    int64_t iterations_ = 0;
    int64_t calls_ = 0;
};

}  // namespace dsl
