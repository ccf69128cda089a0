#include "dsl/passes/pass_promote.h"

#include <algorithm>
#include <map>
#include <utility>

#include "dsl/passes/pass_rewrite.h"

namespace dsl {

namespace {

class PromotePass {
public:
    explicit PromotePass(const TaskGraph& g) : rw_(g) {}

    TaskGraph run() {
        return rw_.rewrite_each([this](const OpNode& op) { rewrite(op); });
    }

private:
    void rewrite(OpNode op) {
        if (op.promotes_operands && !op.inputs.empty()) {
            arch::DType target = rw_.tensor(op.inputs[0]).dtype;
            for (int in : op.inputs) target = wider_dtype(target, rw_.tensor(in).dtype);
            if (op.kind == OpKind::Concat) target = rw_.tensor(op.output).dtype;
            for (int& in : op.inputs) in = cast_of(in, target, op);
        }
        rw_.emit(std::move(op));
    }

    // `t` in dtype `d`: itself, or the output of a (shared) promotion cast.
    int cast_of(int t, arch::DType d, const OpNode& consumer) {
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
        OpNode cast;
        cast.kind = OpKind::Cast;
        cast.inputs = {t};
        cast.output = c;
        cast.attrs["dtype"] = Attr::str(arch::dtype_name(d));
        cast.precision = consumer.precision;
        cast.explicit_dtype = true;
        cast.promotion = true;
        cast.task = consumer.task;
        cast.loc = consumer.loc;
        rw_.emit(std::move(cast));
        casts_[key] = c;
        return c;
    }

    GraphRewriter rw_;
    std::map<std::pair<int, arch::DType>, int> casts_;
};

}  // namespace

TaskGraph apply_promotion(const TaskGraph& g) { return PromotePass(g).run(); }

size_t count_promotions(const TaskGraph& g) {
    return size_t(std::count_if(g.ops.begin(), g.ops.end(), [](const OpNode& op) { return op.promotion; }));
}

}  // namespace dsl
