// Indexing a tensor: `t[i, a:b:s, ...]` with integers known at compile time
// (constants, loop variables: loops are unrolled), checked against the
// tensor's shape as NumPy would index it, except that a bound outside the
// axis is an error rather than clipped (a view names real bytes) and
// steps are positive.
#include "dsl/sema/elaborator.h"
#include "dsl/sema/value_ops.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

bool is_full_slice(const ast::Expr& e) {
    if (!e.is<ast::Slice>()) return false;
    const auto& s = e.as<ast::Slice>();
    return !s.lower && !s.upper && !s.step;
}

}  // namespace

int64_t Elaborator::tensor_index_bound(const ast::Expr& e, const char* what) {
    Value v = eval(e);
    if (v.is(Value::Kind::Int)) return v.i;
    fail(e.loc, std::string("tensor ") + what + " must be integers known at compile time (constants or loop " +
                    "variables), not " + type_name(v));
}

SliceSpec Elaborator::tensor_index(const ast::Subscript& e, int tensor) {
    const std::vector<int64_t> shape = graph_.tensors[size_t(tensor)].shape;
    const int64_t rank = int64_t(shape.size());
    std::vector<const ast::Expr*> items;
    if (e.index->is<ast::Tuple>())
        for (const auto& x : e.index->as<ast::Tuple>().elts) items.push_back(x.get());
    else items.push_back(e.index.get());
    int64_t indexed = 0;
    const ast::Expr* ellipsis = nullptr;
    for (const ast::Expr* x : items) {
        if (!x->is<ast::EllipsisLit>()) {
            ++indexed;
            continue;
        }
        if (ellipsis) fail(x->loc, "a tensor index can only have a single ellipsis ('...')");
        ellipsis = x;
    }
    if (indexed > rank)
        fail(e.index->loc, "too many indices for tensor: tensor is " + std::to_string(rank) + "-dimensional, but " +
                               std::to_string(indexed) + " were indexed");
    SliceSpec s;
    auto full = [&](size_t axis) {
        s.begin.push_back(0), s.count.push_back(shape[axis]), s.step.push_back(1), s.dropped.push_back(0);
    };
    for (const ast::Expr* x : items) {
        const size_t axis = s.count.size();
        if (x->is<ast::EllipsisLit>()) {
            for (int64_t k = 0; k < rank - indexed; ++k) full(s.count.size());
            continue;
        }
        const int64_t n = shape[axis];
        const std::string of_axis = " of axis " + std::to_string(axis) + " (size " + std::to_string(n) + ")";
        if (is_full_slice(*x)) {
            full(axis);
            continue;
        }
        if (!x->is<ast::Slice>()) {
            if (x->is<ast::NoneLit>()) fail(x->loc, "new axes (None) in a tensor index are not supported; use reshape");
            int64_t i = tensor_index_bound(*x, "indices");
            const int64_t written = i;
            if (i < 0) i += n;
            if (i < 0 || i >= n) fail(x->loc, "index " + std::to_string(written) + " is out of range" + of_axis);
            s.begin.push_back(i), s.count.push_back(1), s.step.push_back(1), s.dropped.push_back(1);
            continue;
        }
        const auto& sl = x->as<ast::Slice>();
        const int64_t step = sl.step ? tensor_index_bound(*sl.step, "slice steps") : 1;
        if (step == 0) fail(sl.step->loc, "slice step cannot be zero");
        if (step < 0) fail(sl.step->loc, "negative slice steps are not supported on tensors");
        int64_t lo = sl.lower ? tensor_index_bound(*sl.lower, "slice bounds") : 0;
        int64_t hi = sl.upper ? tensor_index_bound(*sl.upper, "slice bounds") : n;
        const std::string written = (sl.lower ? std::to_string(lo) : "") + ":" + (sl.upper ? std::to_string(hi) : "");
        if (lo < 0) lo += n;
        if (hi < 0) hi += n;
        if (lo < 0 || lo > n || hi < 0 || hi > n) fail(x->loc, "slice " + written + " is out of range" + of_axis);
        if (hi <= lo) fail(x->loc, "slice " + written + of_axis + " is empty");
        s.begin.push_back(lo), s.count.push_back((hi - lo + step - 1) / step), s.step.push_back(step);
        s.dropped.push_back(0);
    }
    while (int64_t(s.count.size()) < rank) full(s.count.size());
    return s;
}

}  // namespace dsl
