// Element-wise operations: the vector unit applies one function per element.
// Unary ones keep the shape; binary ones broadcast their operands like NumPy,
// and either operand may be a plain number (kept as the attr "scalar").
// clip bounds its one tensor by two numbers (attrs "lo" and "hi"). where
// selects between two tensors by a third, the three broadcast together.
#include "dsl/ops/op_rules.h"
#include "dsl/ops/ops_operands.h"
#include "dsl/sema/arg_checks.h"

namespace dsl {

namespace {

bool is_number(const Value& v) { return v.is(Value::Kind::Int) || v.is(Value::Kind::Float); }
double number(const Value& v) { return v.is(Value::Kind::Int) ? double(v.i) : v.f; }

// A float condition that keeps its truth in `result`: the same dtype, or one
// whose every nonzero value (and NaN) stays nonzero there: float16 and
// bfloat16 into float32, float16 into bfloat16 (whose range holds float16's
// smallest subnormal). Narrower ones could round a tiny nonzero to 0 and
// flip the selection.
bool keeps_truth(arch::DType cond, arch::DType result) {
    return cond == result || result == arch::DType::Float32 ||
           (cond == arch::DType::Float16 && result == arch::DType::BFloat16);
}

}  // namespace

Value rule_unary(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature(op_name(call), {"x", "dtype", "layout"}, 1, {}, 1));
    Operand x = c.tensor("x", "x");
    return c.record({x.tensor}, x.shape, c.dtype_or(x.dtype), {}, x.layout);
}

Value rule_cast(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("cast", {"x", "dtype", "layout"}, 2, {}, 2));
    Operand x = c.tensor("x", "x");
    return c.record({x.tensor}, x.shape, c.dtype_or(x.dtype), {}, x.layout);
}

Value rule_binary(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature(op_name(call), {"a", "b", "dtype", "layout"}, 2, {}, 2));
    const Arg& a = *c.get("a");
    const Arg& b = *c.get("b");
    for (const Arg* x : {&a, &b})
        if (!x->value.is(Value::Kind::Tensor) && !is_number(x->value))
            c.fail_at(x->loc, spelling(*x, x == &a ? "lhs" : "rhs") + " must be a tensor or a number, got " +
                                  type_name(x->value));
    if (is_number(a.value) && is_number(b.value))
        c.fail("at least one operand must be a tensor, got " + type_name(a.value) + " and " + type_name(b.value));

    if (a.value.is(Value::Kind::Tensor) && b.value.is(Value::Kind::Tensor)) {
        Operand l = c.tensor("a", "lhs"), r = c.tensor("b", "rhs");
        std::string both = l.text() + ", " + r.text();
        auto shape = broadcast_shapes(l.shape, r.shape);
        if (!shape) c.fail("shapes do not broadcast: " + both);
        // Mixed float dtypes promote to the wider one. Given dtype=, the
        // vector unit computes in it and converts each operand as it reads
        // it, so nothing is promoted.
        Value out = c.record({l.tensor, r.tensor}, *shape, c.dtype_or(wider_dtype(l.dtype, r.dtype)), {}, l.layout);
        if (!c.get("dtype")) c.promote_operands(out);
        return out;
    }

    bool scalar_first = is_number(a.value);
    const Arg& scalar = scalar_first ? a : b;
    Operand t = scalar_first ? c.tensor("b", "rhs") : c.tensor("a", "lhs");
    if (c.kind() == OpKind::Div && !scalar_first && number(scalar.value) == 0.0)
        c.fail_at(scalar.loc, "division by zero");
    std::map<std::string, Attr> attrs{{"scalar", Attr::real(number(scalar.value))}};
    // Order matters for sub and div: 1 - x is not x - 1.
    if (scalar_first) attrs["scalar_first"] = Attr::boolean(true);
    return c.record({t.tensor}, t.shape, c.dtype_or(t.dtype), std::move(attrs), t.layout);
}

// clip(x, lo, hi) = minimum(maximum(x, lo), hi): ReLU6 is clip(x, 0, 6).
// The bounds are numbers (immediates of the vector unit), lo <= hi.
Value rule_clip(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("clip", {"x", "lo", "hi", "dtype", "layout"}, 3, {}, 3));
    Operand x = c.tensor("x", "x");
    auto bound = [&](const char* param) {
        const Arg& a = *c.get(param);
        if (!is_number(a.value)) c.fail_at(a.loc, std::string(param) + " must be a number, got " + type_name(a.value));
        return number(a.value);
    };
    const double lo = bound("lo"), hi = bound("hi");
    if (lo > hi)
        c.fail_at(c.get("hi")->loc, "hi must not be below lo, got lo " + attr_text(Attr::real(lo)) + " and hi " +
                                        attr_text(Attr::real(hi)));
    return c.record({x.tensor}, x.shape, c.dtype_or(x.dtype), {{"lo", Attr::real(lo)}, {"hi", Attr::real(hi)}},
                    x.layout);
}

// swiglu(gate, up) = silu(gate) * up, the gating of a SwiGLU feed-forward
// block (Llama's FFN): two tensors of one shape, mixed dtypes promoted as
// for the binary operations.
Value rule_swiglu(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("swiglu", {"gate", "up", "dtype", "layout"}, 2, {}, 2));
    Operand g = c.tensor("gate", "gate"), u = c.tensor("up", "up");
    if (g.shape != u.shape) c.fail("gate and up must have the same shape: " + g.text() + ", " + u.text());
    Value out = c.record({g.tensor, u.tensor}, g.shape, c.dtype_or(wider_dtype(g.dtype, u.dtype)), {}, g.layout);
    if (!c.get("dtype")) c.promote_operands(out);
    return out;
}

// where(cond, x, y): x where cond is nonzero (NaN counts as nonzero, as
// NumPy reads a float array), else y; the three broadcast like NumPy. The
// result has x and y's wider dtype (or dtype=); cond is read in it, which
// keeps_truth requires to be exact about zero.
Value rule_where(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("where", {"cond", "x", "y", "dtype", "layout"}, 3, {}, 3));
    Operand k = c.tensor("cond", "cond"), x = c.tensor("x", "x"), y = c.tensor("y", "y");
    auto shape = broadcast_shapes(k.shape, x.shape);
    if (shape) shape = broadcast_shapes(*shape, y.shape);
    if (!shape) c.fail("shapes do not broadcast: " + k.text() + ", " + x.text() + ", " + y.text());
    const arch::DType out = c.dtype_or(wider_dtype(x.dtype, y.dtype));
    if (!keeps_truth(k.dtype, out))
        c.fail_at(k.loc, std::string("cond is ") + arch::dtype_name(k.dtype) + " but the result is " +
                             arch::dtype_name(out) + ": reading cond as " + arch::dtype_name(out) +
                             " could round a nonzero to 0 (cast x and y, or cond, explicitly)");
    return c.record({k.tensor, x.tensor, y.tensor}, *shape, out, {}, x.layout);
}

}  // namespace dsl
