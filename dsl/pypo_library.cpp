#include "dsl/pypo_library.h"

#include <algorithm>
#include <climits>

#include "dsl/arg_checks.h"
#include "dsl/diagnostics.h"

namespace dsl {

namespace {

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

std::string loc_text(const SourceLoc& loc) { return std::to_string(loc.line) + ":" + std::to_string(loc.col); }

// Members of the documents' API that a later slice of the language adds:
// naming them gets "not supported yet" rather than "no attribute".
const char* const kPypoNotYet[] = {"task", "mem", "precision", "shape_hint", "log", "weight"};

// Python built-ins a PyPTO program may reasonably use, which the language
// will have but does not yet.
const char* const kBuiltinsNotYet[] = {"print", "range", "min", "max", "abs", "int", "float", "str", "bool",
                                       "list", "tuple", "enumerate", "zip", "sum", "round", "isinstance"};

template <size_t N> bool among(const char* const (&list)[N], const std::string& s) {
    return std::find(std::begin(list), std::end(list), s) != std::end(list);
}

}  // namespace


std::string shape_text(const std::vector<int64_t>& shape) {
    std::string out = "(";
    for (size_t k = 0; k < shape.size(); ++k) out += (k ? ", " : "") + std::to_string(shape[k]);
    if (shape.size() == 1) out += ",";
    return out + ")";
}

PypoLibrary::PypoLibrary(TaskGraph& graph) : graph_(graph) {
    for (size_t k = 0; k < graph_.tensors.size(); ++k) tensor_by_name_[graph_.tensors[k].name] = int(k);
}

Value PypoLibrary::module() { return Value::namespace_("pypo"); }

std::string PypoLibrary::describe_tensor(int tensor) const {
    const TensorNode& t = graph_.tensors[size_t(tensor)];
    return shape_text(t.shape) + " " + arch::dtype_name(t.dtype);
}

Value PypoLibrary::builtin(const std::string& name, const SourceLoc& loc, bool& found) const {
    found = true;
    if (name == "len") return Value::function("len");
    if (among(kBuiltinsNotYet, name)) fail(loc, "built-in '" + name + "' is not supported yet");
    found = false;
    return Value();
}

Value PypoLibrary::attribute(const Value& obj, const std::string& attr, const SourceLoc& loc) const {
    if (obj.is(Value::Kind::Namespace)) {
        if (obj.s == "pypo") {
            if (attr == "input" || attr == "output") return Value::function("pypo." + attr);
            if (attr == "op" || attr == "config") return Value::namespace_("pypo." + attr);
            if (among(kPypoNotYet, attr)) fail(loc, "pypo." + attr + " is not supported yet");
            fail(loc, "module 'pypo' has no attribute '" + attr + "'");
        }
        if (obj.s == "pypo.op") {
            if (is_known_op(attr)) return Value::function("pypo.op." + attr);
            fail(loc, "pypo.op has no operation '" + attr + "'");
        }
        if (obj.s == "pypo.config") {
            if (attr == "MAX_PARALLEL") return Value::integer(graph_.max_parallel);
            fail(loc, "pypo.config has no setting '" + attr + "'");
        }
    }
    if (obj.is(Value::Kind::Tensor)) {
        const TensorNode& t = graph_.tensors[size_t(obj.tensor)];
        if (attr == "shape") {
            std::vector<Value> dims;
            for (int64_t d : t.shape) dims.push_back(Value::integer(d));
            return Value::tuple(std::move(dims));
        }
        if (attr == "dtype") return Value::str(arch::dtype_name(t.dtype));
        if (attr == "name") return Value::str(t.name);
        fail(loc, "tensor has no attribute '" + attr + "'");
    }
    fail(loc, "'" + type_name(obj) + "' object has no attribute '" + attr + "'");
}

void PypoLibrary::set_attribute(const Value& obj, const std::string& attr, const SourceLoc& attr_loc,
                                const Value& value, const SourceLoc& value_loc) {
    if (obj.is(Value::Kind::Namespace) && obj.s == "pypo.config") {
        if (attr != "MAX_PARALLEL") fail(attr_loc, "pypo.config has no setting '" + attr + "'");
        if (!value.is(Value::Kind::Int) || value.i <= 0)
            fail(value_loc, "pypo.config.MAX_PARALLEL must be a positive integer, got " + repr(value));
        if (value.i > INT_MAX)
            fail(value_loc, "pypo.config.MAX_PARALLEL is too large: " + std::to_string(value.i));
        graph_.max_parallel = int(value.i);
        return;
    }
    if (obj.is(Value::Kind::Namespace)) fail(attr_loc, "cannot assign to " + obj.s + "." + attr);
    fail(attr_loc, "cannot set attribute '" + attr + "' of a " + type_name(obj));
}

Value PypoLibrary::call(const CallSite& call) {
    if (call.callee == "pypo.input") return input(call);
    if (call.callee == "pypo.output") return output(call);
    if (call.callee == "len") return len(call);
    if (call.callee.compare(0, 8, "pypo.op.") == 0) return call_op(call);
    fail(call.loc, "'" + call.callee + "' cannot be called");  // unreachable: functions come from this library
}

Value PypoLibrary::input(const CallSite& call) {
    const Signature sig{"pypo.input", {"name", "shape", "dtype"}, 2, {}};
    auto args = bind_args(sig, call);
    std::string name = name_arg(sig.name, *args[0]);
    std::vector<int64_t> shape = shape_arg(sig.name, *args[1]);
    arch::DType dtype = args[2] ? dtype_arg(sig.name, *args[2]) : arch::DType::Float16;
    require_free_name(sig.name, name, args[0]->loc);
    return Value::tensor_ref(add_tensor(name, std::move(shape), dtype, TensorRole::Input, call.loc));
}

Value PypoLibrary::output(const CallSite& call) {
    const Signature sig{"pypo.output", {"name", "tensor"}, 2, {}};
    auto args = bind_args(sig, call);
    std::string name = name_arg(sig.name, *args[0]);
    const Arg& tensor_arg = *args[1];
    if (!tensor_arg.value.is(Value::Kind::Tensor))
        fail(tensor_arg.loc, sig.name + ": expected a tensor, got " + type_name(tensor_arg.value));
    TensorNode& t = graph_.tensors[size_t(tensor_arg.value.tensor)];
    if (t.role == TensorRole::Input)
        fail(tensor_arg.loc, sig.name + ": '" + t.name + "' is an input; outputs must be computed");
    if (t.role == TensorRole::Output)
        fail(tensor_arg.loc, sig.name + ": this tensor is already output '" + t.name + "'");
    require_free_name(sig.name, name, args[0]->loc);
    // The output takes the program's name; its generated name is freed.
    tensor_by_name_.erase(t.name);
    t.name = name;
    t.role = TensorRole::Output;
    tensor_by_name_[name] = tensor_arg.value.tensor;
    return Value();
}

Value PypoLibrary::len(const CallSite& call) {
    const Signature sig{"len", {"obj"}, 1, {}};
    auto args = bind_args(sig, call);
    const Value& v = args[0]->value;
    if (v.is(Value::Kind::Str)) return Value::integer(int64_t(v.s.size()));
    if (v.is_sequence()) return Value::integer(int64_t(v.items->size()));
    std::string hint = v.is(Value::Kind::Tensor) ? "; use .shape" : "";
    fail(args[0]->loc, "len: object of type '" + type_name(v) + "' has no len()" + hint);
}

int PypoLibrary::add_tensor(std::string name, std::vector<int64_t> shape, arch::DType dtype, TensorRole role,
                            const SourceLoc& loc) {
    TensorNode t;
    t.name = std::move(name);
    t.shape = std::move(shape);
    t.dtype = dtype;
    t.role = role;
    t.loc = loc;
    t.task = current_task_;
    int index = int(graph_.tensors.size());
    tensor_by_name_[t.name] = index;
    graph_.tensors.push_back(std::move(t));
    return index;
}

int PypoLibrary::add_op(OpKind kind, std::vector<int> inputs, std::vector<int64_t> shape, arch::DType dtype,
                        std::map<std::string, Attr> attrs, const SourceLoc& loc) {
    int out = add_tensor(generated_name(op_kind_name(kind)), std::move(shape), dtype, TensorRole::Intermediate, loc);
    OpNode node;
    node.kind = kind;
    node.inputs = std::move(inputs);
    node.output = out;
    node.attrs = std::move(attrs);
    node.precision = precision_mode_;
    node.task = current_task_;
    node.loc = loc;
    int index = int(graph_.ops.size());
    graph_.ops.push_back(std::move(node));
    graph_.tensors[size_t(out)].producer = index;
    graph_.tensors[size_t(out)].task = current_task_;
    if (current_task_ >= 0) graph_.tasks[size_t(current_task_)].ops.push_back(index);
    return out;
}

std::string PypoLibrary::generated_name(const std::string& op) {
    for (;;) {
        std::string name = op + "_" + std::to_string(++op_counts_[op]);
        if (!tensor_by_name_.count(name)) return name;
    }
}

void PypoLibrary::require_free_name(const std::string& fn, const std::string& name, const SourceLoc& loc) const {
    auto it = tensor_by_name_.find(name);
    if (it == tensor_by_name_.end()) return;
    fail(loc, fn + ": a tensor named '" + name + "' already exists (declared at " +
                  loc_text(graph_.tensors[size_t(it->second)].loc) + ")");
}

}  // namespace dsl
