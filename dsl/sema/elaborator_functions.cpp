// Functions: a `def` makes a FunctionObject (defaults evaluated then, as in
// Python; decorators read then); a call inlines the body in a fresh scope;
// a call of a @pypo.task function is also a coarse task. A program whose top
// level calls no function but defines one @pypo.shape_hint function has
// that function as its entry: it is called with one new input per
// parameter, and what it returns becomes the outputs.
#include "dsl/sema/arg_checks.h"
#include "dsl/sema/elaborator.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

bool is_function(const Value& v, const char* name) { return v.is(Value::Kind::Function) && v.s == name; }

// Where key `key` of a literal dict was written (the last spelling wins,
// as its value does), or `fallback`.
SourceLoc key_loc(const Arg& a, const std::string& key, const SourceLoc& fallback, const ast::Expr** value) {
    *value = nullptr;
    if (!a.expr || !a.expr->is<ast::Dict>()) return fallback;
    const auto& d = a.expr->as<ast::Dict>();
    for (size_t k = d.keys.size(); k-- > 0;)
        if (d.keys[k]->is<ast::StrLit>() && d.keys[k]->as<ast::StrLit>().value == key) {
            *value = d.values[k].get();
            return d.keys[k]->loc;
        }
    return fallback;
}

}  // namespace

std::string hint_text(const std::vector<int64_t>& dims) {
    std::string out = "(";
    for (size_t k = 0; k < dims.size(); ++k) out += (k ? ", " : "") + (dims[k] < 0 ? "None" : std::to_string(dims[k]));
    if (dims.size() == 1) out += ",";
    return out + ")";
}

void Elaborator::define_function(const ast::FunctionDef& f) {
    auto fn = std::make_shared<FunctionObject>();
    fn->def = &f;
    for (const ast::Param& p : f.params) {
        fn->has_default.push_back(p.default_value != nullptr);
        fn->defaults.push_back(p.default_value ? eval(*p.default_value) : Value::none());
    }
    if (scope_ != globals_) {
        fn->closure = scope_;
        captured_.push_back(scope_);
    }
    for (const auto& d : f.decorators) apply_decorator(*fn, *d);
    bind(f.name, Value::user_function(fn));
    if (fn->has_shape_hint && scope_ == globals_) hinted_.push_back(fn);
}

void Elaborator::apply_decorator(FunctionObject& fn, const ast::Expr& d) {
    const ast::Call* call = d.is<ast::Call>() ? &d.as<ast::Call>() : nullptr;
    Value v = eval(call ? *call->func : d);
    if (is_function(v, "pypo.task")) {
        if (fn.is_task) fail(d.loc, "duplicate @pypo.task decorator");
        fn.is_task = true;
        fn.placement = "any";
        if (!call) return;
        auto args = bind_args(Signature("pypo.task", {"placement"}, 0), call_site(*call, "pypo.task"));
        if (!args[0]) return;
        const Value& p = args[0]->value;
        if (!p.is(Value::Kind::Str) || (p.s != "cube" && p.s != "vector" && p.s != "any"))
            fail(args[0]->loc, "pypo.task: placement must be 'cube', 'vector' or 'any', got " + repr(p));
        fn.placement = p.s;
        return;
    }
    if (is_function(v, "pypo.shape_hint")) {
        if (!call) fail(d.loc, "@pypo.shape_hint needs the shapes: @pypo.shape_hint({'x': (None, 3, 224, 224)})");
        if (fn.has_shape_hint) fail(d.loc, "duplicate @pypo.shape_hint decorator");
        read_shape_hints(fn, *call);
        return;
    }
    fail(d.loc, "unsupported decorator: PyPTO functions take @pypo.task(placement=...) and @pypo.shape_hint({...})");
}

// {'input': (None, 3, 224, 224), 'conv1.weight': (64, 3, 7, 7)}: plain keys
// are parameters, dotted keys are weights (checked by pypo.weight).
void Elaborator::read_shape_hints(FunctionObject& fn, const ast::Call& call) {
    auto args = bind_args(Signature("pypo.shape_hint", {"shapes"}, 1), call_site(call, "pypo.shape_hint"));
    const Arg& a = *args[0];
    const std::string& fname = fn.def->name;
    if (!a.value.is(Value::Kind::Dict))
        fail(a.loc, "pypo.shape_hint: expected a dict from parameter names to shapes, got " + type_name(a.value));
    for (const auto& [key, shape] : *a.value.entries) {
        const ast::Expr* value_expr = nullptr;
        SourceLoc kloc = key_loc(a, key.is(Value::Kind::Str) ? key.s : "", a.loc, &value_expr);
        if (!key.is(Value::Kind::Str))
            fail(a.loc, "pypo.shape_hint: keys must be parameter or weight names, got " + type_name(key));
        Arg s;
        s.value = shape;
        s.loc = value_expr ? value_expr->loc : a.loc;
        s.expr = value_expr;
        std::string what = "pypo.shape_hint: the shape of '" + key.s + "'";
        if (!shape.is_sequence() || shape.items->empty())
            fail(s.loc, what + " must be a tuple of integers and None, got " + repr(shape));
        ShapeHint h;
        for (size_t k = 0; k < shape.items->size(); ++k) {
            const Value& dim = (*shape.items)[k];
            if (dim.is(Value::Kind::None)) {
                h.dims.push_back(-1);
            } else if (dim.is(Value::Kind::Int) && dim.i > 0) {
                h.dims.push_back(dim.i);
            } else {
                fail(element_loc(s, k), "pypo.shape_hint: dimension " + std::to_string(k) + " of '" + key.s +
                                            "' must be a positive integer or None, got " + repr(dim));
            }
        }
        h.shape = shape;
        h.loc = s.loc;
        h.expr = value_expr;
        if (key.s.find('.') != std::string::npos) {
            library_.add_weight_hint(key.s, h.dims, s);
            continue;
        }
        bool is_param = false;
        for (const ast::Param& p : fn.def->params) is_param |= p.name == key.s;
        if (!is_param) fail(kloc, "pypo.shape_hint: '" + key.s + "' is not a parameter of '" + fname + "'");
        fn.hints[key.s] = std::move(h);
    }
    fn.has_shape_hint = true;
}

Value Elaborator::call_function(const FunctionObject& fn, const CallSite& call) {
    const ast::FunctionDef& def = *fn.def;
    if (call_depth_ >= kMaxCallDepth)
        fail(call.loc, "recursion too deep (limit " + std::to_string(kMaxCallDepth) + ") calling '" + def.name + "'");
    if (++calls_ > kMaxCalls)
        fail(call.loc, "too many function calls (the limit is " + std::to_string(kMaxCalls) +
                           " for the whole program): calls are inlined at compile time");
    std::vector<std::string> names;
    size_t required = 0;
    for (size_t k = 0; k < def.params.size(); ++k) {
        names.push_back(def.params[k].name);
        if (!fn.has_default[k]) required = k + 1;
    }
    auto bound = bind_args(Signature(def.name, names, required), call);
    if (fn.has_shape_hint) check_hints(fn, bound);

    auto local = std::make_shared<Scope>();
    local->parent = fn.closure ? fn.closure : globals_;
    for (size_t k = 0; k < names.size(); ++k) local->vars[names[k]] = bound[k] ? bound[k]->value : fn.defaults[k];

    int saved_task = library_.current_task();
    if (fn.is_task) {
        TaskNode t;
        int n = ++task_calls_[def.name];
        t.name = n == 1 ? def.name : def.name + "#" + std::to_string(n);
        t.placement = fn.placement;
        t.parent = saved_task;
        t.loc = call.loc;
        graph_.tasks.push_back(std::move(t));
        library_.set_current_task(int(graph_.tasks.size()) - 1);
    }
    auto saved_scope = scope_;
    scope_ = local;
    ++call_depth_;
    Flow flow = Flow::Normal;
    {
        Nest nest(*this, call.loc);
        flow = exec_block(def.body);
    }
    --call_depth_;
    scope_ = saved_scope;
    library_.set_current_task(saved_task);
    Value result = flow == Flow::Return ? std::move(return_value_) : Value::none();
    return_value_ = Value::none();
    return result;
}

// A shape-hinted function checks the tensors it is called with; None in a
// hint matches any size.
void Elaborator::check_hints(const FunctionObject& fn, const std::vector<std::optional<Arg>>& bound) {
    for (size_t k = 0; k < fn.def->params.size(); ++k) {
        const std::string& name = fn.def->params[k].name;
        auto it = fn.hints.find(name);
        if (it == fn.hints.end() || !bound[k]) continue;
        const Arg& a = *bound[k];
        const std::vector<int64_t>& want = it->second.dims;
        std::string prefix = fn.def->name + ": argument '" + name + "'";
        if (!a.value.is(Value::Kind::Tensor))
            fail(a.loc, prefix + " must be a tensor of shape " + hint_text(want) + " (@pypo.shape_hint), got " +
                            type_name(a.value));
        const std::vector<int64_t>& got = graph_.tensors[size_t(a.value.tensor)].shape;
        bool ok = got.size() == want.size();
        for (size_t d = 0; ok && d < got.size(); ++d) ok = want[d] < 0 || want[d] == got[d];
        if (!ok)
            fail(a.loc, prefix + " has shape " + shape_text(got) + " but @pypo.shape_hint expects " + hint_text(want));
    }
}

void Elaborator::run_entry_function() {
    if (calls_ != 0 || hinted_.empty()) return;
    if (hinted_.size() > 1)
        fail(hinted_[1]->def->loc, "the program calls no function and " + std::to_string(hinted_.size()) +
                                       " functions have @pypo.shape_hint, so the entry function is ambiguous; "
                                       "call it explicitly");
    const FunctionObject& fn = *hinted_[0];
    const ast::FunctionDef& def = *fn.def;
    std::string who = "entry function '" + def.name + "'";
    CallSite call;
    call.callee = def.name;
    call.loc = def.name_loc;
    // Keyword arguments, so a defaulted parameter without a hint can be skipped.
    for (size_t k = 0; k < def.params.size(); ++k) {
        const ast::Param& p = def.params[k];
        auto it = fn.hints.find(p.name);
        if (it == fn.hints.end()) {
            if (fn.has_default[k]) continue;
            fail(p.loc, who + ": parameter '" + p.name + "' has no shape in @pypo.shape_hint");
        }
        Arg shape;
        shape.value = it->second.shape;
        shape.loc = it->second.loc;
        shape.expr = it->second.expr;
        Arg a;
        a.value = Value::tensor_ref(library_.declare_tensor("pypo.shape_hint", p.name, p.loc, shape,
                                                            arch::DType::Float16, "", TensorRole::Input, p.loc));
        a.loc = p.loc;
        a.keyword = p.name;
        a.keyword_loc = p.loc;
        call.args.push_back(std::move(a));
    }
    return_loc_ = def.name_loc;
    Value result = call_function(fn, call);
    std::vector<Value> outs;
    if (result.is(Value::Kind::Tensor)) outs.push_back(result);
    else if (result.is_sequence()) outs = *result.items;
    else if (!result.is(Value::Kind::None))
        fail(return_loc_, who + " must return a tensor or a tuple of tensors, got " + type_name(result));
    for (size_t k = 0; k < outs.size(); ++k) {
        if (!outs[k].is(Value::Kind::Tensor))
            fail(return_loc_, who + " must return a tensor or a tuple of tensors; element " + std::to_string(k) +
                                  " is " + type_name(outs[k]));
        // A tensor the program already named with pypo.output keeps that name.
        if (graph_.tensors[size_t(outs[k].tensor)].role == TensorRole::Output) continue;
        std::string name = k == 0 ? "output" : "output_" + std::to_string(k);
        library_.declare_output(who, name, return_loc_, outs[k].tensor, return_loc_);
    }
}

}  // namespace dsl
