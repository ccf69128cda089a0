// Normalisations (batch_norm, layer_norm, rms_norm) and softmax: vector-unit
// operations that keep their input's shape but read along an axis.
//
// The documents write `batch_norm(conv1)` with no parameters: the scale and
// shift are then the model's own parameters (per channel; the running mean
// and variance folded in), which the program does not declare. They become
// weight tensors "<output>.scale" and "<output>.shift", so the lowering
// loads them like any other weight.
#include "dsl/ops/op_rules.h"
#include "dsl/ops/ops_operands.h"
#include "dsl/sema/arg_checks.h"

namespace dsl {

namespace {

// The explicit scale and shift tensors, which must both be given (or
// neither) and have `shape`; appends them to `inputs`. Returns false when
// neither is given.
bool norm_params(const OpCall& c, const Operand& x, const std::vector<int64_t>& shape, const std::string& what,
                 std::vector<int>& inputs) {
    const Arg* scale = c.get("scale");
    const Arg* shift = c.get("shift");
    if (!scale && !shift) return false;
    if (!scale || !shift) c.fail("give both scale and shift, or neither");
    for (const char* param : {"scale", "shift"}) {
        Operand p = c.tensor(param, param);
        if (p.shape != shape)
            c.fail_at(p.loc, std::string(param) + " must have shape " + shape_text(shape) + ", " + what + ": " +
                                 p.text() + ", " + x.text());
        inputs.push_back(p.tensor);
    }
    return true;
}

// Records the operation, then its implicit parameters if it has them.
Value record_norm(PypoLibrary& lib, const OpCall& c, const Operand& x, std::vector<int> inputs,
                  std::map<std::string, Attr> attrs, bool explicit_params, const std::vector<int64_t>& param_shape) {
    Value out = c.record(std::move(inputs), x.shape, c.dtype_or(x.dtype), std::move(attrs), x.layout);
    if (!explicit_params)
        for (const char* suffix : {"scale", "shift"}) lib.add_parameter(out.tensor, suffix, param_shape, x.dtype);
    return out;
}

double eps_of(const OpCall& c) {
    const Arg* e = c.get("eps");
    return e ? positive_real_arg(c.op(), *e, "eps") : 1e-5;
}

}  // namespace

Value rule_batch_norm(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("batch_norm", {"x", "scale", "shift", "eps", "dtype", "layout"}, 1, {}, 3));
    Operand x = c.tensor("x", "x");
    if (x.rank() < 2) c.fail_at(x.loc, x.name + " must have a channel axis (N, C, ...), got " + x.described);
    size_t channel = x.rank() == 4 ? c.image_axes(x).c : 1;
    std::vector<int> inputs{x.tensor};
    std::map<std::string, Attr> attrs{{"eps", Attr::real(eps_of(c))}};
    std::vector<int64_t> per_channel{x.shape[channel]};
    bool given = norm_params(c, x, per_channel, "one value per channel", inputs);
    return record_norm(lib, c, x, std::move(inputs), std::move(attrs), given, per_channel);
}

// Normalises over `axis` and every axis after it (ONNX's definition); the
// scale and shift have the shape of those axes.
Value rule_layer_norm(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("layer_norm", {"x", "scale", "shift", "axis", "eps", "dtype", "layout"}, 1, {}, 3));
    Operand x = c.tensor("x", "x");
    size_t axis = x.rank() - 1;
    if (const Arg* a = c.get("axis")) axis = c.axis(int_arg(c.op(), *a, "axis", INT64_MIN), x, a->loc);
    std::vector<int> inputs{x.tensor};
    std::map<std::string, Attr> attrs{{"axis", Attr::integer(int64_t(axis))}, {"eps", Attr::real(eps_of(c))}};
    std::vector<int64_t> normalised(x.shape.begin() + std::ptrdiff_t(axis), x.shape.end());
    bool given = norm_params(c, x, normalised, "the shape of the normalised axes", inputs);
    return record_norm(lib, c, x, std::move(inputs), std::move(attrs), given, normalised);
}

// RMSNorm (Llama's): y = x / sqrt(mean(x^2 over the last axis) + eps) *
// weight, weight one value per element of the last axis; no mean is
// subtracted and there is no shift.
Value rule_rms_norm(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("rms_norm", {"x", "weight", "eps", "dtype", "layout"}, 2, {}, 2));
    Operand x = c.tensor("x", "x");
    Operand w = c.tensor("weight", "weight");
    const std::vector<int64_t> last{x.shape.back()};
    if (w.shape != last)
        c.fail_at(w.loc,
                  "weight must have shape " + shape_text(last) + ", the last axis of x: " + w.text() + ", " + x.text());
    const Arg* e = c.get("eps");
    const double eps = e ? positive_real_arg(c.op(), *e, "eps") : 1e-6;
    return c.record({x.tensor, w.tensor}, x.shape, c.dtype_or(x.dtype), {{"eps", Attr::real(eps)}}, x.layout);
}

Value rule_softmax(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("softmax", {"x", "axis", "dtype", "layout"}, 1, {}, 2));
    Operand x = c.tensor("x", "x");
    size_t axis = x.rank() - 1;
    if (const Arg* a = c.get("axis")) axis = c.axis(int_arg(c.op(), *a, "axis", INT64_MIN), x, a->loc);
    return c.record({x.tensor}, x.shape, c.dtype_or(x.dtype), {{"axis", Attr::integer(int64_t(axis))}}, x.layout);
}

}  // namespace dsl
