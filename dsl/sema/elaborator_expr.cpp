// Expressions: literals, names, operators, calls, subscripts and slices,
// dicts and comprehensions, evaluated to compile-time values.
#include "dsl/sema/elaborator.h"
#include "dsl/sema/value_ops.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

bool is_function(const Value& v, const char* name) { return v.is(Value::Kind::Function) && v.s == name; }

}  // namespace

Value Elaborator::eval(const ast::Expr& e) {
    Nest nest(*this, e.loc);
    switch (e.kind) {
    case ast::ExprKind::Int: return Value::integer(e.as<ast::IntLit>().value);
    case ast::ExprKind::Float: return Value::real(e.as<ast::FloatLit>().value);
    case ast::ExprKind::Str: return Value::str(e.as<ast::StrLit>().value);
    case ast::ExprKind::Bool: return Value::boolean(e.as<ast::BoolLit>().value);
    case ast::ExprKind::None: return Value::none();
    // `...` only ever stands for "nothing here yet" in a PyPTO program.
    case ast::ExprKind::Ellipsis: return Value::none();
    case ast::ExprKind::Name: return eval_name(e.as<ast::Name>());
    case ast::ExprKind::Attribute: {
        const auto& a = e.as<ast::Attribute>();
        return library_.attribute(eval(*a.value), a.attr, a.loc);
    }
    case ast::ExprKind::Call: return eval_call(e.as<ast::Call>());
    case ast::ExprKind::Subscript: return eval_subscript(e.as<ast::Subscript>());
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List: {
        bool tup = e.is<ast::Tuple>();
        std::vector<Value> items;
        for (const auto& x : tup ? e.as<ast::Tuple>().elts : e.as<ast::List>().elts) items.push_back(eval(*x));
        return tup ? Value::tuple(std::move(items)) : Value::list(std::move(items));
    }
    case ast::ExprKind::Unary: {
        const auto& u = e.as<ast::Unary>();
        return unary_op(u.op, eval(*u.operand), u.loc);
    }
    case ast::ExprKind::Binary: {
        const auto& b = e.as<ast::Binary>();
        Value lhs = eval(*b.lhs);
        Value rhs = eval(*b.rhs);
        return binary_op(b.op, lhs, rhs, b.op_loc);
    }
    case ast::ExprKind::Compare: return eval_compare(e.as<ast::Compare>());
    case ast::ExprKind::BoolOp: {
        // Python returns the deciding operand itself, not a bool.
        const auto& b = e.as<ast::BoolOp>();
        Value v;
        for (const auto& x : b.values) {
            v = eval(*x);
            if (truthy(v) == (b.op == ast::BoolOpKind::Or)) return v;
        }
        return v;
    }
    case ast::ExprKind::IfElse: {
        const auto& i = e.as<ast::IfElse>();
        return truthy(eval(*i.test)) ? eval(*i.body) : eval(*i.orelse);
    }
    case ast::ExprKind::Dict: return eval_dict(e.as<ast::Dict>());
    case ast::ExprKind::ListComp: return eval_list_comp(e.as<ast::ListComp>());
    case ast::ExprKind::Slice: fail(e.loc, "a slice can only index a tuple, list or string, or copy into a buffer");
    }
    fail(e.loc, "internal error: unknown expression");
}

Value Elaborator::eval_name(const ast::Name& e) {
    for (const Scope* s = scope_.get(); s; s = s->parent.get()) {
        auto it = s->vars.find(e.id);
        if (it == s->vars.end()) continue;
        // A tensor updated in place since the name was bound reads as its new version.
        if (it->second.is(Value::Kind::Tensor)) return Value::tensor_ref(library_.current_version(it->second.tensor));
        return it->second;
    }
    bool found = false;
    Value v = library_.builtin(e.id, e.loc, found);
    if (found) return v;
    fail(e.loc, "name '" + e.id + "' is not defined");
}

// Arguments are evaluated before the callee is checked, as in Python.
CallSite Elaborator::call_site(const ast::Call& e, std::string callee) {
    CallSite call;
    call.callee = std::move(callee);
    call.loc = e.loc;
    for (const auto& x : e.args) {
        Arg a;
        a.value = eval(*x);
        a.loc = x->loc;
        a.expr = x.get();
        call.args.push_back(std::move(a));
    }
    for (const auto& k : e.keywords) {
        Arg a;
        a.value = eval(*k.value);
        a.loc = k.value->loc;
        a.expr = k.value.get();
        a.keyword = k.name;
        a.keyword_loc = k.name_loc;
        call.args.push_back(std::move(a));
    }
    return call;
}

Value Elaborator::eval_call(const ast::Call& e) {
    Value fn;
    if (e.func->is<ast::Attribute>()) {
        // obj.method(...): lists and dicts have the few methods programs use.
        const auto& a = e.func->as<ast::Attribute>();
        Value obj = eval(*a.value);
        if (obj.is(Value::Kind::List) || obj.is(Value::Kind::Dict))
            return call_method(obj, a, call_site(e, type_name(obj) + "." + a.attr));
        fn = library_.attribute(obj, a.attr, a.loc);
    } else {
        fn = eval(*e.func);
    }
    if (fn.is(Value::Kind::UserFunction)) return call_function(*fn.func, call_site(e, fn.func->def->name));
    if (!fn.is(Value::Kind::Function)) {
        call_site(e, "");
        fail(e.loc, "'" + type_name(fn) + "' object is not callable");
    }
    CallSite call = call_site(e, fn.s);
    if (is_function(fn, "pypo.task") || is_function(fn, "pypo.shape_hint"))
        fail(e.loc, fn.s + " is a decorator: write @" + fn.s + "(...) on the line above a def");
    if (is_function(fn, "pypo.precision") || is_function(fn, "pypo.mem.temp_cache"))
        fail(e.loc, fn.s + "() is a context manager: use it as 'with " + fn.s + "(...):'");
    return library_.call(call);
}

Value Elaborator::call_method(const Value& obj, const ast::Attribute& a, const CallSite& call) {
    const std::string& m = a.attr;
    if (obj.is(Value::Kind::List) && (m == "append" || m == "extend")) {
        auto args = bind_args(Signature(call.callee, {m == "append" ? "object" : "iterable"}, 1), call);
        if (m == "append") {
            obj.items->push_back(args[0]->value);
        } else {
            std::vector<Value> more = iterate(args[0]->value, args[0]->loc);
            obj.items->insert(obj.items->end(), more.begin(), more.end());
        }
        return Value::none();
    }
    if (obj.is(Value::Kind::Dict) && m == "get") {
        auto args = bind_args(Signature(call.callee, {"key", "default"}, 1), call);
        const Value* v = hashable(args[0]->value) ? dict_find(obj, args[0]->value) : nullptr;
        return v ? *v : args[1] ? args[1]->value : Value::none();
    }
    if (obj.is(Value::Kind::Dict) && (m == "keys" || m == "values" || m == "items")) {
        bind_args(Signature(call.callee, {}, 0), call);
        std::vector<Value> out;
        for (const auto& [k, v] : *obj.entries)
            out.push_back(m == "keys" ? k : m == "values" ? v : Value::tuple({k, v}));
        return Value::list(std::move(out));
    }
    fail(a.loc, "'" + type_name(obj) + "' object has no attribute '" + m + "'");
}

Value Elaborator::eval_subscript(const ast::Subscript& e) {
    Value obj = eval(*e.value);
    const ast::Expr& idx = *e.index;
    if (obj.is(Value::Kind::Tensor)) {
        const SliceSpec spec = tensor_index(e, obj.tensor);
        // t[:] and t[...] name the tensor itself.
        if (whole_tensor(spec, graph_.tensors[size_t(obj.tensor)].shape)) return obj;
        return Value::tensor_ref(library_.add_slice(obj.tensor, spec, e.loc));
    }
    if (obj.is(Value::Kind::Dict)) {
        if (idx.is<ast::Slice>()) fail(idx.loc, "unhashable type: 'slice'");
        Value key = eval(idx);
        if (!hashable(key)) fail(idx.loc, "unhashable type: '" + type_name(key) + "'");
        const Value* v = dict_find(obj, key);
        if (!v) fail(idx.loc, "key " + repr(key) + " is not in the dict");
        return *v;
    }
    bool is_str = obj.is(Value::Kind::Str);
    if (!obj.is_sequence() && !is_str) fail(e.loc, "'" + type_name(obj) + "' object is not subscriptable");
    std::string tn = type_name(obj);
    if (idx.is<ast::Slice>()) return eval_slice(obj, idx.as<ast::Slice>());
    if (idx.is<ast::Tuple>()) fail(idx.loc, tn + " indices must be integers or slices, not tuple");
    Value index = eval(idx);
    if (!index.is(Value::Kind::Int) && !index.is(Value::Kind::Bool))
        fail(idx.loc, tn + " indices must be integers or slices, not " + type_name(index));
    int64_t n = is_str ? int64_t(obj.s.size()) : int64_t(obj.items->size());
    int64_t k = index.is(Value::Kind::Bool) ? int64_t(index.b) : index.i;
    if (k < 0) k += n;
    if (k < 0 || k >= n) fail(idx.loc, tn + " index out of range");
    if (is_str) return Value::str(std::string(1, obj.s[size_t(k)]));
    return (*obj.items)[size_t(k)];
}

Value Elaborator::eval_slice(const Value& seq, const ast::Slice& s) {
    Value lower, upper, step;
    if (s.lower) lower = eval(*s.lower);
    if (s.upper) upper = eval(*s.upper);
    if (s.step) step = eval(*s.step);
    return slice_of(seq, s.lower ? &lower : nullptr, s.upper ? &upper : nullptr, s.step ? &step : nullptr, s.loc);
}

Value Elaborator::eval_compare(const ast::Compare& e) {
    Value lhs = eval(*e.first);
    for (size_t k = 0; k < e.ops.size(); ++k) {
        Value rhs = eval(*e.rest[k]);
        if (!compare_op(e.ops[k], lhs, rhs, e.op_locs[k])) return Value::boolean(false);
        lhs = std::move(rhs);
    }
    return Value::boolean(true);
}

Value Elaborator::eval_dict(const ast::Dict& d) {
    Value out = Value::dict({});
    for (size_t k = 0; k < d.keys.size(); ++k) {
        Value key = eval(*d.keys[k]);
        if (!hashable(key)) fail(d.keys[k]->loc, "unhashable type: '" + type_name(key) + "'");
        dict_set(out, key, eval(*d.values[k]));
    }
    return out;
}

// A comprehension runs in a scope of its own, so its variables do not leak.
Value Elaborator::eval_list_comp(const ast::ListComp& c) {
    auto saved = scope_;
    auto inner = std::make_shared<Scope>();
    inner->parent = scope_;
    scope_ = inner;
    std::vector<Value> out;
    comprehension_level(c, 0, out);
    scope_ = saved;
    return Value::list(std::move(out));
}

void Elaborator::comprehension_level(const ast::ListComp& c, size_t level, std::vector<Value>& out) {
    if (level == c.generators.size()) {
        out.push_back(eval(*c.elt));
        return;
    }
    const ast::Comprehension& g = c.generators[level];
    Nest nest(*this, g.iter->loc);
    std::vector<Value> items = iterate(eval(*g.iter), g.iter->loc);
    for (const Value& item : items) {
        count_iteration(g.iter->loc);
        assign(*g.target, item, g.iter->loc);
        bool keep = true;
        for (const auto& cond : g.ifs) keep = keep && truthy(eval(*cond));
        if (keep) comprehension_level(c, level + 1, out);
    }
}

}  // namespace dsl
