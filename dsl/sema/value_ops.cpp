#include "dsl/sema/value_ops.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

using ast::BinaryOp;
using K = Value::Kind;

// Strings, tuples and lists may be repeated and concatenated; beyond this
// length a program is surely mistaken and would exhaust memory before the
// error showed.
constexpr int64_t kMaxRepeatedLength = 1 << 20;

bool is_int(const Value& v) { return v.kind == K::Int || v.kind == K::Bool; }
bool is_number(const Value& v) { return is_int(v) || v.kind == K::Float; }
int64_t as_int(const Value& v) { return v.kind == K::Bool ? int64_t(v.b) : v.i; }
double as_float(const Value& v) { return v.kind == K::Float ? v.f : double(as_int(v)); }

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

[[noreturn]] void unsupported(BinaryOp op, const Value& a, const Value& b, const SourceLoc& loc) {
    if (op == BinaryOp::MatMul && a.kind == K::Tensor && b.kind == K::Tensor)
        fail(loc, "the '@' operator on tensors is not supported yet; use pypo.op.matmul");
    fail(loc, std::string("unsupported operand types for ") + ast::binary_op_spelling(op) + ": '" + type_name(a) +
                  "' and '" + type_name(b) + "'");
}

[[noreturn]] void overflow(const SourceLoc& loc) { fail(loc, "integer overflow: the result does not fit in 64 bits"); }

// `result` is taken by reference: the builtin that computes it is another
// argument of the same call, and argument evaluation order is unspecified.
int64_t checked(bool overflowed, const SourceLoc& loc, const int64_t& result) {
    if (overflowed) overflow(loc);
    return result;
}

int64_t int_pow(int64_t base, int64_t exp, const SourceLoc& loc) {
    int64_t result = 1;
    while (exp > 0) {
        if ((exp & 1) && __builtin_mul_overflow(result, base, &result)) overflow(loc);
        exp >>= 1;
        if (exp > 0 && __builtin_mul_overflow(base, base, &base)) overflow(loc);
    }
    return result;
}

Value int_op(BinaryOp op, int64_t x, int64_t y, const SourceLoc& loc) {
    int64_t r = 0;
    switch (op) {
    case BinaryOp::Add: return Value::integer(checked(__builtin_add_overflow(x, y, &r), loc, r));
    case BinaryOp::Sub: return Value::integer(checked(__builtin_sub_overflow(x, y, &r), loc, r));
    case BinaryOp::Mul: return Value::integer(checked(__builtin_mul_overflow(x, y, &r), loc, r));
    case BinaryOp::Div:
        if (y == 0) fail(loc, "division by zero");
        return Value::real(double(x) / double(y));
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod: {
        if (y == 0) fail(loc, op == BinaryOp::Mod ? "modulo by zero" : "division by zero");
        if (x == std::numeric_limits<int64_t>::min() && y == -1) {
            if (op == BinaryOp::Mod) return Value::integer(0);
            overflow(loc);
        }
        // Python rounds toward negative infinity; C++ toward zero.
        int64_t q = x / y, m = x % y;
        if (m != 0 && ((m < 0) != (y < 0))) {
            --q;
            m += y;
        }
        return Value::integer(op == BinaryOp::Mod ? m : q);
    }
    case BinaryOp::Pow:
        if (y < 0) {
            if (x == 0) fail(loc, "zero cannot be raised to a negative power");
            return Value::real(std::pow(double(x), double(y)));
        }
        return Value::integer(int_pow(x, y, loc));
    case BinaryOp::LShift:
        if (y < 0) fail(loc, "negative shift count");
        if (x == 0) return Value::integer(0);
        if (y >= 63 ||
            (x > 0 ? x > (std::numeric_limits<int64_t>::max() >> y) : x < (std::numeric_limits<int64_t>::min() >> y)))
            overflow(loc);
        return Value::integer(int64_t(uint64_t(x) << y));
    case BinaryOp::RShift:
        if (y < 0) fail(loc, "negative shift count");
        return Value::integer(y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
    case BinaryOp::BitAnd: return Value::integer(x & y);
    case BinaryOp::BitOr: return Value::integer(x | y);
    case BinaryOp::BitXor: return Value::integer(x ^ y);
    case BinaryOp::MatMul: break;
    }
    return Value();
}

Value float_op(BinaryOp op, double x, double y, const SourceLoc& loc) {
    double r = 0;
    switch (op) {
    case BinaryOp::Add: r = x + y; break;
    case BinaryOp::Sub: r = x - y; break;
    case BinaryOp::Mul: r = x * y; break;
    case BinaryOp::Div:
        if (y == 0) fail(loc, "division by zero");
        r = x / y;
        break;
    case BinaryOp::FloorDiv:
        if (y == 0) fail(loc, "division by zero");
        r = std::floor(x / y);
        break;
    case BinaryOp::Mod:
        if (y == 0) fail(loc, "modulo by zero");
        r = std::fmod(x, y);
        if (r != 0 && ((r < 0) != (y < 0))) r += y;
        break;
    case BinaryOp::Pow:
        if (x == 0 && y < 0) fail(loc, "zero cannot be raised to a negative power");
        if (x < 0 && y != std::floor(y)) fail(loc, "a negative number cannot be raised to a fractional power");
        r = std::pow(x, y);
        break;
    default: return Value();  // bitwise ops on floats: the caller reports them
    }
    if (std::isfinite(x) && std::isfinite(y) && !std::isfinite(r)) fail(loc, "float overflow");
    return Value::real(r);
}

Value repeat(const Value& seq, int64_t n, const SourceLoc& loc) {
    int64_t len = seq.kind == K::Str ? int64_t(seq.s.size()) : int64_t(seq.items->size());
    if (n <= 0 || len == 0)
        return seq.kind == K::Str ? Value::str("") : seq.kind == K::Tuple ? Value::tuple({}) : Value::list({});
    if (n > kMaxRepeatedLength / len) fail(loc, "repetition result is too long");
    if (seq.kind == K::Str) {
        std::string out;
        for (int64_t k = 0; k < n; ++k) out += seq.s;
        return Value::str(out);
    }
    std::vector<Value> out;
    for (int64_t k = 0; k < n; ++k) out.insert(out.end(), seq.items->begin(), seq.items->end());
    return seq.kind == K::Tuple ? Value::tuple(std::move(out)) : Value::list(std::move(out));
}

bool is_bitwise(BinaryOp op) {
    return op == BinaryOp::LShift || op == BinaryOp::RShift || op == BinaryOp::BitAnd || op == BinaryOp::BitOr ||
           op == BinaryOp::BitXor;
}

}  // namespace

Value binary_op(BinaryOp op, const Value& a, const Value& b, const SourceLoc& loc) {
    if (is_int(a) && is_int(b) && op != BinaryOp::MatMul) {
        if (a.kind == K::Bool && b.kind == K::Bool &&
            (op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor))
            return Value::boolean(as_int(int_op(op, a.b, b.b, loc)) != 0);
        return int_op(op, as_int(a), as_int(b), loc);
    }
    if (is_number(a) && is_number(b) && op != BinaryOp::MatMul && !is_bitwise(op))
        return float_op(op, as_float(a), as_float(b), loc);

    bool seq_a = a.kind == K::Str || a.is_sequence();
    bool seq_b = b.kind == K::Str || b.is_sequence();
    if (op == BinaryOp::Add && seq_a && a.kind == b.kind) {
        size_t len = a.kind == K::Str ? a.s.size() + b.s.size() : a.items->size() + b.items->size();
        if (len > size_t(kMaxRepeatedLength)) fail(loc, "concatenation result is too long");
        if (a.kind == K::Str) return Value::str(a.s + b.s);
        std::vector<Value> out(*a.items);
        out.insert(out.end(), b.items->begin(), b.items->end());
        return a.kind == K::Tuple ? Value::tuple(std::move(out)) : Value::list(std::move(out));
    }
    if (op == BinaryOp::Mul && seq_a && is_int(b)) return repeat(a, as_int(b), loc);
    if (op == BinaryOp::Mul && seq_b && is_int(a)) return repeat(b, as_int(a), loc);
    unsupported(op, a, b, loc);
}

Value unary_op(ast::UnaryOp op, const Value& a, const SourceLoc& loc) {
    switch (op) {
    case ast::UnaryOp::Not: return Value::boolean(!truthy(a));
    case ast::UnaryOp::Neg:
        if (is_int(a)) {
            if (as_int(a) == std::numeric_limits<int64_t>::min()) overflow(loc);
            return Value::integer(-as_int(a));
        }
        if (a.kind == K::Float) return Value::real(-a.f);
        break;
    case ast::UnaryOp::Pos:
        if (is_int(a)) return Value::integer(as_int(a));
        if (a.kind == K::Float) return a;
        break;
    case ast::UnaryOp::Invert:
        if (is_int(a)) return Value::integer(~as_int(a));
        break;
    }
    fail(loc, std::string("bad operand type for unary ") + ast::unary_op_spelling(op) + ": '" + type_name(a) + "'");
}

namespace {

// -1, 0, 1 for a < b, a == b, a > b; fails when the types are not ordered.
int order(const Value& a, const Value& b, ast::CmpOp op, const SourceLoc& loc) {
    if (is_int(a) && is_int(b)) return as_int(a) < as_int(b) ? -1 : as_int(a) > as_int(b);
    if (is_number(a) && is_number(b)) return as_float(a) < as_float(b) ? -1 : as_float(a) > as_float(b);
    if (a.kind == K::Str && b.kind == K::Str) return a.s < b.s ? -1 : a.s > b.s;
    if (a.is_sequence() && a.kind == b.kind) {
        size_t n = std::min(a.items->size(), b.items->size());
        for (size_t k = 0; k < n; ++k) {
            const Value& x = (*a.items)[k];
            const Value& y = (*b.items)[k];
            if (!values_equal(x, y)) return order(x, y, op, loc);
        }
        return a.items->size() < b.items->size() ? -1 : a.items->size() > b.items->size();
    }
    fail(loc, std::string("'") + ast::cmp_op_spelling(op) + "' not supported between instances of '" + type_name(a) +
                  "' and '" + type_name(b) + "'");
}

bool contains(const Value& container, const Value& item, const SourceLoc& loc) {
    if (container.kind == K::Str) {
        if (item.kind != K::Str) fail(loc, "'in <string>' requires string as left operand, not " + type_name(item));
        return container.s.find(item.s) != std::string::npos;
    }
    if (container.kind == K::Dict) return dict_find(container, item) != nullptr;  // keys, as in Python
    if (!container.is_sequence()) fail(loc, "argument of type '" + type_name(container) + "' is not iterable");
    for (const Value& v : *container.items)
        if (values_equal(v, item)) return true;
    return false;
}

bool identical(const Value& a, const Value& b) {
    if (a.kind != b.kind) return false;
    if (a.is_sequence()) return a.items == b.items;
    return values_equal(a, b);
}

}  // namespace

bool compare_op(ast::CmpOp op, const Value& a, const Value& b, const SourceLoc& loc) {
    switch (op) {
    case ast::CmpOp::Eq: return values_equal(a, b);
    case ast::CmpOp::Ne: return !values_equal(a, b);
    case ast::CmpOp::Lt: return order(a, b, op, loc) < 0;
    case ast::CmpOp::Le: return order(a, b, op, loc) <= 0;
    case ast::CmpOp::Gt: return order(a, b, op, loc) > 0;
    case ast::CmpOp::Ge: return order(a, b, op, loc) >= 0;
    case ast::CmpOp::In: return contains(b, a, loc);
    case ast::CmpOp::NotIn: return !contains(b, a, loc);
    case ast::CmpOp::Is: return identical(a, b);
    case ast::CmpOp::IsNot: return !identical(a, b);
    }
    return false;
}

std::vector<Value> iterate(const Value& v, const SourceLoc& loc) {
    if (v.is_sequence()) return *v.items;
    if (v.kind == K::Str) {
        std::vector<Value> out;
        for (char c : v.s) out.push_back(Value::str(std::string(1, c)));
        return out;
    }
    if (v.kind == K::Dict) {
        std::vector<Value> out;
        for (const auto& e : *v.entries) out.push_back(e.first);
        return out;
    }
    fail(loc, "'" + type_name(v) + "' object is not iterable");
}

Value slice_of(const Value& seq, const Value* lower, const Value* upper, const Value* step, const SourceLoc& loc) {
    auto bound = [&](const Value* b) {
        if (b && !is_int(*b) && b->kind != K::None)
            fail(loc, "slice indices must be integers or None, not " + type_name(*b));
        return b && b->kind != K::None;
    };
    bool has_lower = bound(lower), has_upper = bound(upper), has_step = bound(step);
    int64_t n = seq.kind == K::Str ? int64_t(seq.s.size()) : int64_t(seq.items->size());
    int64_t st = has_step ? as_int(*step) : 1;
    if (st == 0) fail(loc, "slice step cannot be zero");
    // Python's slice.indices(): negative bounds count from the end, then
    // clamp to [0, n] (or [-1, n-1] walking backwards).
    auto adjust = [&](bool has, const Value* b, int64_t dflt) {
        if (!has) return dflt;
        int64_t x = as_int(*b);
        if (x < 0) x = x < -n ? (st < 0 ? -1 : 0) : x + n;
        else if (x >= n) x = st < 0 ? n - 1 : n;
        return x;
    };
    int64_t start = adjust(has_lower, lower, st < 0 ? n - 1 : 0);
    int64_t stop = adjust(has_upper, upper, st < 0 ? -1 : n);
    std::string text;
    std::vector<Value> items;
    for (int64_t k = start; st > 0 ? k < stop : k > stop; k += st) {
        if (seq.kind == K::Str) text += seq.s[size_t(k)];
        else items.push_back((*seq.items)[size_t(k)]);
        if ((st > 0 && k > std::numeric_limits<int64_t>::max() - st) ||
            (st < 0 && k < std::numeric_limits<int64_t>::min() - st))
            break;
    }
    if (seq.kind == K::Str) return Value::str(std::move(text));
    return seq.kind == K::Tuple ? Value::tuple(std::move(items)) : Value::list(std::move(items));
}

}  // namespace dsl
