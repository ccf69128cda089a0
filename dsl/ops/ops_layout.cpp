// Operations that rearrange data without computing on it: transpose,
// reshape, flatten, concat. Their outputs do not inherit an image layout
// (the axes no longer mean N, C, H, W), except concat's.
#include <algorithm>

#include "dsl/ops/op_rules.h"
#include "dsl/ops/ops_operands.h"
#include "dsl/sema/arg_checks.h"

namespace dsl {

namespace {

// Element k of a literal tuple or list argument, for messages that quote it.
const ast::Expr* element_expr(const Arg& arg, size_t k) {
    if (arg.expr && arg.expr->is<ast::Tuple>() && k < arg.expr->as<ast::Tuple>().elts.size())
        return arg.expr->as<ast::Tuple>().elts[k].get();
    if (arg.expr && arg.expr->is<ast::List>() && k < arg.expr->as<ast::List>().elts.size())
        return arg.expr->as<ast::List>().elts[k].get();
    return nullptr;
}

}  // namespace

// perm defaults to swapping the last two axes (a matrix transpose, batched).
// engine='dma' asks the data movement engine to do it during a copy instead
// of the vector unit.
Value rule_transpose(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("transpose", {"x", "perm", "engine", "layout"}, 1, {}, 2));
    Operand x = c.tensor("x", "x");
    std::vector<int64_t> perm;
    const Arg* p = c.get("perm");
    if (!p || p->value.is(Value::Kind::None)) {
        if (x.rank() < 2) c.fail_at(x.loc, x.name + " has no two axes to swap: " + x.described);
        for (size_t k = 0; k < x.rank(); ++k) perm.push_back(int64_t(k));
        std::swap(perm[x.rank() - 2], perm[x.rank() - 1]);
    } else {
        std::vector<int64_t> given = int_list_arg(c.op(), *p, "perm");
        if (given.size() != x.rank())
            c.fail_at(p->loc, "perm must have one entry per axis: " + shape_text(given) + " for " + x.text());
        for (size_t k = 0; k < given.size(); ++k) {
            int64_t a = int64_t(c.axis(given[k], x, element_loc(*p, k)));
            if (std::find(perm.begin(), perm.end(), a) != perm.end())
                c.fail_at(element_loc(*p, k), "perm repeats axis " + std::to_string(a));
            perm.push_back(a);
        }
    }
    // Without engine=, a task placed on the cube side (placement='cube')
    // keeps a matrix transpose off the vector unit: the DMA engines write it
    // transposed in flight. Elsewhere it runs on the vector unit
    // (docs/language.md §3.5).
    const bool on_cube_side = effective_placement(lib.graph(), lib.current_task()) == "cube";
    Engine engine = on_cube_side && swaps_last_two_axes(perm) ? Engine::Dma : Engine::Vector;
    if (const Arg* e = c.get("engine"))
        engine = choice_from_name<Engine>(choice_arg(c.op(), *e, "engine", choice_names<Engine>()));
    std::vector<int64_t> shape;
    for (int64_t a : perm) shape.push_back(x.shape[size_t(a)]);
    std::map<std::string, Attr> attrs{{"perm", Attr::list(perm)}, {"engine", Attr::choice(engine)}};
    return c.record({x.tensor}, std::move(shape), x.dtype, std::move(attrs));
}

// One dimension may be -1: it takes whatever the element count leaves.
Value rule_reshape(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("reshape", {"x", "shape", "layout"}, 2, {}, 2));
    Operand x = c.tensor("x", "x");
    const Arg& s = *c.get("shape");
    std::vector<int64_t> shape = int_list_arg(c.op(), s, "shape");
    if (shape.empty()) c.fail_at(s.loc, "shape must have at least one dimension");
    size_t inferred = shape.size();
    int64_t known = 1;
    for (size_t k = 0; k < shape.size(); ++k) {
        if (shape[k] == -1) {
            if (inferred != shape.size()) c.fail_at(element_loc(s, k), "only one dimension may be -1");
            inferred = k;
        } else if (shape[k] <= 0) {
            c.fail_at(element_loc(s, k),
                      "shape[" + std::to_string(k) + "] must be positive or -1, got " + std::to_string(shape[k]));
        } else {
            known = c.mul(known, shape[k]);
        }
    }
    int64_t total = c.elements(x.shape);
    std::string have =
        x.text() + " (" + std::to_string(total) + " elements), which does not fit shape " + shape_text(shape);
    if (inferred == shape.size() && known != total) c.fail(have + " (" + std::to_string(known) + " elements)");
    if (inferred != shape.size()) {
        if (total % known != 0) c.fail(have + " (a multiple of " + std::to_string(known) + ")");
        shape[inferred] = total / known;
    }
    return c.record({x.tensor}, std::move(shape), x.dtype, {});
}

// (d0, ..., d[s-1], d[s] * ... * d[n-1]): flatten(x) turns (N, C, H, W) into
// (N, C * H * W) for a classifier.
Value rule_flatten(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("flatten", {"x", "start_axis", "layout"}, 1, {}, 2));
    Operand x = c.tensor("x", "x");
    size_t start = 1;
    if (const Arg* a = c.get("start_axis")) start = c.axis(int_arg(c.op(), *a, "start_axis", INT64_MIN), x, a->loc);
    else if (x.rank() < 2) c.fail_at(x.loc, x.name + " has no axis 1 to flatten from: " + x.described);
    std::vector<int64_t> shape(x.shape.begin(), x.shape.begin() + std::ptrdiff_t(start));
    shape.push_back(c.elements(std::vector<int64_t>(x.shape.begin() + std::ptrdiff_t(start), x.shape.end())));
    return c.record({x.tensor}, std::move(shape), x.dtype, {{"start_axis", Attr::integer(int64_t(start))}});
}

Value rule_concat(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("concat", {"tensors", "axis", "layout"}, 1, {}, 2));
    const Arg& list = *c.get("tensors");
    if (!list.value.is_sequence())
        c.fail_at(list.loc, "tensors must be a list or tuple of tensors, got " + type_name(list.value));
    if (list.value.items->empty()) c.fail_at(list.loc, "tensors must not be empty");
    std::vector<Operand> parts;
    for (size_t k = 0; k < list.value.items->size(); ++k) {
        const ast::Expr* e = element_expr(list, k);
        std::string name = e && e->is<ast::Name>() ? e->as<ast::Name>().id : "tensors[" + std::to_string(k) + "]";
        parts.push_back(c.tensor_at((*list.value.items)[k], element_loc(list, k), name));
    }
    const Operand& first = parts[0];
    size_t axis = 0;
    if (const Arg* a = c.get("axis")) axis = c.axis(int_arg(c.op(), *a, "axis", INT64_MIN), first, a->loc);
    std::vector<int64_t> shape = first.shape;
    std::vector<int> inputs;
    for (const Operand& p : parts) {
        inputs.push_back(p.tensor);
        if (&p == &first) continue;
        std::string both = first.text() + ", " + p.text();
        if (p.rank() != first.rank()) c.fail_at(p.loc, "ranks differ: " + both);
        for (size_t k = 0; k < shape.size(); ++k)
            if (k != axis && p.shape[k] != first.shape[k])
                c.fail_at(p.loc, "shapes differ outside axis " + std::to_string(axis) + ": " + both);
        shape[axis] = c.add(shape[axis], p.shape[axis]);
    }
    // Mixed float dtypes promote: the parts are copied in the widest one.
    arch::DType dtype = first.dtype;
    for (const Operand& p : parts) dtype = wider_dtype(dtype, p.dtype);
    Value out =
        c.record(std::move(inputs), std::move(shape), dtype, {{"axis", Attr::integer(int64_t(axis))}}, first.layout);
    c.promote_operands(out);
    return out;
}

}  // namespace dsl
