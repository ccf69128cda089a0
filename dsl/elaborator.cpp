#include "dsl/elaborator.h"

#include "dsl/diagnostics.h"
#include "dsl/value_ops.h"

namespace dsl {

namespace {

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

}  // namespace

Elaborator::Elaborator() : library_(graph_) {}

TaskGraph Elaborator::run(const ast::Module& module) {
    for (const auto& s : module.body) exec(*s);
    bool has_output = false;
    for (const TensorNode& t : graph_.tensors) has_output |= t.role == TensorRole::Output;
    if (!has_output) {
        SourceLoc start;
        start.file = module.file;
        start.line = 1;
        start.col = 1;
        fail(start, "program declares no outputs (use pypo.output)");
    }
    return std::move(graph_);
}

void Elaborator::exec(const ast::Stmt& s) {
    switch (s.kind) {
        case ast::StmtKind::Import: globals_[s.as<ast::Import>().alias] = PypoLibrary::module(); return;
        case ast::StmtKind::Assign: {
            const auto& a = s.as<ast::Assign>();
            Value v = eval(*a.value);
            for (const auto& t : a.targets) assign(*t, v, a.value->loc);
            return;
        }
        case ast::StmtKind::AugAssign: {
            const auto& a = s.as<ast::AugAssign>();
            if (a.target->is<ast::Subscript>()) fail(a.target->loc, "item assignment is not supported yet");
            Value current = eval(*a.target);
            Value rhs = eval(*a.value);
            assign(*a.target, binary_op(a.op, current, rhs, a.op_loc), a.value->loc);
            return;
        }
        case ast::StmtKind::ExprStmt: eval(*s.as<ast::ExprStmt>().value); return;
        case ast::StmtKind::Pass: return;
    }
}

void Elaborator::assign(const ast::Expr& target, const Value& value, const SourceLoc& value_loc) {
    switch (target.kind) {
        case ast::ExprKind::Name: globals_[target.as<ast::Name>().id] = value; return;
        case ast::ExprKind::Attribute: {
            const auto& a = target.as<ast::Attribute>();
            library_.set_attribute(eval(*a.value), a.attr, a.attr_loc, value, value_loc);
            return;
        }
        case ast::ExprKind::Tuple:
        case ast::ExprKind::List: {
            const auto& elts = target.is<ast::Tuple>() ? target.as<ast::Tuple>().elts : target.as<ast::List>().elts;
            if (!value.is_sequence()) fail(value_loc, "cannot unpack non-sequence " + type_name(value));
            size_t n = value.items->size();
            if (n > elts.size())
                fail(target.loc, "too many values to unpack (expected " + std::to_string(elts.size()) + ", got " +
                                     std::to_string(n) + ")");
            if (n < elts.size())
                fail(target.loc, "not enough values to unpack (expected " + std::to_string(elts.size()) +
                                     ", got " + std::to_string(n) + ")");
            // Copy first: `a, b = b, a` must read every value before binding any.
            std::vector<Value> items = *value.items;
            for (size_t k = 0; k < n; ++k) assign(*elts[k], items[k], value_loc);
            return;
        }
        case ast::ExprKind::Subscript: fail(target.loc, "item assignment is not supported yet");
        default: fail(target.loc, "cannot assign to expression");  // the parser admits no other target
    }
}

Value Elaborator::eval(const ast::Expr& e) {
    switch (e.kind) {
        case ast::ExprKind::Int: return Value::integer(e.as<ast::IntLit>().value);
        case ast::ExprKind::Float: return Value::real(e.as<ast::FloatLit>().value);
        case ast::ExprKind::Str: return Value::str(e.as<ast::StrLit>().value);
        case ast::ExprKind::Bool: return Value::boolean(e.as<ast::BoolLit>().value);
        case ast::ExprKind::None: return Value::none();
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
    }
    fail(e.loc, "internal error: unknown expression");
}

Value Elaborator::eval_name(const ast::Name& e) {
    auto it = globals_.find(e.id);
    if (it != globals_.end()) return it->second;
    bool found = false;
    Value v = library_.builtin(e.id, e.loc, found);
    if (found) return v;
    fail(e.loc, "name '" + e.id + "' is not defined");
}

Value Elaborator::eval_call(const ast::Call& e) {
    Value fn = eval(*e.func);
    CallSite call;
    call.loc = e.loc;
    // Arguments are evaluated before the callee is checked for arity, as in Python.
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
    if (!fn.is(Value::Kind::Function)) fail(e.loc, "'" + type_name(fn) + "' object is not callable");
    call.callee = fn.s;
    return library_.call(call);
}

Value Elaborator::eval_subscript(const ast::Subscript& e) {
    Value obj = eval(*e.value);
    Value index = eval(*e.index);
    if (obj.is(Value::Kind::Tensor)) fail(e.open_loc, "indexing tensors is not supported yet");
    bool is_str = obj.is(Value::Kind::Str);
    if (!obj.is_sequence() && !is_str) fail(e.loc, "'" + type_name(obj) + "' object is not subscriptable");
    std::string tn = type_name(obj);
    if (!index.is(Value::Kind::Int) && !index.is(Value::Kind::Bool))
        fail(e.index->loc, tn + " indices must be integers, not " + type_name(index));
    int64_t n = is_str ? int64_t(obj.s.size()) : int64_t(obj.items->size());
    int64_t k = index.is(Value::Kind::Bool) ? int64_t(index.b) : index.i;
    if (k < 0) k += n;
    if (k < 0 || k >= n) fail(e.index->loc, tn + " index out of range");
    if (is_str) return Value::str(std::string(1, obj.s[size_t(k)]));
    return (*obj.items)[size_t(k)];
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

}  // namespace dsl
