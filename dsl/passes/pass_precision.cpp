#include "dsl/passes/pass_precision.h"

#include <map>
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
    // `t` in dtype `d`: itself, or the output of a (shared) cast.
    int cast_of(int t, arch::DType d, const OpNode& consumer) {
        if (rw_.tensor(t).dtype == d) return t;
        auto key = std::make_pair(t, d);
        auto it = casts_.find(key);
        if (it != casts_.end()) return it->second;
        TensorNode out = rw_.tensor(t);
        out.name = rw_.fresh_name("cast");
        out.dtype = d;
        out.role = TensorRole::Intermediate;
        out.placement = Placement::DDR;
        out.task = consumer.task;
        out.loc = consumer.loc;
        int c = rw_.add_tensor(out);
        rw_.emit(cast_op(t, c, d, consumer));
        casts_[key] = c;
        return c;
    }

    static OpNode cast_op(int in, int out, arch::DType d, const OpNode& at) {
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
        for (int& in : op.inputs) in = cast_of(in, *d, op);
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
    std::map<std::pair<int, arch::DType>, int> casts_;
};

}  // namespace

TaskGraph apply_precision(const TaskGraph& g) { return PrecisionPass(g).run(); }

}  // namespace dsl
