// The `pypo` module as the program sees it at compile time: its namespaces
// (pypo, pypo.op, pypo.config), its functions, the attributes of tensors,
// and the few Python built-ins the language has. Calls that declare or
// compute tensors add nodes to the TaskGraph.
#pragma once

#include <map>
#include <string>

#include "dsl/call_args.h"
#include "dsl/task_graph.h"
#include "dsl/value.h"

namespace dsl {

class PypoLibrary {
public:
    explicit PypoLibrary(TaskGraph& graph);

    // The value bound by `import pypto as pypo`.
    static Value module();
    // A Python built-in that is not shadowed by a program name ("len"), or
    // None-kind Value with `found` false. Built-ins the language does not
    // have yet ("print") fail at `loc`.
    Value builtin(const std::string& name, const SourceLoc& loc, bool& found) const;

    // obj.attr, with `loc` the start of the attribute expression.
    Value attribute(const Value& obj, const std::string& attr, const SourceLoc& loc) const;
    // obj.attr = value (pypo.config.MAX_PARALLEL = 8).
    void set_attribute(const Value& obj, const std::string& attr, const SourceLoc& attr_loc,
                       const Value& value, const SourceLoc& value_loc);

    Value call(const CallSite& call);

    // "(256, 128) float16": how messages show a tensor.
    std::string describe_tensor(int tensor) const;

    // Records an operation whose output is a new tensor of `shape` and
    // `dtype`, named after the operation ("conv2d_1"), in the current task
    // and precision mode. Returns the output tensor's index. Operations
    // (dsl/ops_*.cpp) call this once their rule has checked the inputs.
    int add_op(OpKind kind, std::vector<int> inputs, std::vector<int64_t> shape, arch::DType dtype,
               std::map<std::string, Attr> attrs, const SourceLoc& loc);

    const TaskGraph& graph() const { return graph_; }
    // For rules that annotate their output (layout=, target='L0').
    TensorNode& mutable_tensor(int index) { return graph_.tensors[size_t(index)]; }

    // Context the elaborator maintains while it runs the program: the
    // innermost `with pypo.precision(mode=...)` ("" outside any) and the
    // task whose body is running (-1 at the top level).
    const std::string& precision_mode() const { return precision_mode_; }
    void set_precision_mode(std::string mode) { precision_mode_ = std::move(mode); }
    int current_task() const { return current_task_; }
    void set_current_task(int task) { current_task_ = task; }

private:
    Value input(const CallSite& call);
    Value output(const CallSite& call);
    Value len(const CallSite& call);
    Value call_op(const CallSite& call);  // pypo.op.*, in pypo_ops.cpp
    Value matmul(const CallSite& call);

    // Adds a tensor; `name` must be free (the caller checks and reports).
    int add_tensor(std::string name, std::vector<int64_t> shape, arch::DType dtype, TensorRole role,
                   const SourceLoc& loc);
    // "matmul_1", "matmul_2", ...: the next free generated name for an op kind.
    std::string generated_name(const std::string& op);
    // Fails with "<fn>: a tensor named 'x' already exists (declared at L:C)".
    void require_free_name(const std::string& fn, const std::string& name, const SourceLoc& loc) const;

    TaskGraph& graph_;
    std::string precision_mode_;
    int current_task_ = -1;
    std::map<std::string, int> tensor_by_name_;
    std::map<std::string, int> op_counts_;
};

// An operation name the documents define under pypo.op (lowered or not yet).
bool is_known_op(const std::string& name);

std::string shape_text(const std::vector<int64_t>& shape);  // "(256, 128)", "(64,)"

}  // namespace dsl
