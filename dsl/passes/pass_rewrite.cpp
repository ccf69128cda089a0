#include "dsl/passes/pass_rewrite.h"

#include <algorithm>

namespace dsl {

GraphRewriter::GraphRewriter(const TaskGraph& g) : in_(g), out_(g) {
    out_.ops.clear();
    for (TaskNode& t : out_.tasks) t.ops.clear();
    for (TensorNode& t : out_.tensors) {
        t.producer = -1;
        names_.insert(t.name);
    }
    first_.assign(g.ops.size() + 1, -1);
    last_.assign(g.ops.size() + 1, -1);
}

void GraphRewriter::begin(int old) { first_[size_t(old)] = int(out_.ops.size()); }

void GraphRewriter::end(int old) { last_[size_t(old)] = int(out_.ops.size()); }

int GraphRewriter::emit(OpNode op) {
    int index = int(out_.ops.size());
    out_.tensors[size_t(op.output)].producer = index;
    if (op.task >= 0) out_.tasks[size_t(op.task)].ops.push_back(index);
    out_.ops.push_back(std::move(op));
    return index;
}

int GraphRewriter::add_tensor(TensorNode t) {
    names_.insert(t.name);
    out_.tensors.push_back(std::move(t));
    return int(out_.tensors.size() - 1);
}

std::string GraphRewriter::fresh_name(const std::string& base) {
    for (int k = 1;; ++k) {
        std::string name = base + "_" + std::to_string(k);
        if (!names_.count(name)) return name;
    }
}

TaskGraph GraphRewriter::rewrite_each(const std::function<void(const OpNode&)>& rewrite) {
    for (size_t i = 0; i < in_.ops.size(); ++i) {
        begin(int(i));
        rewrite(in_.ops[i]);
        end(int(i));
    }
    return finish();
}

TaskGraph GraphRewriter::finish() {
    const int n = int(in_.ops.size());
    first_[size_t(n)] = last_[size_t(n)] = int(out_.ops.size());
    // A log after original op k now follows the last op emitted for it.
    for (LogNode& l : out_.logs)
        if (l.after_op >= 0 && l.after_op < n) l.after_op = last_[size_t(l.after_op)] - 1;
    // A temp_cache scope covers the ops emitted for its original ops.
    for (CacheScope& c : out_.temp_caches) {
        c.first_op = first_[size_t(std::min(std::max(c.first_op, 0), n))];
        c.end_op = first_[size_t(std::min(std::max(c.end_op, 0), n))];
    }
    check_dag(out_);
    return std::move(out_);
}

OpNode cast_op(int in, int out, arch::DType d, const OpNode& at) {
    OpNode op;
    op.kind = OpKind::Cast;
    op.inputs = {in};
    op.output = out;
    op.attrs["dtype"] = Attr::str(arch::dtype_name(d));
    op.precision = at.precision;
    op.task = at.task;
    op.loc = at.loc;
    return op;
}

int SharedCasts::of(int t, arch::DType d, const OpNode& consumer) {
    if (rw_.tensor(t).dtype == d) return t;
    const auto key = std::make_pair(t, d);
    if (auto it = casts_.find(key); it != casts_.end()) return it->second;
    TensorNode out = rw_.tensor(t);
    out.name = rw_.fresh_name("cast");
    out.dtype = d;
    out.role = TensorRole::Intermediate;
    out.placement = Placement::DDR;
    out.task = consumer.task;
    out.loc = consumer.loc;
    const int c = rw_.add_tensor(out);
    OpNode cast = cast_op(t, c, d, consumer);
    cast.explicit_dtype = promotions_;
    cast.promotion = promotions_;
    rw_.emit(std::move(cast));
    casts_[key] = c;
    return c;
}

}  // namespace dsl
