// Element-wise operators. A constant of one element becomes the number
// form of the language's operations (add(x, 0.5)); integer operands that
// are shapes (Shape's output and its arithmetic) are folded at import.
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>

#include "dsl/import/onnx_names.h"
#include "dsl/import/onnx_ops.h"

namespace dsl::onnx_ops {

namespace {

using Kind = OnnxValue::Kind;

// NumPy's broadcast of two dims lists (-1: known when the program runs).
std::vector<int64_t> broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    const size_t r = std::max(a.size(), b.size());
    std::vector<int64_t> out(r);
    for (size_t i = 0; i < r; ++i) {
        const int64_t x = i < r - a.size() ? 1 : a[i - (r - a.size())];
        const int64_t y = i < r - b.size() ? 1 : b[i - (r - b.size())];
        out[i] = x == 1 ? y : y == 1 ? x : x == y ? x : -1;
    }
    return out;
}

arch::DType promoted(arch::DType a, arch::DType b) { return arch::dtype_bytes(b) > arch::dtype_bytes(a) ? b : a; }

bool is_shape_like(const OnnxValue& v) {
    return v.kind == Kind::Shape || (v.kind == Kind::Const && v.c().is_integer());
}

// Integer arithmetic on shapes, folded where both sides are numbers.
// ONNX's integer Div truncates and Python's // floors: they agree on the
// non-negative sizes shapes hold.
void fold_shapes(OnnxTranslator& t, const onnx::NodeProto& n, const std::string& op) {
    const std::vector<std::string> a = t.int_exprs(n, 0, "operand"), b = t.int_exprs(n, 1, "operand");
    if (a.size() != b.size() && a.size() != 1 && b.size() != 1)
        t.fail(n, "shape operands of " + std::to_string(a.size()) + " and " + std::to_string(b.size()) +
                      " elements do not broadcast");
    const std::string py = op == "add" ? "+" : op == "sub" ? "-" : op == "mul" ? "*" : op == "div" ? "//" : "";
    if (py.empty()) t.fail(n, "integer " + op + " of shapes is not folded (only +, -, * and /)");
    OnnxValue v;
    v.kind = Kind::Shape;
    // A constant is a scalar when it has no dims (its `scalar` is a Shape's).
    const auto scalar = [](const OnnxValue& o) { return o.kind == Kind::Shape ? o.scalar : o.c().dims.empty(); };
    v.scalar = scalar(t.input(n, 0)) && scalar(t.input(n, 1));
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        const std::string& x = a[a.size() == 1 ? 0 : i];
        const std::string& y = b[b.size() == 1 ? 0 : i];
        int64_t p, q, r = 0;
        if (OnnxTranslator::known_int(x, p) && OnnxTranslator::known_int(y, q)) {
            if (py == "//" && q == 0) t.fail(n, "division by zero in shape arithmetic");
            const bool overflow = py == "+"   ? __builtin_add_overflow(p, q, &r)
                                  : py == "-" ? __builtin_sub_overflow(p, q, &r)
                                  : py == "*" ? __builtin_mul_overflow(p, q, &r)
                                              : (p == INT64_MIN && q == -1) || ((r = p / q), false);
            if (overflow) t.fail(n, "shape arithmetic overflows 64-bit integers: " + x + " " + py + " " + y);
            v.exprs.push_back(std::to_string(r));
        } else v.exprs.push_back("(" + x + " " + py + " " + y + ")");
    }
    t.set_value(n, v);
}

bool single_float(const OnnxValue& v, double& x) {
    if (v.kind != Kind::Const || !v.c().is_float() || v.c().count() != 1) return false;
    x = v.c().values[0];
    return true;
}

}  // namespace

void unary(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {});
    std::string op = n.op_type();
    for (char& ch : op) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    const OnnxValue& x = t.tensor_input(n, 0);
    t.emit(n, "pypo.op." + op + "(" + x.var + ")", x.dims, x.dtype);
}

void neg(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {});
    const OnnxValue& x = t.tensor_input(n, 0);
    t.emit(n, "pypo.op.sub(0.0, " + x.var + ")", x.dims, x.dtype);
}

void clip(OnnxTranslator& t, const onnx::NodeProto& n) {
    // min and max are attributes up to opset 10 and inputs from opset 11.
    if (t.opset() >= 11 && (t.has_attr(n, "min") || t.has_attr(n, "max")))
        t.fail(n, "attributes min and max are Clip's up to opset 10; at opset " + std::to_string(t.opset()) +
                      " the bounds are inputs 1 and 2");
    t.only_attrs(n, {"min", "max"});
    bool has_lo = false, has_hi = false;
    double lo = 0, hi = 0;
    if (t.opset() < 11) {
        has_lo = t.has_attr(n, "min"), has_hi = t.has_attr(n, "max");
        lo = t.attr_float(n, "min", 0), hi = t.attr_float(n, "max", 0);
    } else {
        for (int i : {1, 2}) {
            if (!t.has_input(n, i)) continue;
            const ConstTensor& c = t.const_input(n, i, i == 1 ? "the minimum" : "the maximum");
            if (c.count() != 1) t.fail(n, "its bounds must be single numbers");
            (i == 1 ? lo : hi) = c.values[0];
            (i == 1 ? has_lo : has_hi) = true;
        }
    }
    const OnnxValue& x = t.tensor_input(n, 0);
    // An infinite bound on its own side bounds nothing (ONNX's default).
    if (has_lo && std::isinf(lo) && lo < 0) has_lo = false;
    if (has_hi && std::isinf(hi) && hi > 0) has_hi = false;
    const std::string l = has_lo ? t.finite_number(n, lo, "the minimum") : "",
                      h = has_hi ? t.finite_number(n, hi, "the maximum") : "";
    if (has_lo && has_hi) t.emit(n, "pypo.op.clip(" + x.var + ", " + l + ", " + h + ")", x.dims, x.dtype);
    else if (has_lo) t.emit(n, "pypo.op.maximum(" + x.var + ", " + l + ")", x.dims, x.dtype);
    else if (has_hi) t.emit(n, "pypo.op.minimum(" + x.var + ", " + h + ")", x.dims, x.dtype);
    else t.set_value(n, x);
}

void binary(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {});
    const std::string op = n.op_type() == "Add"   ? "add"
                           : n.op_type() == "Sub" ? "sub"
                           : n.op_type() == "Mul" ? "mul"
                           : n.op_type() == "Div" ? "div"
                           : n.op_type() == "Max" ? "maximum"
                                                  : "minimum";
    // Max and Min take any number of inputs (opset 8 on): one is itself,
    // more than two a chain of the language's two-input operation.
    if ((op == "maximum" || op == "minimum") && n.input_size() != 2) {
        if (n.input_size() < 1) t.fail(n, "takes at least one input");
        std::string call = t.tensor_input(n, 0).var;
        std::vector<int64_t> dims = t.input(n, 0).dims;
        arch::DType dtype = t.input(n, 0).dtype;
        for (int i = 1; i < n.input_size(); ++i) {
            const OnnxValue& v = t.tensor_input(n, i);
            call = "pypo.op." + op + "(" + call + ", " + v.var + ")";
            dims = broadcast(dims, v.dims), dtype = promoted(dtype, v.dtype);
        }
        if (n.input_size() == 1) return t.set_value(n, t.input(n, 0));
        return void(t.emit(n, call, dims, dtype));
    }
    if (n.input_size() != 2) t.fail(n, "takes 2 inputs, got " + std::to_string(n.input_size()));
    const OnnxValue &a0 = t.input(n, 0), &b0 = t.input(n, 1);
    if (is_shape_like(a0) && is_shape_like(b0) && (a0.kind == Kind::Shape || b0.kind == Kind::Shape))
        return fold_shapes(t, n, op);
    if (a0.kind == Kind::Shape || b0.kind == Kind::Shape) t.fail(n, "mixes a shape computed at import with a tensor");
    // A one-element float constant against a tensor of at least its rank:
    // the operation's number form, which keeps the tensor's shape.
    double x = 0;
    if (single_float(b0, x) && a0.kind == Kind::Tensor && b0.c().dims.size() <= a0.dims.size())
        return void(t.emit(n,
                           "pypo.op." + op + "(" + a0.var + ", " + t.finite_number(n, x, "the constant operand") + ")",
                           a0.dims, a0.dtype));
    if (single_float(a0, x) && b0.kind == Kind::Tensor && a0.c().dims.size() <= b0.dims.size())
        return void(t.emit(n,
                           "pypo.op." + op + "(" + t.finite_number(n, x, "the constant operand") + ", " + b0.var + ")",
                           b0.dims, b0.dtype));
    const std::string av = t.tensor_input(n, 0).var;
    const OnnxValue& b = t.tensor_input(n, 1);
    const OnnxValue& a = t.input(n, 0);
    t.emit(n, "pypo.op." + op + "(" + av + ", " + b.var + ")", broadcast(a.dims, b.dims), promoted(a.dtype, b.dtype));
}

void pow(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {});
    const ConstTensor& e = t.const_input(n, 1, "the exponent");
    if (e.count() != 1) t.fail(n, "the exponent must be a single number");
    const double p = e.values[0];
    const OnnxValue& x = t.tensor_input(n, 0);
    if (p == 1) t.set_value(n, x);
    else if (p == 2) t.emit(n, "pypo.op.mul(" + x.var + ", " + x.var + ")", x.dims, x.dtype);
    else if (p == 0.5) t.emit(n, "pypo.op.sqrt(" + x.var + ")", x.dims, x.dtype);
    else
        t.fail(n, "exponent " + OnnxTranslator::number(p) +
                      ": the language has no power operation (exponents 0.5, 1 and 2 are mapped: sqrt, the "
                      "tensor, a multiply)");
}

std::vector<int64_t> broadcast_dims(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    return broadcast(a, b);
}

}  // namespace dsl::onnx_ops
