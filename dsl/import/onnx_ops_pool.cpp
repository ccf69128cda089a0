// Pooling and reductions: MaxPool, AveragePool, GlobalAveragePool,
// GlobalMaxPool, ReduceMean, ReduceSum, ReduceMax.
#include <algorithm>
#include <set>

#include "dsl/import/onnx_names.h"
#include "dsl/import/onnx_ops.h"

namespace dsl::onnx_ops {

namespace {

int64_t pool_out(int64_t in, int64_t pad, int64_t k, int64_t s, bool ceil) {
    const int64_t span = in + 2 * pad - k;
    return (ceil ? (span + s - 1) / s : span / s) + 1;
}

}  // namespace

void pool(OnnxTranslator& t, const onnx::NodeProto& n) {
    const bool max = n.op_type() == "MaxPool";
    t.only_attrs(n, {"auto_pad", "ceil_mode", "count_include_pad", "dilations", "kernel_shape", "pads", "storage_order",
                     "strides"});
    if (max && n.output_size() > 1 && !n.output(1).empty()) t.fail(n, "its Indices output is not mapped");
    const OnnxValue& x = t.tensor_input(n, 0);
    if (x.dims.size() != 4)
        t.fail(n, "its input has rank " + std::to_string(x.dims.size()) +
                      "; only 2-D images (N, C, H, W) are mapped (the language's pooling)");
    if (!t.has_attr(n, "kernel_shape")) t.fail(n, "kernel_shape is required");
    const std::vector<int64_t> k = t.attr_sizes(n, "kernel_shape", {});
    const std::vector<int64_t> s = t.attr_sizes(n, "strides", {1, 1});
    const std::vector<int64_t> d = t.attr_sizes(n, "dilations", {1, 1});
    if (k.size() != 2 || s.size() != 2 || k[0] < 1 || k[1] < 1 || s[0] < 1 || s[1] < 1)
        t.fail(n, "kernel_shape and strides must be two positive values each");
    if (d != std::vector<int64_t>{1, 1}) t.fail(n, "dilated pooling is not in the language");
    if (t.attr_int(n, "storage_order", 0) != 0) t.fail(n, "storage_order 1 (column-major indices) is not mapped");
    const std::vector<int64_t> pads = window_pads(t, n, x, k, s, d);
    const bool padded = pads[0] || pads[1];
    // The language's average counts the padding as zeros (ONNX's count_include_pad=1).
    if (!max && padded && t.attr_int(n, "count_include_pad", 0) == 0)
        t.fail(n, "count_include_pad=0 with padding is not in the language: its avg_pool counts the padding");
    // ceil_mode differs from the language's rounding='ceil' only where a
    // window would start in the padding or past the input; accepted where
    // the two round alike, i.e. where floor and ceil give the same size.
    const bool ceil_mode = t.attr_int(n, "ceil_mode", 0) != 0;
    std::vector<int64_t> dims = {x.dims[0], x.dims[1], -1, -1};
    for (size_t a = 0; a < 2; ++a) {
        const int64_t in = x.dims[2 + a];
        if (in < 0) {
            if (ceil_mode) t.fail(n, "ceil_mode=1 needs the input's size, which the model leaves open");
            continue;
        }
        dims[2 + a] = pool_out(in, pads[a], k[a], s[a], false);
        if (ceil_mode && pool_out(in, pads[a], k[a], s[a], true) != dims[2 + a])
            t.fail(n, "ceil_mode=1 adds a window here, which the language does not round alike");
    }
    std::string call = std::string("pypo.op.") + (max ? "max_pool(" : "avg_pool(") + x.var +
                       ", window=" + OnnxTranslator::tuple(k) + ", stride=" + OnnxTranslator::tuple(s);
    if (padded) call += ", padding=" + OnnxTranslator::tuple(pads);
    t.emit(n, call + ")", dims, x.dtype);
}

void global_pool(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {});
    const OnnxValue& x = t.tensor_input(n, 0);
    if (x.dims.size() != 4) t.fail(n, "only 2-D images (N, C, H, W) are mapped");
    const std::vector<int64_t> dims = {x.dims[0], x.dims[1], 1, 1};
    if (n.op_type() == "GlobalAveragePool") t.emit(n, "pypo.op.global_avg_pool(" + x.var + ")", dims, x.dtype);
    else t.emit(n, "pypo.op.reduce_max(" + x.var + ", axis=(2, 3), keepdims=True)", dims, x.dtype);
}

void reduce(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"axes", "keepdims", "noop_with_empty_axes"});
    const OnnxValue& x = t.tensor_input(n, 0);
    const bool keep = t.attr_int(n, "keepdims", 1) != 0;
    // ReduceSum takes its axes as an input from opset 13, the others from 18.
    std::vector<int64_t> axes;
    if (t.has_input(n, 1)) axes = t.known_ints(n, 1, "axes");
    else axes = t.attr_ints(n, "axes", {});
    if (axes.empty()) {
        if (t.attr_int(n, "noop_with_empty_axes", 0)) return t.set_value(n, x);
        for (size_t a = 0; a < x.dims.size(); ++a) axes.push_back(int64_t(a));
    }
    std::set<int64_t> chosen;
    for (int64_t a : axes)
        if (!chosen.insert(t.axis(n, a, x.dims.size(), "axis")).second) t.fail(n, "an axis is given twice");
    std::vector<int64_t> dims;
    for (size_t a = 0; a < x.dims.size(); ++a)
        if (!chosen.count(int64_t(a))) dims.push_back(x.dims[a]);
        else if (keep) dims.push_back(1);
    if (dims.empty())
        t.fail(n, "reducing every axis without keepdims gives a scalar, which the language does not have");
    std::string op = n.op_type() == "ReduceMean"  ? "reduce_mean"
                     : n.op_type() == "ReduceSum" ? "reduce_sum"
                                                  : "reduce_max";
    t.emit(n,
           "pypo.op." + op + "(" + x.var +
               ", axis=" + OnnxTranslator::tuple(std::vector<int64_t>(chosen.begin(), chosen.end())) +
               (keep ? ", keepdims=True)" : ")"),
           dims, x.dtype);
}

}  // namespace dsl::onnx_ops
