#include "dsl/sema/pypo_library.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdlib>

#include "dsl/sema/arg_checks.h"
#include "dsl/sema/function_object.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

// "1,3,224,224": a --shape binding as the user typed it.
std::string dims_text(const std::vector<int64_t>& dims) {
    std::string out;
    for (size_t k = 0; k < dims.size(); ++k) out += (k ? "," : "") + std::to_string(dims[k]);
    return out;
}

}  // namespace

std::string shape_text(const std::vector<int64_t>& shape) {
    std::string out = "(";
    for (size_t k = 0; k < shape.size(); ++k) out += (k ? ", " : "") + std::to_string(shape[k]);
    if (shape.size() == 1) out += ",";
    return out + ")";
}

std::string valid_operations_text() { return join_names(op_kind_names()); }

std::string unknown_op_message(const std::string& name) {
    std::string msg = "pypo.op has no operation '" + name + "'";
    std::string near = closest_name(name, op_kind_names());
    if (!near.empty()) msg += " (did you mean '" + near + "'?)";
    return msg + "; valid operations are: " + valid_operations_text();
}

Value PypoLibrary::call_op(const CallSite& call) {
    std::string op = call.callee.substr(std::string("pypo.op.").size());
    // attribute() hands out only known operations, so the rule exists.
    return ops_(op)(*this, call);
}

PypoLibrary::PypoLibrary(TaskGraph& graph, OpRuleLookup ops) : graph_(graph), ops_(ops) {
    for (size_t k = 0; k < graph_.tensors.size(); ++k) tensor_by_name_[graph_.tensors[k].name] = int(k);
}

Value PypoLibrary::module() { return Value::namespace_("pypo"); }

std::string PypoLibrary::describe_tensor(int tensor) const {
    const TensorNode& t = graph_.tensors[size_t(tensor)];
    return shape_text(t.shape) + " " + arch::dtype_name(t.dtype);
}

Value PypoLibrary::attribute(const Value& obj, const std::string& attr, const SourceLoc& loc) const {
    if (obj.is(Value::Kind::Namespace)) {
        if (obj.s == "pypo") {
            if (attr == "input" || attr == "output" || attr == "weight" || attr == "log" || attr == "task" ||
                attr == "shape_hint" || attr == "precision" || attr == "param")
                return Value::function("pypo." + attr);
            if (attr == "op" || attr == "config" || attr == "mem") return Value::namespace_("pypo." + attr);
            // The dtype constants of PyPTO's API, as the dtype strings.
            if (attr == "DT_FP16") return Value::str("float16");
            if (attr == "DT_FP32") return Value::str("float32");
            if (attr == "DT_BF16") return Value::str("bfloat16");
            if (attr == "DT_INT8") return Value::str("int8");
            if (attr == "DT_INT32") return Value::str("int32");
            fail(loc, "module 'pypo' has no attribute '" + attr + "'");
        }
        if (obj.s == "pypo.op") {
            if (ops_(attr)) return Value::function("pypo.op." + attr);
            fail(loc, unknown_op_message(attr));
        }
        if (obj.s == "pypo.config") {
            if (attr == "MAX_PARALLEL") return Value::integer(graph_.max_parallel);
            if (attr == "BUFFERS") return Value::integer(graph_.buffers);
            if (attr == "FUSION") return Value::boolean(graph_.fusion);
            if (attr == "WORKSPACE_BUFFERS") return Value::integer(graph_.workspace_buffers);
            fail(loc, "pypo.config has no setting '" + attr + "'");
        }
        if (obj.s == "pypo.mem") {
            if (attr == "alloc_l1" || attr == "temp_cache") return Value::function("pypo.mem." + attr);
            fail(loc, "pypo.mem has no attribute '" + attr + "'");
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
        if (attr == "ndim") return Value::integer(int64_t(t.shape.size()));
        fail(loc, "tensor has no attribute '" + attr + "'");
    }
    fail(loc, "'" + type_name(obj) + "' object has no attribute '" + attr + "'");
}

void PypoLibrary::set_attribute(const Value& obj, const std::string& attr, const SourceLoc& attr_loc,
                                const Value& value, const SourceLoc& value_loc) {
    if (obj.is(Value::Kind::Namespace) && obj.s == "pypo.config") {
        if (attr == "BUFFERS") {
            if (!value.is(Value::Kind::Int) || value.i < 1 || value.i > 3)
                fail(value_loc, "pypo.config.BUFFERS must be 1, 2 or 3, got " + repr(value));
            graph_.buffers = int(value.i);
            return;
        }
        if (attr == "WORKSPACE_BUFFERS") {
            if (!value.is(Value::Kind::Int) || value.i < 0 || value.i > INT_MAX)
                fail(value_loc, "pypo.config.WORKSPACE_BUFFERS must be an integer from 0 to " +
                                    std::to_string(INT_MAX) + ", got " + repr(value));
            graph_.workspace_buffers = int(value.i);
            return;
        }
        if (attr == "FUSION") {
            if (!value.is(Value::Kind::Bool))
                fail(value_loc, "pypo.config.FUSION must be True or False, got " + repr(value));
            graph_.fusion = value.b;
            return;
        }
        if (attr != "MAX_PARALLEL") fail(attr_loc, "pypo.config has no setting '" + attr + "'");
        if (!value.is(Value::Kind::Int) || value.i <= 0)
            fail(value_loc, "pypo.config.MAX_PARALLEL must be a positive integer, got " + repr(value));
        if (value.i > INT_MAX) fail(value_loc, "pypo.config.MAX_PARALLEL is too large: " + std::to_string(value.i));
        graph_.max_parallel = int(value.i);
        graph_.max_parallel_loc = value_loc;
        return;
    }
    if (obj.is(Value::Kind::Namespace)) fail(attr_loc, "cannot assign to " + obj.s + "." + attr);
    fail(attr_loc, "cannot set attribute '" + attr + "' of a " + type_name(obj));
}

Value PypoLibrary::call(const CallSite& call) {
    if (call.callee == "pypo.input") return input(call);
    if (call.callee == "pypo.weight") return weight(call);
    if (call.callee == "pypo.output") return output(call);
    if (call.callee == "pypo.log") return log(call, false);
    if (call.callee == "pypo.mem.alloc_l1") return alloc_l1(call);
    if (call.callee == "pypo.param") return param(call);
    if (call.callee.compare(0, 8, "pypo.op.") == 0) return call_op(call);
    if (is_builtin(call.callee)) return call_builtin(call);
    fail(call.loc, "'" + call.callee + "' cannot be called");  // unreachable: functions come from this library
}

Value PypoLibrary::input(const CallSite& call) {
    const Signature sig("pypo.input", {"name", "shape", "dtype", "layout"}, 2);
    auto args = bind_args(sig, call);
    std::string name = name_arg(sig.name, *args[0]);
    arch::DType dtype = args[2] ? dtype_arg(sig.name, *args[2]) : arch::DType::Float16;
    int t = declare_tensor(sig.name, name, args[0]->loc, *args[1], dtype, "", TensorRole::Input, call.loc);
    if (args[3]) graph_.tensors[size_t(t)].layout = layout_arg(sig.name, *args[3], graph_.tensors[size_t(t)].shape);
    return Value::tensor_ref(t);
}

// Like pypo.input, with the shape optional when @pypo.shape_hint gave one.
Value PypoLibrary::weight(const CallSite& call) {
    const Signature sig("pypo.weight", {"name", "shape", "dtype", "layout"}, 1);
    auto args = bind_args(sig, call);
    std::string name = name_arg(sig.name, *args[0]);
    auto hint = weight_hints_.find(name);
    if (!args[1] && hint == weight_hints_.end()) fail(call.loc, "pypo.weight: missing required argument 'shape'");
    const Arg& shape = args[1] ? *args[1] : hint->second.shape;
    arch::DType dtype = args[2] ? dtype_arg(sig.name, *args[2]) : arch::DType::Float16;
    int t = declare_tensor(sig.name, name, args[0]->loc, shape, dtype, "", TensorRole::Weight, call.loc);
    const std::vector<int64_t>& got = graph_.tensors[size_t(t)].shape;
    if (args[1] && hint != weight_hints_.end()) {
        const std::vector<int64_t>& want = hint->second.dims;
        bool ok = got.size() == want.size();
        for (size_t d = 0; ok && d < got.size(); ++d) ok = want[d] < 0 || want[d] == got[d];
        if (!ok)
            fail(args[1]->loc, "pypo.weight: shape " + shape_text(got) + " of '" + name +
                                   "' disagrees with @pypo.shape_hint " + hint_text(want) + " (at " +
                                   loc_text(hint->second.shape.loc) + ")");
    }
    if (args[3]) graph_.tensors[size_t(t)].layout = layout_arg(sig.name, *args[3], got);
    return Value::tensor_ref(t);
}

int PypoLibrary::declare_tensor(const std::string& fn, const std::string& name, const SourceLoc& name_loc,
                                const Arg& shape, arch::DType dtype, const std::string& layout, TensorRole role,
                                const SourceLoc& loc) {
    std::vector<int64_t> dims = resolve_shape(fn, name, shape);
    require_free_name(fn, name, name_loc);
    int t = add_tensor(name, std::move(dims), dtype, role, loc);
    graph_.tensors[size_t(t)].layout = layout;
    return t;
}

// A shape with None dimensions takes them from --shape NAME=...; the
// binding must have the same rank and agree on the fixed dimensions.
std::vector<int64_t> PypoLibrary::resolve_shape(const std::string& fn, const std::string& name, const Arg& shape) {
    auto binding = bindings_.find(name);
    const Value& v = shape.value;
    bool has_none = false;
    if (v.is_sequence())
        for (const Value& d : *v.items) has_none |= d.is(Value::Kind::None);
    if (!has_none && binding == bindings_.end()) return shape_arg(fn, shape);
    if (binding != bindings_.end()) used_bindings_.insert(name);

    // Check the fixed dimensions first, with the Nones standing in as 1.
    Arg fixed = shape;
    if (has_none) {
        std::vector<Value> items = *v.items;
        for (Value& d : items)
            if (d.is(Value::Kind::None)) d = Value::integer(1);
        fixed.value = Value::tuple(std::move(items));
    }
    std::vector<int64_t> dims = shape_arg(fn, fixed);
    if (binding == bindings_.end()) {
        std::string hint;
        size_t first = 0;
        for (size_t k = dims.size(); k-- > 0;)
            if ((*v.items)[k].is(Value::Kind::None)) first = k;
        for (size_t k = 0; k < dims.size(); ++k)
            hint += (k ? "," : "") + ((*v.items)[k].is(Value::Kind::None) ? std::string("N") : std::to_string(dims[k]));
        fail(element_loc(shape, first), fn + ": dimension " + std::to_string(first) + " of '" + name +
                                            "' is None; bind it with --shape " + name + "=" + hint);
    }
    const std::vector<int64_t>& bound = binding->second;
    std::string option = "--shape " + name + "=" + dims_text(bound);
    if (bound.size() != dims.size())
        fail(shape.loc, fn + ": " + option + " has " + std::to_string(bound.size()) + " dimensions but '" + name +
                            "' has " + std::to_string(dims.size()));
    for (size_t k = 0; k < dims.size(); ++k) {
        if (bound[k] <= 0)
            fail(shape.loc, fn + ": " + option + ": dimension " + std::to_string(k) + " must be positive");
        bool free = (*v.items)[k].is(Value::Kind::None);
        if (!free && bound[k] != dims[k])
            fail(element_loc(shape, k), fn + ": " + option + " disagrees with dimension " + std::to_string(k) +
                                            " of '" + name + "', which the program fixes at " +
                                            std::to_string(dims[k]));
        dims[k] = bound[k];
    }
    require_countable(fn, dims, shape.loc);
    return dims;
}

void PypoLibrary::check_shape_bindings_used(const SourceLoc& file) const {
    for (const auto& [name, dims] : bindings_)
        if (!used_bindings_.count(name)) {
            SourceLoc at = file;
            at.line = 0;
            fail(at, "--shape " + name + "=" + dims_text(dims) + ": the program has no input or weight named '" + name +
                         "'");
        }
}

namespace {

bool identifier_like(const std::string& name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

// --param's text read as the default's type, as Python's int(), float()
// (finite decimals) and the literals True/False would; a str is the text.
// False if the text is not of that type.
bool parse_param_value(const std::string& text, const Value& default_value, Value& out) {
    switch (default_value.kind) {
    case Value::Kind::Int: {
        size_t k = text[0] == '-' || text[0] == '+' ? 1 : 0;
        if (text.size() == k || text.size() > k + 18 || text.find_first_not_of("0123456789", k) != std::string::npos)
            return false;
        out = Value::integer(std::stoll(text));
        return true;
    }
    case Value::Kind::Float: {
        // strtod also reads hexadecimal, inf and nan, which are no decimals.
        if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos) return false;
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end != text.c_str() + text.size() || !std::isfinite(v)) return false;
        out = Value::real(v);
        return true;
    }
    case Value::Kind::Bool:
        if (text != "True" && text != "False") return false;
        out = Value::boolean(text == "True");
        return true;
    default: out = Value::str(text); return true;
    }
}

ProgramParam::Type param_type(const Value& v) {
    switch (v.kind) {
    case Value::Kind::Int: return ProgramParam::Type::Int;
    case Value::Kind::Float: return ProgramParam::Type::Float;
    case Value::Kind::Bool: return ProgramParam::Type::Bool;
    default: return ProgramParam::Type::Str;
    }
}

// "an int", "a float", "a bool", "a str": the type in messages.
std::string a_type(const Value& v) { return (v.is(Value::Kind::Int) ? "an " : "a ") + type_name(v); }

}  // namespace

// pypo.param("layers", 1): the constant's value, --param layers=N's if given.
// Declared again, it must have the same default (and gives the same value).
Value PypoLibrary::param(const CallSite& call) {
    const Signature sig("pypo.param", {"name", "default"}, 2);
    auto args = bind_args(sig, call);
    const Arg& name_a = *args[0];
    const Arg& def = *args[1];
    std::string name = name_arg(sig.name, name_a);
    if (!identifier_like(name))
        fail(name_a.loc,
             sig.name + ": name must be letters, digits and '_', not starting with a digit, got " + repr(name_a.value));
    const Value& d = def.value;
    if (!d.is(Value::Kind::Int) && !d.is(Value::Kind::Float) && !d.is(Value::Kind::Bool) && !d.is(Value::Kind::Str))
        fail(def.loc, sig.name + ": the default must be an int, float, bool or str, got " + type_name(d));
    auto earlier = param_decls_.find(name);
    if (earlier != param_decls_.end()) {
        const Value& e = earlier->second.default_value;
        if (e.kind != d.kind || repr(e) != repr(d))
            fail(def.loc, sig.name + ": '" + name + "' is declared at " + loc_text(earlier->second.loc) +
                              " with default " + repr(e) + ", here with " + repr(d));
        return earlier->second.value;
    }
    Value value = d;
    auto bound = param_bindings_.find(name);
    if (bound != param_bindings_.end() && !parse_param_value(bound->second, d, value))
        fail(def.loc, "--param " + name + ": '" + bound->second + "' is not " + a_type(d) +
                          " (the program's default is " + repr(d) + ")");
    param_decls_[name] = ParamDecl{d, def.loc, value};
    graph_.params.push_back(
        ProgramParam{name, param_type(value), value.is(Value::Kind::Str) ? value.s : repr(value), repr(value)});
    return value;
}

void PypoLibrary::check_param_bindings_used(const SourceLoc& file) const {
    for (const auto& [name, text] : param_bindings_)
        if (!param_decls_.count(name)) {
            SourceLoc at = file;
            at.line = 0;
            std::vector<std::string> names;
            for (const ProgramParam& p : graph_.params) names.push_back(p.name);
            fail(at, "--param: the program has no parameter '" + name + "'; " +
                         (names.empty() ? std::string("it declares none") : "its parameters are " + join_names(names)));
        }
}

void PypoLibrary::add_weight_hint(const std::string& name, const std::vector<int64_t>& dims, const Arg& shape) {
    auto it = weight_hints_.find(name);
    if (it != weight_hints_.end() && it->second.dims != dims)
        fail(shape.loc, "pypo.shape_hint: '" + name + "' is hinted " + hint_text(it->second.dims) + " at " +
                            loc_text(it->second.shape.loc) + " and " + hint_text(dims) + " here");
    weight_hints_[name] = WeightHint{dims, shape};
}

Value PypoLibrary::output(const CallSite& call) {
    const Signature sig("pypo.output", {"name", "tensor"}, 2);
    auto args = bind_args(sig, call);
    std::string name = name_arg(sig.name, *args[0]);
    const Arg& tensor_arg = *args[1];
    if (!tensor_arg.value.is(Value::Kind::Tensor))
        fail(tensor_arg.loc, sig.name + ": expected a tensor, got " + type_name(tensor_arg.value));
    declare_output(sig.name, name, args[0]->loc, tensor_arg.value.tensor, tensor_arg.loc);
    return Value();
}

void PypoLibrary::declare_output(const std::string& fn, const std::string& name, const SourceLoc& name_loc, int tensor,
                                 const SourceLoc& tensor_loc) {
    check_current(tensor, tensor_loc);
    TensorNode& t = graph_.tensors[size_t(tensor)];
    if (t.role == TensorRole::Input || t.role == TensorRole::Weight)
        fail(tensor_loc, fn + ": '" + t.name + "' is " + (t.role == TensorRole::Input ? "an input" : "a weight") +
                             "; outputs must be computed");
    if (t.role == TensorRole::Output) fail(tensor_loc, fn + ": this tensor is already output '" + t.name + "'");
    require_free_name(fn, name, name_loc, tensor);
    // The output takes the program's name; its generated name is freed.
    tensor_by_name_.erase(t.name);
    t.name = name;
    t.role = TensorRole::Output;
    tensor_by_name_[name] = tensor;
}

// pypo.mem.alloc_l1(shape=, dtype=): an explicitly placed L1 buffer.
Value PypoLibrary::alloc_l1(const CallSite& call) {
    const Signature sig("pypo.mem.alloc_l1", {"shape", "dtype"}, 1);
    auto args = bind_args(sig, call);
    std::vector<int64_t> shape = shape_arg(sig.name, *args[0]);
    arch::DType dtype = args[1] ? dtype_arg(sig.name, *args[1]) : arch::DType::Float16;
    int t = add_tensor(generated_name("l1_buf"), std::move(shape), dtype, TensorRole::Buffer, call.loc);
    graph_.tensors[size_t(t)].placement = Placement::L1;
    return Value::tensor_ref(t);
}

int PypoLibrary::add_move(int src, int dst, const SourceLoc& loc) {
    check_current(src, loc);
    MoveNode m;
    m.src = src;
    m.dst = dst;
    m.task = current_task_;
    m.after_op = int(graph_.ops.size()) - 1;
    m.loc = loc;
    int index = int(graph_.moves.size());
    graph_.moves.push_back(m);
    if (current_task_ >= 0) graph_.tasks[size_t(current_task_)].moves.push_back(index);
    return index;
}

// pypo.log(...) and print(...): both are recorded in program order; print
// is a synchronisation point. Neither writes to stdout here: the simulator
// reports the messages when it reaches them.
Value PypoLibrary::log(const CallSite& call, bool synchronous) {
    const std::string fn = synchronous ? "print" : "pypo.log";
    std::string sep = " ", end = "\n";
    for (const Arg& a : call.args) {
        if (a.keyword.empty()) continue;
        bool text_kw = a.keyword == "sep" || a.keyword == "end";
        if (!text_kw && a.keyword != "flush")
            fail(a.keyword_loc, fn + ": unexpected keyword argument '" + a.keyword + "'");
        if (text_kw && !a.value.is(Value::Kind::Str) && !a.value.is(Value::Kind::None))
            fail(a.loc, fn + ": " + a.keyword + " must be a string, got " + type_name(a.value));
        if (text_kw && a.value.is(Value::Kind::Str)) (a.keyword == "sep" ? sep : end) = a.value.s;
    }
    std::string text;
    std::vector<LogNode::Mention> mentions;
    bool first = true;
    for (const Arg& a : call.args)
        if (a.keyword.empty()) {
            if (!first) text += sep;
            text += str_of(a.value, &mentions, text.size());
            first = false;
        }
    // The record is one line of output: the default end is implied.
    if (end != "\n") text += end;
    LogNode node;
    node.text = std::move(text);
    node.tensors = std::move(mentions);
    node.synchronous = synchronous;
    node.after_op = int(graph_.ops.size()) - 1;
    node.task = current_task_;
    node.loc = call.loc;
    graph_.logs.push_back(std::move(node));
    return Value();
}

std::string PypoLibrary::str_of(const Value& v, std::vector<LogNode::Mention>* mentions, size_t at) const {
    if (v.is(Value::Kind::Str)) return v.s;
    return repr_of(v, mentions, at);
}

std::string PypoLibrary::repr_of(const Value& v, std::vector<LogNode::Mention>* mentions, size_t at) const {
    switch (v.kind) {
    case Value::Kind::Tensor: {
        const TensorNode& t = graph_.tensors[size_t(v.tensor)];
        const std::string text = "<tensor " + t.name + " " + describe_tensor(v.tensor) + ">";
        if (mentions) mentions->push_back({at + text.size() - 1, v.tensor});
        return text;
    }
    case Value::Kind::Tuple:
    case Value::Kind::List: {
        bool tup = v.is(Value::Kind::Tuple);
        std::string out = tup ? "(" : "[";
        for (size_t k = 0; k < v.items->size(); ++k) {
            if (k) out += ", ";
            out += repr_of((*v.items)[k], mentions, at + out.size());
        }
        if (tup && v.items->size() == 1) out += ",";
        return out + (tup ? ")" : "]");
    }
    case Value::Kind::Dict: {
        std::string out = "{";
        for (size_t k = 0; k < v.entries->size(); ++k) {
            if (k) out += ", ";
            out += repr_of((*v.entries)[k].first, mentions, at + out.size());
            out += ": ";
            out += repr_of((*v.entries)[k].second, mentions, at + out.size());
        }
        return out + "}";
    }
    case Value::Kind::UserFunction: return "<function " + v.func->def->name + ">";
    default: return repr(v);
    }
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
    for (int in : inputs) check_current(in, loc);
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

int PypoLibrary::add_parameter(int op_output, const std::string& suffix, std::vector<int64_t> shape,
                               arch::DType dtype) {
    const TensorNode& out = graph_.tensors[size_t(op_output)];
    std::string name = out.name + "." + suffix;
    SourceLoc loc = out.loc;
    int producer = out.producer;
    require_free_name(op_kind_name(graph_.ops[size_t(producer)].kind), name, loc);
    int t = add_tensor(std::move(name), std::move(shape), dtype, TensorRole::Weight, loc);
    graph_.ops[size_t(producer)].inputs.push_back(t);
    return t;
}

std::string PypoLibrary::generated_name(const std::string& op) {
    for (;;) {
        std::string name = op + "_" + std::to_string(++op_counts_[op]);
        if (!tensor_by_name_.count(name)) return name;
    }
}

void PypoLibrary::require_free_name(const std::string& fn, const std::string& name, const SourceLoc& loc,
                                    int claimant) {
    auto it = tensor_by_name_.find(name);
    if (it == tensor_by_name_.end() || it->second == claimant) return;
    // A name the compiler generated ("relu_1", "l1_buf_2") gives way to the
    // program's: the program never wrote it, so refusing it would name a
    // tensor the user cannot see. The holder takes the next free one.
    TensorNode& holder = graph_.tensors[size_t(it->second)];
    if (holder.role == TensorRole::Intermediate || holder.role == TensorRole::Buffer) {
        int index = it->second;
        tensor_by_name_.erase(it);
        holder.name =
            generated_name(holder.role == TensorRole::Buffer ? std::string("l1_buf")
                                                             : op_kind_name(graph_.ops[size_t(holder.producer)].kind));
        tensor_by_name_[holder.name] = index;
        return;
    }
    fail(loc, fn + ": a tensor named '" + name + "' already exists (declared at " +
                  loc_text(graph_.tensors[size_t(it->second)].loc) + ")");
}

}  // namespace dsl
