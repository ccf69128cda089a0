#include "dsl/sema/value.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "dsl/support/float_repr.h"

namespace dsl {

Value Value::boolean(bool v) {
    Value r;
    r.kind = Kind::Bool;
    r.b = v;
    return r;
}
Value Value::integer(int64_t v) {
    Value r;
    r.kind = Kind::Int;
    r.i = v;
    return r;
}
Value Value::real(double v) {
    Value r;
    r.kind = Kind::Float;
    r.f = v;
    return r;
}
Value Value::str(std::string v) {
    Value r;
    r.kind = Kind::Str;
    r.s = std::move(v);
    return r;
}
Value Value::tuple(std::vector<Value> v) {
    Value r;
    r.kind = Kind::Tuple;
    r.items = std::make_shared<std::vector<Value>>(std::move(v));
    return r;
}
Value Value::list(std::vector<Value> v) {
    Value r = tuple(std::move(v));
    r.kind = Kind::List;
    return r;
}
Value Value::tensor_ref(int index) {
    Value r;
    r.kind = Kind::Tensor;
    r.tensor = index;
    return r;
}
Value Value::namespace_(std::string qualified_name) {
    Value r;
    r.kind = Kind::Namespace;
    r.s = std::move(qualified_name);
    return r;
}
Value Value::function(std::string qualified_name) {
    Value r;
    r.kind = Kind::Function;
    r.s = std::move(qualified_name);
    return r;
}

Value Value::dict(std::vector<std::pair<Value, Value>> v) {
    Value r;
    r.kind = Kind::Dict;
    r.entries = std::make_shared<std::vector<std::pair<Value, Value>>>(std::move(v));
    return r;
}
Value Value::user_function(std::shared_ptr<const FunctionObject> f) {
    Value r;
    r.kind = Kind::UserFunction;
    r.func = std::move(f);
    return r;
}

std::string type_name(const Value& v) {
    switch (v.kind) {
    case Value::Kind::None: return "NoneType";
    case Value::Kind::Bool: return "bool";
    case Value::Kind::Int: return "int";
    case Value::Kind::Float: return "float";
    case Value::Kind::Str: return "str";
    case Value::Kind::Tuple: return "tuple";
    case Value::Kind::List: return "list";
    case Value::Kind::Tensor: return "tensor";
    case Value::Kind::Namespace: return "module";
    case Value::Kind::Function: return "function";
    case Value::Kind::Dict: return "dict";
    case Value::Kind::UserFunction: return "function";
    }
    return "?";
}

namespace {

std::string str_repr(const std::string& s) {
    char q = (s.find('\'') != std::string::npos && s.find('"') == std::string::npos) ? '"' : '\'';
    std::string out(1, q);
    for (char c : s) {
        if (c == q || c == '\\') out += '\\';
        if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else out += c;
    }
    return out + q;
}

}  // namespace

std::string repr(const Value& v) {
    switch (v.kind) {
    case Value::Kind::None: return "None";
    case Value::Kind::Bool: return v.b ? "True" : "False";
    case Value::Kind::Int: return std::to_string(v.i);
    case Value::Kind::Float: return float_repr(v.f);
    case Value::Kind::Str: return str_repr(v.s);
    case Value::Kind::Tuple:
    case Value::Kind::List: {
        bool tup = v.kind == Value::Kind::Tuple;
        std::string out = tup ? "(" : "[";
        for (size_t k = 0; k < v.items->size(); ++k) out += (k ? ", " : "") + repr((*v.items)[k]);
        if (tup && v.items->size() == 1) out += ",";
        return out + (tup ? ")" : "]");
    }
    case Value::Kind::Tensor: return "<tensor>";
    case Value::Kind::Namespace: return "<module '" + v.s + "'>";
    case Value::Kind::Function: return "<function " + v.s + ">";
    case Value::Kind::Dict: {
        std::string out = "{";
        for (size_t k = 0; k < v.entries->size(); ++k)
            out += (k ? ", " : "") + repr((*v.entries)[k].first) + ": " + repr((*v.entries)[k].second);
        return out + "}";
    }
    case Value::Kind::UserFunction: return "<function>";
    }
    return "?";
}

bool truthy(const Value& v) {
    switch (v.kind) {
    case Value::Kind::None: return false;
    case Value::Kind::Bool: return v.b;
    case Value::Kind::Int: return v.i != 0;
    case Value::Kind::Float: return v.f != 0.0;
    case Value::Kind::Str: return !v.s.empty();
    case Value::Kind::Tuple:
    case Value::Kind::List: return !v.items->empty();
    case Value::Kind::Dict: return !v.entries->empty();
    default: return true;
    }
}

bool values_equal(const Value& a, const Value& b) {
    auto numeric = [](const Value& v) {
        return v.kind == Value::Kind::Bool || v.kind == Value::Kind::Int || v.kind == Value::Kind::Float;
    };
    if (numeric(a) && numeric(b)) {
        if (a.kind == Value::Kind::Float || b.kind == Value::Kind::Float) {
            double x = a.kind == Value::Kind::Float ? a.f : a.kind == Value::Kind::Int ? double(a.i) : a.b;
            double y = b.kind == Value::Kind::Float ? b.f : b.kind == Value::Kind::Int ? double(b.i) : b.b;
            return x == y;
        }
        int64_t x = a.kind == Value::Kind::Int ? a.i : a.b;
        int64_t y = b.kind == Value::Kind::Int ? b.i : b.b;
        return x == y;
    }
    if (a.kind != b.kind) return false;
    switch (a.kind) {
    case Value::Kind::None: return true;
    case Value::Kind::Str:
    case Value::Kind::Namespace:
    case Value::Kind::Function: return a.s == b.s;
    case Value::Kind::Tensor: return a.tensor == b.tensor;
    case Value::Kind::Tuple:
    case Value::Kind::List: {
        if (a.items->size() != b.items->size()) return false;
        for (size_t k = 0; k < a.items->size(); ++k)
            if (!values_equal((*a.items)[k], (*b.items)[k])) return false;
        return true;
    }
    case Value::Kind::Dict: {
        if (a.entries->size() != b.entries->size()) return false;
        for (const auto& [k, v] : *a.entries) {
            const Value* other = dict_find(b, k);
            if (!other || !values_equal(v, *other)) return false;
        }
        return true;
    }
    case Value::Kind::UserFunction: return a.func == b.func;
    default: return false;
    }
}

bool hashable(const Value& v) {
    if (v.kind == Value::Kind::List || v.kind == Value::Kind::Dict) return false;
    if (v.kind == Value::Kind::Tuple)
        for (const Value& x : *v.items)
            if (!hashable(x)) return false;
    return true;
}

const Value* dict_find(const Value& d, const Value& key) {
    for (const auto& [k, v] : *d.entries)
        if (values_equal(k, key)) return &v;
    return nullptr;
}

void dict_set(const Value& d, const Value& key, Value v) {
    for (auto& [k, old] : *d.entries)
        if (values_equal(k, key)) {
            old = std::move(v);
            return;
        }
    d.entries->emplace_back(key, std::move(v));
}

}  // namespace dsl
