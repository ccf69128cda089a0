// The Python built-ins a PyPTO program uses to compute shapes, loop bounds
// and messages at compile time. Iterators are eager: range, enumerate and
// zip return lists (a range is capped in length so a typo cannot exhaust
// memory).
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "dsl/sema/pypo_library.h"
#include "dsl/sema/value_ops.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

const char* const kBuiltins[] = {"range", "len",   "min",    "max",      "abs",  "int",       "float",
                                 "str",   "bool",  "list",   "tuple",    "dict", "enumerate", "zip",
                                 "sum",   "round", "sorted", "reversed", "any",  "all",       "print"};

// Python built-ins with no meaning in a program that runs at compile time
// (I/O, reflection, laziness): named so the message is not "not defined".
const char* const kOutside[] = {"open",   "input",   "eval",    "exec",    "compile",    "__import__", "globals",
                                "locals", "getattr", "setattr", "hasattr", "isinstance", "type",       "map",
                                "filter", "iter",    "next",    "set",     "frozenset",  "object",     "super",
                                "id",     "hash",    "vars",    "callable"};

// The longest list range() makes; longer ones are surely mistakes.
constexpr int64_t kMaxRangeLength = 1 << 20;

template <size_t N>
bool among(const char* const (&list)[N], const std::string& s) {
    return std::find(std::begin(list), std::end(list), s) != std::end(list);
}

bool is_int(const Value& v) { return v.is(Value::Kind::Int) || v.is(Value::Kind::Bool); }
int64_t as_int(const Value& v) { return v.is(Value::Kind::Bool) ? int64_t(v.b) : v.i; }

void no_keywords(const CallSite& call) {
    for (const Arg& a : call.args)
        if (!a.keyword.empty()) fail(a.keyword_loc, call.callee + ": unexpected keyword argument '" + a.keyword + "'");
}

std::vector<const Arg*> positional(const CallSite& call) {
    no_keywords(call);
    std::vector<const Arg*> out;
    for (const Arg& a : call.args) out.push_back(&a);
    return out;
}

Value range(const CallSite& call) {
    std::vector<const Arg*> args = positional(call);
    if (args.empty() || args.size() > 3)
        fail(call.loc, "range: expected 1 to 3 arguments, got " + std::to_string(args.size()));
    for (const Arg* a : args)
        if (!is_int(a->value)) fail(a->loc, "range: arguments must be integers, got " + type_name(a->value));
    int64_t start = args.size() == 1 ? 0 : as_int(args[0]->value);
    int64_t stop = as_int(args[args.size() == 1 ? 0 : 1]->value);
    int64_t step = args.size() == 3 ? as_int(args[2]->value) : 1;
    if (step == 0) fail(args[2]->loc, "range: step must not be zero");
    __int128 span = step > 0 ? __int128(stop) - start : __int128(start) - stop;
    __int128 mag = step > 0 ? __int128(step) : -__int128(step);
    __int128 n = span <= 0 ? 0 : (span + mag - 1) / mag;
    if (n > kMaxRangeLength)
        fail(call.loc, "range: too many elements (the limit is " + std::to_string(kMaxRangeLength) + ")");
    std::vector<Value> out;
    for (int64_t k = 0; k < int64_t(n); ++k) out.push_back(Value::integer(int64_t(start + __int128(k) * step)));
    return Value::list(std::move(out));
}

// min(iterable) or min(a, b, ...).
Value extreme(const CallSite& call, bool want_max) {
    std::vector<const Arg*> args = positional(call);
    if (args.empty()) fail(call.loc, call.callee + ": expected at least 1 argument, got 0");
    std::vector<Value> items;
    if (args.size() == 1) {
        items = iterate(args[0]->value, args[0]->loc);
        if (items.empty()) fail(args[0]->loc, call.callee + ": arg is an empty sequence");
    } else {
        for (const Arg* a : args) items.push_back(a->value);
    }
    Value best = items[0];
    for (size_t k = 1; k < items.size(); ++k)
        if (compare_op(want_max ? ast::CmpOp::Gt : ast::CmpOp::Lt, items[k], best, call.loc)) best = items[k];
    return best;
}

Value to_int(const CallSite& call) {
    auto args = bind_args(Signature("int", {"x"}, 0), call);
    if (!args[0]) return Value::integer(0);
    const Value& v = args[0]->value;
    if (is_int(v)) return Value::integer(as_int(v));
    if (v.is(Value::Kind::Float)) {
        if (!std::isfinite(v.f) || std::fabs(v.f) >= 9.2e18)
            fail(args[0]->loc, "int: cannot convert " + repr(v) + " to a 64-bit integer");
        return Value::integer(int64_t(std::trunc(v.f)));
    }
    if (v.is(Value::Kind::Str)) {
        std::string s = v.s;
        s.erase(0, s.find_first_not_of(" \t\n"));
        s.erase(s.find_last_not_of(" \t\n") + 1);
        size_t digits = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
        bool ok = s.size() > digits && s.find_first_not_of("0123456789", digits) == std::string::npos;
        errno = 0;
        long long x = ok ? std::strtoll(s.c_str(), nullptr, 10) : 0;
        if (!ok || errno == ERANGE) fail(args[0]->loc, "int: invalid literal for int() with base 10: " + repr(v));
        return Value::integer(x);
    }
    fail(args[0]->loc, "int: argument must be a number or a string, not " + type_name(v));
}

Value to_float(const CallSite& call) {
    auto args = bind_args(Signature("float", {"x"}, 0), call);
    if (!args[0]) return Value::real(0.0);
    const Value& v = args[0]->value;
    if (is_int(v)) return Value::real(double(as_int(v)));
    if (v.is(Value::Kind::Float)) return v;
    if (v.is(Value::Kind::Str)) {
        const char* begin = v.s.c_str();
        char* end = nullptr;
        double d = std::strtod(begin, &end);
        while (end && (*end == ' ' || *end == '\t' || *end == '\n')) ++end;
        if (v.s.empty() || !end || *end != '\0' || end == begin)
            fail(args[0]->loc, "float: could not convert string to float: " + repr(v));
        return Value::real(d);
    }
    fail(args[0]->loc, "float: argument must be a number or a string, not " + type_name(v));
}

Value round_(const CallSite& call) {
    auto args = bind_args(Signature("round", {"number", "ndigits"}, 1), call);
    const Value& v = args[0]->value;
    bool digits = args[1] && !args[1]->value.is(Value::Kind::None);
    if (digits && !is_int(args[1]->value))
        fail(args[1]->loc, "round: ndigits must be an integer, got " + type_name(args[1]->value));
    if (is_int(v)) return Value::integer(as_int(v));
    if (!v.is(Value::Kind::Float)) fail(args[0]->loc, "round: expected a number, got " + type_name(v));
    // nearbyint rounds half to even, as Python's round does.
    if (digits) {
        double scale = std::pow(10.0, double(as_int(args[1]->value)));
        return Value::real(std::nearbyint(v.f * scale) / scale);
    }
    double r = std::nearbyint(v.f);
    if (!std::isfinite(r) || std::fabs(r) >= 9.2e18)
        fail(args[0]->loc, "round: cannot convert " + repr(v) + " to an integer");
    return Value::integer(int64_t(r));
}

Value abs_(const CallSite& call) {
    auto args = bind_args(Signature("abs", {"x"}, 1), call);
    const Value& v = args[0]->value;
    if (is_int(v)) {
        if (as_int(v) == std::numeric_limits<int64_t>::min())
            fail(args[0]->loc, "integer overflow: the result does not fit in 64 bits");
        return Value::integer(std::llabs(as_int(v)));
    }
    if (v.is(Value::Kind::Float)) return Value::real(std::fabs(v.f));
    fail(args[0]->loc, "abs: bad operand type '" + type_name(v) + "'");
}

Value sum(const CallSite& call) {
    auto args = bind_args(Signature("sum", {"iterable", "start"}, 1), call);
    Value total = args[1] ? args[1]->value : Value::integer(0);
    for (const Value& v : iterate(args[0]->value, args[0]->loc))
        total = binary_op(ast::BinaryOp::Add, total, v, call.loc);
    return total;
}

Value sorted(const CallSite& call) {
    auto args = bind_args(Signature("sorted", {"iterable"}, 1), call);
    std::vector<Value> items = iterate(args[0]->value, args[0]->loc);
    // A stable insertion sort: compare_op may throw, which std::sort must not see.
    for (size_t k = 1; k < items.size(); ++k)
        for (size_t j = k; j > 0 && compare_op(ast::CmpOp::Lt, items[j], items[j - 1], call.loc); --j)
            std::swap(items[j], items[j - 1]);
    return Value::list(std::move(items));
}

Value zip(const CallSite& call) {
    std::vector<const Arg*> args = positional(call);
    std::vector<std::vector<Value>> seqs;
    size_t n = args.empty() ? 0 : std::numeric_limits<size_t>::max();
    for (const Arg* a : args) {
        seqs.push_back(iterate(a->value, a->loc));
        n = std::min(n, seqs.back().size());
    }
    std::vector<Value> out;
    for (size_t k = 0; k < n; ++k) {
        std::vector<Value> row;
        for (const auto& s : seqs) row.push_back(s[k]);
        out.push_back(Value::tuple(std::move(row)));
    }
    return Value::list(std::move(out));
}

Value enumerate(const CallSite& call) {
    auto args = bind_args(Signature("enumerate", {"iterable", "start"}, 1), call);
    int64_t k = 0;
    if (args[1]) {
        if (!is_int(args[1]->value))
            fail(args[1]->loc, "enumerate: start must be an integer, got " + type_name(args[1]->value));
        k = as_int(args[1]->value);
    }
    std::vector<Value> out;
    for (const Value& v : iterate(args[0]->value, args[0]->loc)) out.push_back(Value::tuple({Value::integer(k++), v}));
    return Value::list(std::move(out));
}

Value dict(const CallSite& call) {
    Value d = Value::dict({});
    for (const Arg& a : call.args) {
        if (!a.keyword.empty()) {
            dict_set(d, Value::str(a.keyword), a.value);
            continue;
        }
        if (&a != &call.args[0]) fail(a.loc, "dict: expected at most 1 positional argument");
        if (a.value.is(Value::Kind::Dict)) {
            for (const auto& [k, v] : *a.value.entries) dict_set(d, k, v);
            continue;
        }
        for (const Value& pair : iterate(a.value, a.loc)) {
            if (!pair.is_sequence() || pair.items->size() != 2)
                fail(a.loc, "dict: each element must be a (key, value) pair, got " + repr(pair));
            if (!hashable((*pair.items)[0])) fail(a.loc, "unhashable type: '" + type_name((*pair.items)[0]) + "'");
            dict_set(d, (*pair.items)[0], (*pair.items)[1]);
        }
    }
    return d;
}

}  // namespace

bool PypoLibrary::is_builtin(const std::string& name) { return among(kBuiltins, name); }

Value PypoLibrary::builtin(const std::string& name, const SourceLoc& loc, bool& found) const {
    found = true;
    if (is_builtin(name)) return Value::function(name);
    if (among(kOutside, name)) fail(loc, "built-in '" + name + "' is outside the PyPTO language");
    found = false;
    return Value();
}

Value PypoLibrary::call_builtin(const CallSite& call) {
    const std::string& f = call.callee;
    if (f == "print") return log(call, true);
    if (f == "len") return len(call);
    if (f == "range") return range(call);
    if (f == "min" || f == "max") return extreme(call, f == "max");
    if (f == "abs") return abs_(call);
    if (f == "int") return to_int(call);
    if (f == "float") return to_float(call);
    if (f == "round") return round_(call);
    if (f == "sum") return sum(call);
    if (f == "sorted") return sorted(call);
    if (f == "zip") return zip(call);
    if (f == "enumerate") return enumerate(call);
    if (f == "dict") return dict(call);
    if (f == "str") {
        auto args = bind_args(Signature("str", {"object"}, 0), call);
        return Value::str(args[0] ? str_of(args[0]->value) : "");
    }
    auto args = bind_args(Signature(f, {f == "bool" ? "x" : "iterable"}, f == "reversed" ? 1 : 0), call);
    if (f == "bool") return Value::boolean(args[0] && truthy(args[0]->value));
    std::vector<Value> items = args[0] ? iterate(args[0]->value, args[0]->loc) : std::vector<Value>{};
    if (f == "list") return Value::list(std::move(items));
    if (f == "tuple") return Value::tuple(std::move(items));
    if (f == "reversed") return Value::list(std::vector<Value>(items.rbegin(), items.rend()));
    if (f == "any" || f == "all") {
        if (!args[0]) fail(call.loc, f + ": missing required argument 'iterable'");
        bool want = f == "any";
        for (const Value& v : items)
            if (truthy(v) == want) return Value::boolean(want);
        return Value::boolean(!want);
    }
    fail(call.loc, "'" + f + "' cannot be called");  // unreachable: kBuiltins is handled above
}

Value PypoLibrary::len(const CallSite& call) {
    auto args = bind_args(Signature("len", {"obj"}, 1), call);
    const Value& v = args[0]->value;
    if (v.is(Value::Kind::Str)) return Value::integer(int64_t(v.s.size()));
    if (v.is_sequence()) return Value::integer(int64_t(v.items->size()));
    if (v.is(Value::Kind::Dict)) return Value::integer(int64_t(v.entries->size()));
    std::string hint = v.is(Value::Kind::Tensor) ? "; use .shape" : "";
    fail(args[0]->loc, "len: object of type '" + type_name(v) + "' has no len()" + hint);
}

}  // namespace dsl
