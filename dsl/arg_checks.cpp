#include "dsl/arg_checks.h"

#include "dsl/diagnostics.h"

namespace dsl {

namespace {

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

}  // namespace

// The location of element k of a shape argument, when it was written as a
// literal tuple or list, so the caret lands on the bad dimension itself.
SourceLoc element_loc(const Arg& arg, size_t k) {
    if (arg.expr && arg.expr->is<ast::Tuple>() && k < arg.expr->as<ast::Tuple>().elts.size())
        return arg.expr->as<ast::Tuple>().elts[k]->loc;
    if (arg.expr && arg.expr->is<ast::List>() && k < arg.expr->as<ast::List>().elts.size())
        return arg.expr->as<ast::List>().elts[k]->loc;
    return arg.loc;
}

std::vector<int64_t> shape_arg(const std::string& fn, const Arg& arg) {
    const Value& v = arg.value;
    if (!v.is_sequence()) fail(arg.loc, fn + ": shape must be a tuple of integers, got " + type_name(v));
    if (v.items->empty()) fail(arg.loc, fn + ": shape must have at least one dimension");
    std::vector<int64_t> shape;
    for (size_t k = 0; k < v.items->size(); ++k) {
        const Value& d = (*v.items)[k];
        std::string which = fn + ": shape[" + std::to_string(k) + "]";
        if (!d.is(Value::Kind::Int)) fail(element_loc(arg, k), which + " must be an integer, got " + type_name(d));
        if (d.i <= 0) fail(element_loc(arg, k), which + " must be positive, got " + std::to_string(d.i));
        shape.push_back(d.i);
    }
    return shape;
}

arch::DType dtype_arg(const std::string& fn, const Arg& arg) {
    const Value& v = arg.value;
    if (v.is(Value::Kind::Str) && v.s == "float16") return arch::DType::Float16;
    if (v.is(Value::Kind::Str) && v.s == "float32") return arch::DType::Float32;
    fail(arg.loc, fn + ": dtype must be 'float16' or 'float32', got " + repr(v));
}

std::string name_arg(const std::string& fn, const Arg& arg) {
    if (!arg.value.is(Value::Kind::Str)) fail(arg.loc, fn + ": name must be a string, got " + type_name(arg.value));
    if (arg.value.s.empty()) fail(arg.loc, fn + ": name must not be empty");
    return arg.value.s;
}

}  // namespace dsl
