// The `pypo` module as the program sees it at compile time: its namespaces
// (pypo, pypo.op, pypo.config, pypo.mem), its functions, the attributes of
// tensors, and the Python built-ins the language has (pypo_builtins.cpp).
// Calls that declare or compute tensors add nodes to the TaskGraph.
// Decorators (pypo.task, pypo.shape_hint) and context managers
// (pypo.precision, pypo.mem.temp_cache) are handled by the elaborator.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "dsl/ir/strided_view.h"
#include "dsl/ir/task_graph.h"
#include "dsl/sema/call_args.h"
#include "dsl/sema/op_rule.h"
#include "dsl/sema/value.h"

namespace dsl {

class PypoLibrary {
public:
    // `ops` finds the rule of each pypo.op.* operation (dsl/sema/op_rule.h).
    PypoLibrary(TaskGraph& graph, OpRuleLookup ops);

    // The value bound by `import pypto as pypo`.
    static Value module();
    // A Python built-in that is not shadowed by a program name ("len"), or
    // None-kind Value with `found` false. Built-ins outside the language
    // ("open") fail at `loc`.
    Value builtin(const std::string& name, const SourceLoc& loc, bool& found) const;

    // obj.attr, with `loc` the start of the attribute expression.
    Value attribute(const Value& obj, const std::string& attr, const SourceLoc& loc) const;
    // obj.attr = value (pypo.config.MAX_PARALLEL = 8).
    void set_attribute(const Value& obj, const std::string& attr, const SourceLoc& attr_loc, const Value& value,
                       const SourceLoc& value_loc);

    Value call(const CallSite& call);

    // "(256, 128) float16": how messages show a tensor.
    std::string describe_tensor(int tensor) const;
    // How print() and pypo.log show a value: str() for strings, repr()
    // inside containers, "<tensor c (256, 256) float16>" for tensors.
    // `mentions`: where each tensor's text ends in the result, offset by `at`.
    std::string str_of(const Value& v, std::vector<LogNode::Mention>* mentions = nullptr, size_t at = 0) const;

    // --shape bindings for None dimensions of inputs and weights.
    void set_shape_bindings(const std::map<std::string, std::vector<int64_t>>& shapes) { bindings_ = shapes; }
    // Fails, naming only the file, for a binding no tensor used.
    void check_shape_bindings_used(const SourceLoc& file) const;

    // --param bindings of pypo.param constants, NAME -> the text given.
    void set_param_bindings(const std::map<std::string, std::string>& params) { param_bindings_ = params; }
    // Fails, naming only the file, for a binding that names no pypo.param
    // of the program, listing the ones it has.
    void check_param_bindings_used(const SourceLoc& file) const;

    // Declares an input or weight (pypo.input, pypo.weight, the entry
    // function's parameters): checks the name is free and resolves the
    // shape's None dimensions from --shape. `fn` prefixes messages.
    int declare_tensor(const std::string& fn, const std::string& name, const SourceLoc& name_loc, const Arg& shape,
                       arch::DType dtype, const std::string& layout, TensorRole role, const SourceLoc& loc);
    // Names `tensor` as output `name` (pypo.output, the entry's returns).
    void declare_output(const std::string& fn, const std::string& name, const SourceLoc& name_loc, int tensor,
                        const SourceLoc& tensor_loc);
    // A dotted @pypo.shape_hint key ('conv1.weight'): pypo.weight of that
    // name takes the shape from it or must agree with it.
    void add_weight_hint(const std::string& name, const std::vector<int64_t>& dims, const Arg& shape);
    // buf[:] = t (the elaborator has checked shapes and roles).
    int add_move(int src, int dst, const SourceLoc& loc);

    // Slices (pypo_slices.cpp). `t[...]`: a view of the elements `s` picks
    // (OpKind::Slice, no copy). `t[...] = v`: an in-place update
    // (OpKind::Update) of what `tensor` names, whose result is the tensor's
    // new version: the elaborator reads the name as that version from then
    // on, and a value held from before (a view taken earlier) is stale.
    int add_slice(int tensor, const SliceSpec& s, const SourceLoc& loc);
    int add_update(int tensor, int value, const SliceSpec& s, const SourceLoc& loc);
    // The version of `tensor` the program sees now: its latest update when
    // `tensor` is one of the versions of an updated tensor, else itself.
    int current_version(int tensor) const;
    // Fails at `loc` when `tensor` names values an in-place update has since
    // overwritten.
    void check_current(int tensor, const SourceLoc& loc) const;
    // Once the program has run: the last version of every updated input is
    // an output (its bytes are the input's, written back in place), named
    // "<input>.updated" unless the program named it with pypo.output.
    void declare_updated_inputs();

    // Records an operation whose output is a new tensor of `shape` and
    // `dtype`, named after the operation ("conv2d_1"), in the current task
    // and precision mode. Returns the output tensor's index. Operations
    // (dsl/ops_*.cpp) call this once their rule has checked the inputs.
    int add_op(OpKind kind, std::vector<int> inputs, std::vector<int64_t> shape, arch::DType dtype,
               std::map<std::string, Attr> attrs, const SourceLoc& loc);

    // A parameter the program uses without declaring it (batch_norm(x)'s
    // per-channel scale and shift): a Weight tensor named
    // "<output name>.<suffix>", appended to the inputs of the operation that
    // produced `op_output`. Returns its index.
    int add_parameter(int op_output, const std::string& suffix, std::vector<int64_t> shape, arch::DType dtype);

    const TaskGraph& graph() const { return graph_; }
    // For rules that annotate their output (layout=, target='L0') or the
    // operation that produced it (an explicit dtype=).
    TensorNode& mutable_tensor(int index) { return graph_.tensors[size_t(index)]; }
    OpNode& producer_of(int tensor) { return graph_.ops[size_t(graph_.tensors[size_t(tensor)].producer)]; }

    // Context the elaborator maintains while it runs the program: the
    // innermost `with pypo.precision(mode=...)` ("" outside any) and the
    // task whose body is running (-1 at the top level).
    const std::string& precision_mode() const { return precision_mode_; }
    void set_precision_mode(std::string mode) { precision_mode_ = std::move(mode); }
    int current_task() const { return current_task_; }
    void set_current_task(int task) { current_task_ = task; }

private:
    Value input(const CallSite& call);
    Value weight(const CallSite& call);
    Value output(const CallSite& call);
    Value log(const CallSite& call, bool synchronous);
    Value alloc_l1(const CallSite& call);
    Value param(const CallSite& call);

    std::vector<int64_t> resolve_shape(const std::string& fn, const std::string& name, const Arg& shape);
    std::string repr_of(const Value& v, std::vector<LogNode::Mention>* mentions = nullptr, size_t at = 0) const;
    // Python built-ins (pypo_builtins.cpp).
    static bool is_builtin(const std::string& name);
    Value call_builtin(const CallSite& call);
    Value len(const CallSite& call);
    Value call_op(const CallSite& call);  // pypo.op.*

    // Adds a tensor; `name` must be free (the caller checks and reports).
    int add_tensor(std::string name, std::vector<int64_t> shape, arch::DType dtype, TensorRole role,
                   const SourceLoc& loc);
    // "matmul_1", "matmul_2", ...: the next free generated name for an op kind.
    std::string generated_name(const std::string& op);
    // Fails with "<fn>: a tensor named 'x' already exists (declared at L:C)"
    // unless the holder is `claimant` itself or has a generated name (which
    // it gives up for a fresh one).
    void require_free_name(const std::string& fn, const std::string& name, const SourceLoc& loc, int claimant = -1);

    // The tensor whose bytes `tensor` names, through views (slice, reshape,
    // flatten, slide): an update's result, or a tensor of its own.
    int version_of(int tensor) const;
    int root_of(int version) const;

    TaskGraph& graph_;
    OpRuleLookup ops_;
    // In-place updates: per updated tensor (the first version), its latest
    // version and where it was made; per later version, the first.
    struct Updated {
        int latest = -1;
        SourceLoc loc;
    };
    std::map<int, Updated> updated_;
    std::map<int, int> root_of_version_;
    std::string precision_mode_;
    int current_task_ = -1;
    std::map<std::string, int> tensor_by_name_;
    std::map<std::string, int> op_counts_;
    std::map<std::string, std::vector<int64_t>> bindings_;
    std::set<std::string> used_bindings_;
    std::map<std::string, std::string> param_bindings_;
    // Where each pypo.param name was first declared and with what default
    // (graph_.params holds the values used, in declaration order).
    struct ParamDecl {
        Value default_value;
        SourceLoc loc;
        Value value;
    };
    std::map<std::string, ParamDecl> param_decls_;
    struct WeightHint {
        std::vector<int64_t> dims;  // -1 = None
        Arg shape;                  // as written in the hint
    };
    std::map<std::string, WeightHint> weight_hints_;
};

// "matmul, conv2d, relu, ...": every operation a program can call, in the
// operation table's order.
std::string valid_operations_text();

// "pypo.op has no operation 'conv3d' (did you mean 'conv2d'?); valid
// operations are: matmul, conv2d, ...": the message for looking up an
// operation that does not exist.
std::string unknown_op_message(const std::string& name);

std::string shape_text(const std::vector<int64_t>& shape);  // "(256, 128)", "(64,)"

}  // namespace dsl
