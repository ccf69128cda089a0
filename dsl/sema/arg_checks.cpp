#include "dsl/sema/arg_checks.h"

#include "dsl/sema/pypo_library.h"  // shape_text
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

// Checks one integer (a whole argument or an element of one).
int64_t checked_int(const std::string& fn, const Value& v, const SourceLoc& loc, const std::string& what, int64_t min) {
    if (!v.is(Value::Kind::Int)) fail(loc, fn + ": " + what + " must be an integer, got " + type_name(v));
    if (v.i < min)
        fail(loc,
             fn + ": " + what + " must be " + (min > 0 ? "positive" : "non-negative") + ", got " + std::to_string(v.i));
    return v.i;
}

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
    for (size_t k = 0; k < v.items->size(); ++k)
        shape.push_back(checked_int(fn, (*v.items)[k], element_loc(arg, k), "shape[" + std::to_string(k) + "]", 1));
    require_countable(fn, shape, arg.loc);
    return shape;
}

void require_countable(const std::string& fn, const std::vector<int64_t>& shape, const SourceLoc& loc) {
    // The bytes (float32 at most) must be countable: an overflow would wrap to
    // a small size that passes every later check (DDR capacity, tiling).
    int64_t bytes = 4;
    for (int64_t d : shape)
        if (__builtin_mul_overflow(bytes, d, &bytes)) fail(loc, fn + ": shape " + shape_text(shape) + " is too large");
}

arch::DType dtype_arg(const std::string& fn, const Arg& arg) {
    const Value& v = arg.value;
    // The short spellings are the ones AI frameworks' users type.
    if (v.is(Value::Kind::Str) && (v.s == "float16" || v.s == "fp16")) return arch::DType::Float16;
    if (v.is(Value::Kind::Str) && (v.s == "float32" || v.s == "fp32")) return arch::DType::Float32;
    if (v.is(Value::Kind::Str) && (v.s == "bfloat16" || v.s == "bf16")) return arch::DType::BFloat16;
    if (v.is(Value::Kind::Str) && v.s == "int8") return arch::DType::Int8;
    if (v.is(Value::Kind::Str) && v.s == "int32") return arch::DType::Int32;
    fail(arg.loc, fn + ": dtype must be 'float16', 'bfloat16', 'float32', 'int8' or 'int32', got " + repr(v));
}

std::string name_arg(const std::string& fn, const Arg& arg) {
    if (!arg.value.is(Value::Kind::Str)) fail(arg.loc, fn + ": name must be a string, got " + type_name(arg.value));
    if (arg.value.s.empty()) fail(arg.loc, fn + ": name must not be empty");
    return arg.value.s;
}

int64_t int_arg(const std::string& fn, const Arg& arg, const std::string& what, int64_t min) {
    return checked_int(fn, arg.value, arg.loc, what, min);
}

std::vector<int64_t> int_pair_arg(const std::string& fn, const Arg& arg, const std::string& what, int64_t min) {
    const Value& v = arg.value;
    if (v.is(Value::Kind::Int)) {
        int64_t x = checked_int(fn, v, arg.loc, what, min);
        return {x, x};
    }
    if (!v.is_sequence())
        fail(arg.loc, fn + ": " + what + " must be an integer or a pair of integers, got " + type_name(v));
    if (v.items->size() != 2)
        fail(arg.loc, fn + ": " + what + " must have 2 values, got " + std::to_string(v.items->size()));
    std::vector<int64_t> pair;
    for (size_t k = 0; k < 2; ++k)
        pair.push_back(checked_int(fn, (*v.items)[k], element_loc(arg, k), what + "[" + std::to_string(k) + "]", min));
    return pair;
}

std::vector<int64_t> int_list_arg(const std::string& fn, const Arg& arg, const std::string& what) {
    const Value& v = arg.value;
    if (!v.is_sequence()) fail(arg.loc, fn + ": " + what + " must be a tuple of integers, got " + type_name(v));
    std::vector<int64_t> out;
    for (size_t k = 0; k < v.items->size(); ++k)
        out.push_back(
            checked_int(fn, (*v.items)[k], element_loc(arg, k), what + "[" + std::to_string(k) + "]", INT64_MIN));
    return out;
}

bool bool_arg(const std::string& fn, const Arg& arg, const std::string& what) {
    if (!arg.value.is(Value::Kind::Bool))
        fail(arg.loc, fn + ": " + what + " must be True or False, got " + repr(arg.value));
    return arg.value.b;
}

double positive_real_arg(const std::string& fn, const Arg& arg, const std::string& what) {
    const Value& v = arg.value;
    double x = v.is(Value::Kind::Int) ? double(v.i) : v.is(Value::Kind::Float) ? v.f : -1.0;
    bool number = v.is(Value::Kind::Int) || v.is(Value::Kind::Float);
    if (!number || !(x > 0)) fail(arg.loc, fn + ": " + what + " must be a positive number, got " + repr(v));
    return x;
}

std::string choice_arg(const std::string& fn, const Arg& arg, const std::string& what,
                       const std::vector<std::string>& choices) {
    const Value& v = arg.value;
    if (v.is(Value::Kind::Str))
        for (const std::string& c : choices)
            if (v.s == c) return c;
    fail(arg.loc, fn + ": " + what + " must be " + quoted_choices(choices) + ", got " + repr(v));
}

const std::vector<std::string>& valid_layouts() {
    static const std::vector<std::string> layouts{"NCHW", "NHWC", "fractal"};
    return layouts;
}

std::string layout_arg(const std::string& fn, const Arg& arg, const std::vector<int64_t>& shape) {
    if (arg.value.is(Value::Kind::None)) return "";
    std::string layout = choice_arg(fn, arg, "layout", valid_layouts());
    std::string dims = shape_text(shape);
    // An image layout names four axes; a fractal tile needs two.
    if (layout != "fractal" && shape.size() != 4)
        fail(arg.loc, fn + ": layout '" + layout + "' needs a 4-D tensor, got " + dims);
    if (layout == "fractal" && shape.size() < 2)
        fail(arg.loc, fn + ": layout 'fractal' needs at least 2 dimensions, got " + dims);
    return layout;
}

std::string quoted_choices(const std::vector<std::string>& choices) {
    std::string out;
    for (size_t k = 0; k < choices.size(); ++k)
        out += (k == 0 ? "" : k + 1 == choices.size() ? " or " : ", ") + ("'" + choices[k] + "'");
    return out;
}

}  // namespace dsl
