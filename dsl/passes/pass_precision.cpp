#include "dsl/passes/pass_precision.h"

#include <optional>
#include <utility>

#include "dsl/passes/pass_rewrite.h"

namespace dsl {

namespace {

// The dtype `op` computes in under its precision mode; none when the pass
// leaves it alone.
std::optional<arch::DType> compute_dtype(const OpNode& op) {
    // Casts and data movement keep their dtype (the table's precision column).
    const OpPrecision cls = op_kind_precision(op.kind);
    if (op.precision.empty() || op.explicit_dtype || cls == OpPrecision::Keeps || cls == OpPrecision::Follows)
        return {};
    if (op.precision == "float16") return arch::DType::Float16;
    if (op.precision == "float32") return arch::DType::Float32;
    if (op.precision == "mixed") return cls == OpPrecision::Wide ? arch::DType::Float32 : arch::DType::Float16;
    return {};
}

class PrecisionPass {
public:
    explicit PrecisionPass(const TaskGraph& g) : rw_(g) {}

    TaskGraph run() {
        return rw_.rewrite_each([this](const OpNode& op) { rewrite(op); });
    }

private:
    void rewrite(OpNode op) {
        std::optional<arch::DType> d = compute_dtype(op);
        // Outside a precision scope, concat's parts promote to its output's
        // dtype instead (dsl/passes/pass_promote.h).
        const bool promotes = op.promotes_operands && op.precision.empty();
        if (!d && op_kind_precision(op.kind) == OpPrecision::Follows && !op.inputs.empty() && !promotes)
            d = rw_.tensor(op.inputs[0]).dtype;
        if (!d) {
            rw_.emit(std::move(op));
            return;
        }
        for (int& in : op.inputs) in = casts_.of(in, *d, op);
        const int declared = op.output;
        TensorNode& y = rw_.tensor(declared);
        if (y.dtype == *d) {
            rw_.emit(std::move(op));
            return;
        }
        if (y.role != TensorRole::Output) {
            y.dtype = *d;
            rw_.emit(std::move(op));
            return;
        }
        // A program output keeps its declared dtype: compute into a new
        // intermediate, then cast.
        TensorNode mid = y;
        mid.name = rw_.fresh_name(op_kind_name(op.kind));
        mid.dtype = *d;
        mid.role = TensorRole::Intermediate;
        const arch::DType out_dtype = y.dtype;
        int m = rw_.add_tensor(mid);
        op.output = m;
        OpNode last = cast_op(m, declared, out_dtype, op);
        rw_.emit(std::move(op));
        rw_.emit(std::move(last));
    }

    GraphRewriter rw_;
    SharedCasts casts_{rw_, false};
};

}  // namespace

TaskGraph apply_precision(const TaskGraph& g) { return PrecisionPass(g).run(); }

}  // namespace dsl
