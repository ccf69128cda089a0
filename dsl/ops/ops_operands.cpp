#include "dsl/ops/ops_operands.h"

#include <algorithm>
#include <stdexcept>

#include "dsl/sema/arg_checks.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

std::string op_name(const CallSite& call) { return call.callee.substr(call.callee.rfind('.') + 1); }

std::string spelling(const Arg& arg, const std::string& role) {
    if (arg.expr && arg.expr->is<ast::Name>()) return arg.expr->as<ast::Name>().id;
    return role;
}

OpCall::OpCall(PypoLibrary& lib, const CallSite& call, Signature sig) : lib_(lib), call_(call), sig_(std::move(sig)) {
    if (!op_kind_from_name(sig_.name, kind_)) throw std::logic_error("OpCall: no operation kind '" + sig_.name + "'");
    // Every operation takes target= (keyword only, after its own
    // parameters): where its result is kept (record()).
    if (sig_.index_of("target") == Signature::kAll) sig_.params.push_back("target");
    args_ = bind_args(sig_, call_);
}

const Arg* OpCall::get(const std::string& param) const {
    size_t k = sig_.index_of(param);
    if (k == Signature::kAll) throw std::logic_error(op() + ": no parameter '" + param + "'");
    return args_[k] ? &*args_[k] : nullptr;
}

Operand OpCall::tensor(const std::string& param, const std::string& role) const {
    const Arg* a = get(param);
    if (!a) throw std::logic_error(op() + ": tensor parameter '" + param + "' is optional");
    return tensor_at(a->value, a->loc, spelling(*a, role));
}

namespace {

// The operations that take and make integer tensors: cast (into and out of
// them, rounding half to even and saturating), matmul (int8 x int8 ->
// int32 on the cube), quantize (makes int8) and dequantize (takes it; both
// check their own operands' dtypes, dsl/ops/ops_quantize.cpp), embedding
// (int32 ids, an int8 table) and argmax (makes int32 indices). Every other
// operation computes in a float dtype.
bool takes_integers(const std::string& op) {
    return op == "cast" || op == "matmul" || op == "quantize" || op == "dequantize" || op == "embedding" ||
           op == "argmax";
}

}  // namespace

Operand OpCall::tensor_at(const Value& v, const SourceLoc& loc, const std::string& name) const {
    if (!v.is(Value::Kind::Tensor)) fail_at(loc, name + " must be a tensor, got " + type_name(v));
    const TensorNode& t = lib_.graph().tensors[size_t(v.tensor)];
    if (arch::dtype_is_int(t.dtype) && !takes_integers(op()))
        fail_at(loc, name + " is " + arch::dtype_name(t.dtype) +
                         ": only cast, matmul, dequantize, embedding and argmax take integer tensors (cast it to a "
                         "float dtype first)");
    Operand o;
    o.tensor = v.tensor;
    o.shape = t.shape;
    o.dtype = t.dtype;
    o.layout = t.layout;
    o.name = name;
    o.described = lib_.describe_tensor(v.tensor);
    o.loc = loc;
    return o;
}

void OpCall::fail(const std::string& msg) const { fail_at(call_.loc, msg); }

void OpCall::fail_at(const SourceLoc& loc, const std::string& msg) const { throw CompileError(loc, op() + ": " + msg); }

arch::DType OpCall::dtype_or(arch::DType fallback) const {
    const Arg* a = get("dtype");
    if (!a) return fallback;
    const arch::DType t = dtype_arg(op(), *a);
    if (arch::dtype_is_int(t) && !takes_integers(op()))
        fail_at(a->loc,
                std::string("dtype ") + arch::dtype_name(t) + ": only cast, matmul and quantize make integer tensors");
    return t;
}

std::string OpCall::layout() const {
    const Arg* a = get("layout");
    return a && !a->value.is(Value::Kind::None) ? choice_arg(op(), *a, "layout", valid_layouts()) : "";
}

OpCall::ImageAxes OpCall::image_axes(const Operand& image) const {
    std::string given = layout();
    std::string l = given == "NCHW" || given == "NHWC" ? given : image.layout;
    if (l == "NHWC") return {3, 1, 2};
    return {};
}

void OpCall::require_image(const Operand& image) const {
    if (image.rank() == 4) return;
    std::string axes = image_axes(image).c == 3 ? "(N, H, W, C)" : "(N, C, H, W)";
    fail_at(image.loc, image.name + " must be a 4-D image " + axes + ", got " + image.described);
}

size_t OpCall::axis(int64_t axis, const Operand& x, const SourceLoc& loc) const {
    int64_t rank = int64_t(x.rank());
    if (axis < -rank || axis >= rank)
        fail_at(loc, "axis " + std::to_string(axis) + " is out of range for " + x.name + " " + x.described);
    return size_t(axis < 0 ? axis + rank : axis);
}

int64_t OpCall::mul(int64_t a, int64_t b) const {
    int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r)) fail("the result is too large");
    return r;
}

int64_t OpCall::add(int64_t a, int64_t b) const {
    int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r)) fail("the result is too large");
    return r;
}

int64_t OpCall::elements(const std::vector<int64_t>& shape) const {
    int64_t n = 1;
    for (int64_t d : shape) n = mul(n, d);
    return n;
}

Value OpCall::record(std::vector<int> inputs, std::vector<int64_t> shape, arch::DType dtype,
                     std::map<std::string, Attr> attrs, const std::string& inherited_layout) const {
    return record_as(kind_, std::move(inputs), std::move(shape), dtype, std::move(attrs), inherited_layout);
}

Value OpCall::record_as(OpKind kind, std::vector<int> inputs, std::vector<int64_t> shape, arch::DType dtype,
                        std::map<std::string, Attr> attrs, const std::string& inherited_layout) const {
    // Every dimension was computed without overflow; the bytes of the whole
    // (float32 at most) must be countable too, or sizes wrap further on.
    mul(elements(shape), 4);
    const Arg* a = get("layout");
    std::string given = a ? layout_arg(op(), *a, shape) : "";
    // Broadcasting can add axes; an image layout names exactly four.
    bool image = inherited_layout == "NCHW" || inherited_layout == "NHWC";
    std::string layout = !given.empty() ? given : image && shape.size() != 4 ? "" : inherited_layout;
    Placement placement = Placement::DDR;
    if (const Arg* t = get("target")) {
        const std::string where = choice_arg(op(), *t, "target", {"L0", "L1", "DDR"});
        placement = where == "L0" ? Placement::L0 : where == "L1" ? Placement::L1 : Placement::DDR;
    }
    int out = lib_.add_op(kind, std::move(inputs), std::move(shape), dtype, std::move(attrs), call_.loc);
    lib_.mutable_tensor(out).layout = layout;
    lib_.mutable_tensor(out).placement = placement;
    // The precision pass leaves an operation given dtype= alone.
    if (sig_.index_of("dtype") != Signature::kAll && get("dtype")) lib_.producer_of(out).explicit_dtype = true;
    return Value::tensor_ref(out);
}

void OpCall::promote_operands(const Value& out) const { lib_.producer_of(out.tensor).promotes_operands = true; }

std::optional<std::vector<int64_t>> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    size_t rank = std::max(a.size(), b.size());
    std::vector<int64_t> out(rank);
    for (size_t k = 0; k < rank; ++k) {
        // Counted from the last axis; a missing axis acts as size 1.
        int64_t x = k < a.size() ? a[a.size() - 1 - k] : 1;
        int64_t y = k < b.size() ? b[b.size() - 1 - k] : 1;
        if (x != y && x != 1 && y != 1) return std::nullopt;
        out[rank - 1 - k] = std::max(x, y);
    }
    return out;
}

std::vector<int64_t> padding_arg(const OpCall& c, const Arg& arg, const std::vector<int64_t>& window,
                                 const std::string& why) {
    if (!arg.value.is(Value::Kind::Str)) return int_pair_arg(c.op(), arg, "padding", 0);
    std::string mode = choice_arg(c.op(), arg, "padding", {"same", "valid"});
    if (mode == "valid") return {0, 0};
    if (window[0] % 2 == 0 || window[1] % 2 == 0) c.fail_at(arg.loc, "padding='same' needs an odd " + why);
    return {window[0] / 2, window[1] / 2};
}

int64_t window_positions(const OpCall& c, int64_t size, int64_t pad, int64_t window, int64_t stride) {
    int64_t span = c.add(size, c.mul(2, pad)) - window;
    return span < 0 ? 0 : span / stride + 1;
}

}  // namespace dsl
