// The operators of the cube and the normalisations: Conv, Gemm, MatMul,
// BatchNormalization, LayerNormalization, Softmax. Constant parameters
// that a deployment folds before it runs (a BatchNormalization's
// statistics, Gemm's transposed B and its beta) are folded here, into
// weights named after the model's with a suffix that says so.
#include <cmath>

#include "dsl/import/onnx_names.h"
#include "dsl/import/onnx_ops.h"

namespace dsl::onnx_ops {

namespace {

using Kind = OnnxValue::Kind;

std::vector<int64_t> pair_attr(OnnxTranslator& t, const onnx::NodeProto& n, const char* name) {
    const std::vector<int64_t> v = t.attr_sizes(n, name, {1, 1});
    if (v.size() != 2)
        t.fail(n, std::string(name) + " must have 2 values for a 2-D window, got " + std::to_string(v.size()));
    for (int64_t x : v)
        if (x < 1) t.fail(n, std::string(name) + " must be positive, got " + OnnxTranslator::tuple(v));
    return v;
}

// A rank-4 (N, C, H, W) tensor input.
const OnnxValue& image(OnnxTranslator& t, const onnx::NodeProto& n) {
    const OnnxValue& x = t.tensor_input(n, 0);
    if (x.dims.size() != 4)
        t.fail(n, "its input has rank " + std::to_string(x.dims.size()) +
                      "; only 2-D images (N, C, H, W) are mapped (the language's conv2d and pooling)");
    return x;
}

ConstTensor transposed(const ConstTensor& c) {
    ConstTensor out = c;
    const int64_t r = c.dims[0], k = c.dims[1];
    out.dims = {k, r};
    for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < k; ++j) out.values[size_t(j * r + i)] = c.values[size_t(i * k + j)];
    return out;
}

arch::DType const_dtype(const ConstTensor& c) {
    arch::DType d;
    return onnx_dtype(c.elem_type, d) ? d : arch::DType::Float32;
}

}  // namespace

void conv(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"});
    const OnnxValue& x = image(t, n);
    const OnnxValue& w = t.tensor_input(n, 1);
    if (w.dims.size() != 4 || w.dims[2] < 0 || w.dims[3] < 0)
        t.fail(n, "its weight must be 4-D (O, C/group, kh, kw) with known sizes");
    const std::vector<int64_t> kernel = t.attr_sizes(n, "kernel_shape", {w.dims[2], w.dims[3]});
    if (kernel != std::vector<int64_t>{w.dims[2], w.dims[3]})
        t.fail(n, "kernel_shape " + OnnxTranslator::tuple(kernel) + " disagrees with the weight's " +
                      OnnxTranslator::tuple(std::vector<int64_t>{w.dims[2], w.dims[3]}));
    const std::vector<int64_t> strides = pair_attr(t, n, "strides"), dil = pair_attr(t, n, "dilations");
    const std::vector<int64_t> pads = window_pads(t, n, x, kernel, strides, dil);
    const int64_t group = t.attr_int(n, "group", 1);
    if (group < 1) t.fail(n, "group must be positive, got " + std::to_string(group));
    std::string call = "pypo.op.conv2d(" + x.var + ", " + w.var;
    if (strides != std::vector<int64_t>{1, 1}) call += ", stride=" + OnnxTranslator::tuple(strides);
    if (pads != std::vector<int64_t>{0, 0}) call += ", padding=" + OnnxTranslator::tuple(pads);
    if (dil != std::vector<int64_t>{1, 1}) call += ", dilation=" + OnnxTranslator::tuple(dil);
    if (group != 1) call += ", groups=" + std::to_string(group);
    if (t.has_input(n, 2)) call += ", bias=" + t.tensor_input(n, 2).var;
    std::vector<int64_t> dims = {x.dims[0], w.dims[0], -1, -1};
    for (size_t a = 0; a < 2; ++a)
        if (x.dims[2 + a] >= 0)
            dims[2 + a] = (x.dims[2 + a] + 2 * pads[a] - (kernel[a] - 1) * dil[a] - 1) / strides[a] + 1;
    t.emit(n, call + ")", dims, t.input(n, 0).dtype);
}

void matmul(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {});
    const std::string a = t.tensor_input(n, 0).var;
    const OnnxValue& b = t.tensor_input(n, 1);
    const OnnxValue& av = t.input(n, 0);
    if (av.dims.size() < 2 || b.dims.size() < 2)
        t.fail(n, "1-D operands are not mapped: the language's matmul multiplies matrices (at least 2-D)");
    // NumPy's matmul: the batch dims (all but the last two) broadcast.
    std::vector<int64_t> dims = broadcast_dims(std::vector<int64_t>(av.dims.begin(), av.dims.end() - 2),
                                               std::vector<int64_t>(b.dims.begin(), b.dims.end() - 2));
    dims.push_back(av.dims[av.dims.size() - 2]);
    dims.push_back(b.dims.back());
    t.emit(n, "pypo.op.matmul(" + a + ", " + b.var + ")", dims,
           arch::dtype_bytes(b.dtype) > arch::dtype_bytes(av.dtype) ? b.dtype : av.dtype);
}

void gemm(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"alpha", "beta", "transA", "transB"});
    const double alpha = t.attr_float(n, "alpha", 1), beta = t.attr_float(n, "beta", 1);
    const bool trans_a = t.attr_int(n, "transA", 0), trans_b = t.attr_int(n, "transB", 0);
    const OnnxValue& a = t.tensor_input(n, 0);
    if (a.dims.size() != 2) t.fail(n, "A must be 2-D, got rank " + std::to_string(a.dims.size()));
    std::string lhs = trans_a ? "pypo.op.transpose(" + a.var + ", (1, 0))" : a.var;
    const int64_t M = trans_a ? a.dims[1] : a.dims[0];
    // A constant B given transposed (PyTorch's Linear) is stored the way
    // the matmul reads it, as a deployment lays out its weights.
    const OnnxValue& b0 = t.input(n, 1);
    std::string rhs;
    int64_t N;
    arch::DType dtype = a.dtype;
    if (b0.kind == Kind::Const && trans_b) {
        if (b0.c().dims.size() != 2) t.fail(n, "B must be 2-D, got rank " + std::to_string(b0.c().dims.size()));
        rhs = t.add_weight(b0.name + ".T", transposed(b0.c()), const_dtype(b0.c()), b0.const_values.get());
        N = b0.c().dims[0];
        dtype = arch::dtype_bytes(const_dtype(b0.c())) > arch::dtype_bytes(dtype) ? const_dtype(b0.c()) : dtype;
    } else {
        const OnnxValue& b = t.tensor_input(n, 1);
        if (b.dims.size() != 2) t.fail(n, "B must be 2-D, got rank " + std::to_string(b.dims.size()));
        rhs = trans_b ? "pypo.op.transpose(" + b.var + ", (1, 0))" : b.var;
        N = trans_b ? b.dims[0] : b.dims[1];
        dtype = arch::dtype_bytes(b.dtype) > arch::dtype_bytes(dtype) ? b.dtype : dtype;
    }
    std::string call = "pypo.op.matmul(" + lhs + ", " + rhs + ")";
    if (alpha != 1) call = "pypo.op.mul(" + call + ", " + t.finite_number(n, alpha, "alpha") + ")";
    if (t.has_input(n, 2) && beta != 0) {
        const OnnxValue& c0 = t.input(n, 2);
        std::string c;
        if (c0.kind == Kind::Const && beta != 1) {
            ConstTensor scaled = c0.c();
            for (double& v : scaled.values) v *= beta;
            c = t.add_folded_weight(c0.name + ".scaled", scaled, const_dtype(c0.c()));
        } else {
            c = t.tensor_input(n, 2).var;
            if (beta != 1) c = "pypo.op.mul(" + c + ", " + t.finite_number(n, beta, "beta") + ")";
        }
        call = "pypo.op.add(" + call + ", " + c + ")";
    }
    t.emit(n, call, {M, N}, dtype);
}

namespace {

// A BatchNormalization whose parameters are not all constants (graph
// inputs, or computed): the fold of batch_norm() below, computed by the
// program, s = scale / sqrt(var + eps) and shift = B - mean * s, each
// operation on the (C,) tensors in their dtype.
void batch_norm_computed(OnnxTranslator& t, const onnx::NodeProto& n, double eps) {
    const OnnxValue& x = t.tensor_input(n, 0);
    if (x.dims.size() < 2) t.fail(n, "its input needs a channel axis (rank 2 or more)");
    std::string p[4];
    int64_t C = -1;
    for (int i = 1; i <= 4; ++i) {
        const OnnxValue& v = t.tensor_input(n, i);
        if (v.dims.size() != 1 || (C >= 0 && v.dims[0] >= 0 && v.dims[0] != C))
            t.fail(n, "scale, B, mean and var must be 1-D of one length");
        if (v.dims[0] >= 0) C = v.dims[0];
        p[i - 1] = v.var;
    }
    if (C >= 0 && x.dims[1] >= 0 && x.dims[1] != C)
        t.fail(n,
               "scale has " + std::to_string(C) + " values, the input " + OnnxTranslator::dim_text(x, 1) + " channels");
    const std::string s = t.emit_temp(n, n.output(0) + ".scale",
                                      "pypo.op.div(" + p[0] + ", pypo.op.sqrt(pypo.op.add(" + p[3] + ", " +
                                          t.finite_number(n, eps, "epsilon") + ")))",
                                      ": s = scale / sqrt(var + epsilon), the statistics given when the program runs");
    const std::string shift = t.emit_temp(
        n, n.output(0) + ".shift", "pypo.op.sub(" + p[1] + ", pypo.op.mul(" + p[2] + ", " + s + "))", ": B - mean * s");
    const OnnxValue& xv = t.input(n, 0);
    t.emit(n, "pypo.op.batch_norm(" + xv.var + ", " + s + ", " + shift + ")", xv.dims, xv.dtype);
}

}  // namespace

void batch_norm(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"epsilon", "momentum", "training_mode", "spatial"});
    if (t.attr_int(n, "training_mode", 0) != 0 || (n.output_size() > 1 && !n.output(1).empty()))
        t.fail(n, "training mode (running statistics as outputs) is not mapped: only inference");
    const double eps = t.attr_float(n, "epsilon", 1e-5);
    for (int i = 1; i <= 4; ++i)
        if (t.input(n, i).kind != Kind::Const) return batch_norm_computed(t, n, eps);
    const ConstTensor& scale = t.const_input(n, 1, "scale");
    const ConstTensor& bias = t.const_input(n, 2, "B");
    const ConstTensor& mean = t.const_input(n, 3, "mean");
    const ConstTensor& var = t.const_input(n, 4, "var");
    const OnnxValue& x = t.tensor_input(n, 0);
    if (x.dims.size() < 2) t.fail(n, "its input needs a channel axis (rank 2 or more)");
    const int64_t C = scale.count();
    for (const ConstTensor* p : {&bias, &mean, &var})
        if (p->count() != C || p->dims.size() != 1) t.fail(n, "scale, B, mean and var must be 1-D of one length");
    if (scale.dims.size() != 1 || (x.dims[1] >= 0 && x.dims[1] != C))
        t.fail(n,
               "scale has " + std::to_string(C) + " values, the input " + OnnxTranslator::dim_text(x, 1) + " channels");
    // Inference: y = (x - mean) / sqrt(var + eps) * scale + B = x * s + (B - mean * s).
    ConstTensor s = scale, shift = bias;
    for (size_t c = 0; c < size_t(C); ++c) {
        s.values[c] = scale.values[c] / std::sqrt(var.values[c] + eps);
        shift.values[c] = bias.values[c] - mean.values[c] * s.values[c];
    }
    const std::string sv = t.add_folded_weight(t.input(n, 1).name + ".folded", s, const_dtype(scale));
    const std::string bv = t.add_folded_weight(t.input(n, 2).name + ".folded", shift, const_dtype(bias));
    t.emit(n, "pypo.op.batch_norm(" + x.var + ", " + sv + ", " + bv + ")", x.dims, x.dtype);
}

void layer_norm(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"axis", "epsilon", "stash_type"});
    for (int o = 1; o < n.output_size(); ++o)
        if (!n.output(o).empty()) t.fail(n, "its Mean and InvStdDev outputs are not mapped");
    const OnnxValue& x = t.tensor_input(n, 0);
    const int64_t axis = t.axis(n, t.attr_int(n, "axis", -1), x.dims.size(), "axis");
    const double eps = t.attr_float(n, "epsilon", 1e-5);
    const std::string scale = t.tensor_input(n, 1).var;
    std::string shift;
    if (t.has_input(n, 2)) shift = t.tensor_input(n, 2).var;
    else {
        // The language takes both parameters or neither: no B is a B of zeros.
        const OnnxValue& s = t.input(n, 1);
        ConstTensor zeros;
        zeros.dims = s.dims;
        zeros.elem_type = onnx::TensorProto::FLOAT;
        int64_t count = 1;
        for (int64_t d : s.dims) {
            if (d < 0) t.fail(n, "without B, Scale's size must be known at import (B is made of zeros that size)");
            if (__builtin_mul_overflow(count, d, &count) || count > kMaxTensorElements)
                t.fail(n, "without B, Scale must have at most " + std::to_string(kMaxTensorElements) +
                              " elements (B is made of zeros that size)");
        }
        zeros.values.assign(size_t(count), 0.0);
        shift = t.add_weight(n.output(0) + ".zero_shift", zeros, s.dtype);
    }
    const OnnxValue& xv = t.input(n, 0);
    t.emit(n,
           "pypo.op.layer_norm(" + xv.var + ", " + scale + ", " + shift + ", axis=" + std::to_string(axis) +
               ", eps=" + t.finite_number(n, eps, "epsilon") + ")",
           xv.dims, xv.dtype);
}

void softmax(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"axis"});
    const OnnxValue& x = t.tensor_input(n, 0);
    const size_t rank = x.dims.size();
    const int64_t axis = t.axis(n, t.attr_int(n, "axis", t.opset() >= 13 ? -1 : 1), rank, "axis");
    // Before opset 13 Softmax flattened the input to 2-D at `axis`: the
    // same as the language's only when that leaves one axis to normalise.
    if (t.opset() < 13 && axis != int64_t(rank) - 1)
        t.fail(n, "opset " + std::to_string(t.opset()) + " Softmax over axes " + std::to_string(axis) +
                      " and after (flattened) is not mapped; only the last axis");
    t.emit(n, "pypo.op.softmax(" + x.var + ", axis=" + std::to_string(axis) + ")", x.dims, x.dtype);
}

}  // namespace dsl::onnx_ops
