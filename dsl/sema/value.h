// The values a PyPTO program computes with at compile time. Shapes, tile
// sizes and loop bounds are ordinary Python values here; tensors are handles
// to nodes of the TaskGraph being built; the pypo module and its functions
// are values too, so `pypo.op.matmul` is looked up like any attribute.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dsl {

struct FunctionObject;  // a program's `def`: dsl/sema/function_object.h

struct Value {
    // Function: a library function or built-in, named by `s`.
    // UserFunction: a `def` of the program, in `func`.
    enum class Kind { None, Bool, Int, Float, Str, Tuple, List, Tensor, Namespace, Function, Dict, UserFunction };

    Kind kind = Kind::None;
    bool b = false;
    int64_t i = 0;
    double f = 0.0;
    std::string s;  // Str: the text; Namespace/Function: qualified name ("pypo.op", "pypo.input")
    // Tuple and List elements. Shared so that a list, which Python mutates in
    // place, stays one object however many names refer to it.
    std::shared_ptr<std::vector<Value>> items;
    int tensor = -1;  // Tensor: index into TaskGraph::tensors
    // Dict entries in insertion order, shared like `items`. Dicts in a PyPTO
    // program are small (shape hints), so lookup is a linear scan.
    std::shared_ptr<std::vector<std::pair<Value, Value>>> entries;
    std::shared_ptr<const FunctionObject> func;

    static Value none() { return Value(); }
    static Value boolean(bool v);
    static Value integer(int64_t v);
    static Value real(double v);
    static Value str(std::string v);
    static Value tuple(std::vector<Value> v);
    static Value list(std::vector<Value> v);
    static Value tensor_ref(int index);
    static Value namespace_(std::string qualified_name);
    static Value function(std::string qualified_name);
    static Value dict(std::vector<std::pair<Value, Value>> v);
    static Value user_function(std::shared_ptr<const FunctionObject> f);

    bool is(Kind k) const { return kind == k; }
    bool is_sequence() const { return kind == Kind::Tuple || kind == Kind::List; }
};

// The Python type name used in messages: "int", "str", "tuple", "tensor", "module".
std::string type_name(const Value& v);

// Python's repr: 3, 2.5, 'abc', (1, 2), (1,), [1], None. Tensors print as
// "<tensor>" (the elaborator, which knows their shapes, describes them itself).
std::string repr(const Value& v);

bool truthy(const Value& v);
bool values_equal(const Value& a, const Value& b);

// Whether `v` can be a dict key (Python's hashable): not a list or dict.
bool hashable(const Value& v);
// The entry of `d` (a Dict) with key `key`, or nullptr.
const Value* dict_find(const Value& d, const Value& key);
// Sets d[key] = v, keeping the first insertion's position.
void dict_set(const Value& d, const Value& key, Value v);

}  // namespace dsl
