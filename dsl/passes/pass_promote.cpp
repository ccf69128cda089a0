#include "dsl/passes/pass_promote.h"

#include <algorithm>
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
            for (int& in : op.inputs) in = casts_.of(in, target, op);
        }
        rw_.emit(std::move(op));
    }

    GraphRewriter rw_;
    SharedCasts casts_{rw_, true};
};

}  // namespace

TaskGraph apply_promotion(const TaskGraph& g) { return PromotePass(g).run(); }

size_t count_promotions(const TaskGraph& g) {
    return size_t(std::count_if(g.ops.begin(), g.ops.end(), [](const OpNode& op) { return op.promotion; }));
}

}  // namespace dsl
