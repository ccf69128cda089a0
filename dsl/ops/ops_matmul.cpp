// matmul: the cube unit's operation. 2-D (M, K) @ (K, N), or batched
// (..., M, K) @ (..., K, N) with NumPy-broadcast batch dimensions, as
// attention's (B, H, S, D) @ (B, H, D, S).
#include "dsl/ops/op_rules.h"
#include "dsl/ops/ops_operands.h"
#include "dsl/sema/arg_checks.h"

namespace dsl {

namespace {

// tile=64 means 64 x 64 output tiles (the lowering picks k); (m, n) and
// (m, n, k) are kept as written.
std::vector<int64_t> tile_arg(const OpCall& c, const Arg& arg) {
    const Value& v = arg.value;
    if (v.is(Value::Kind::Int)) {
        int64_t t = int_arg(c.op(), arg, "tile", 1);
        return {t, t};
    }
    if (!v.is_sequence())
        c.fail_at(arg.loc, "tile must be an integer or a tuple of 2 or 3 integers, got " + type_name(v));
    if (v.items->size() != 2 && v.items->size() != 3)
        c.fail_at(arg.loc, "tile must have 2 or 3 values, got " + std::to_string(v.items->size()));
    std::vector<int64_t> tile = int_list_arg(c.op(), arg, "tile");
    for (size_t k = 0; k < tile.size(); ++k)
        if (tile[k] <= 0)
            c.fail_at(element_loc(arg, k),
                      "tile[" + std::to_string(k) + "] must be positive, got " + std::to_string(tile[k]));
    return tile;
}

}  // namespace

Value rule_matmul(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call,
             Signature("matmul", {"a", "b", "tile", "prefetch", "unroll", "target", "dtype", "layout"}, 2, {}, 2));
    Operand a = c.tensor("a", "lhs");
    Operand b = c.tensor("b", "rhs");
    for (const Operand* x : {&a, &b})
        if (x->rank() < 2) c.fail_at(x->loc, x->name + " must be 2-D, got " + x->described);
    std::string both = a.text() + ", " + b.text();
    size_t ra = a.rank(), rb = b.rank();
    if (a.shape[ra - 1] != b.shape[rb - 2]) c.fail("inner dimensions differ: " + both);
    auto batch = broadcast_shapes(std::vector<int64_t>(a.shape.begin(), a.shape.end() - 2),
                                  std::vector<int64_t>(b.shape.begin(), b.shape.end() - 2));
    if (!batch) c.fail("batch dimensions do not broadcast: " + both);

    std::map<std::string, Attr> attrs;
    if (const Arg* t = c.get("tile")) attrs["tile"] = Attr::list(tile_arg(c, *t));
    if (const Arg* p = c.get("prefetch")) attrs["prefetch"] = Attr::boolean(bool_arg(c.op(), *p, "prefetch"));
    if (const Arg* u = c.get("unroll")) attrs["unroll"] = Attr::integer(int_arg(c.op(), *u, "unroll", 1));

    std::vector<int64_t> shape = *batch;
    shape.push_back(a.shape[ra - 2]);
    shape.push_back(b.shape[rb - 1]);
    // int8 x int8 accumulates in int32 on the cube (timing model §7.1),
    // and int32 is the result; an int32 operand or int8 beside a float
    // is refused (weight-only int8 is not done: cast the weights first).
    const bool int8 = a.dtype == arch::DType::Int8 || b.dtype == arch::DType::Int8;
    for (const Operand* x : {&a, &b})
        if (x->dtype == arch::DType::Int32)
            c.fail_at(x->loc, x->name + " is int32: the cube multiplies int8, not int32");
    if (int8 && a.dtype != b.dtype)
        c.fail("int8 operands multiply only int8 operands, got " + both + " (cast the other one to int8)");
    if (int8) {
        const arch::DType out = c.dtype_or(arch::DType::Int32);
        if (out != arch::DType::Int32)
            c.fail_at(c.get("dtype")->loc, std::string("an int8 matmul makes int32 (its accumulator), not ") +
                                               arch::dtype_name(out) + ": cast its result");
        return c.record({a.tensor, b.tensor}, std::move(shape), out, std::move(attrs));
    }
    // Mixed float dtypes promote: the cube computes in the wider one, and
    // the result has it unless dtype= says otherwise.
    Value out =
        c.record({a.tensor, b.tensor}, std::move(shape), c.dtype_or(wider_dtype(a.dtype, b.dtype)), std::move(attrs));
    c.promote_operands(out);
    return out;
}

}  // namespace dsl
