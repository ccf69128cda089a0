// The translation of each supported ONNX operator, by family; the table
// that names them is onnx_op_table.cpp.
#pragma once

#include "dsl/import/onnx_translator.h"

namespace dsl::onnx_ops {

// onnx_ops_elementwise.cpp
void unary(OnnxTranslator& t, const onnx::NodeProto& n);  // Relu, Sigmoid, Tanh, Exp, Sqrt
void neg(OnnxTranslator& t, const onnx::NodeProto& n);
void clip(OnnxTranslator& t, const onnx::NodeProto& n);
void binary(OnnxTranslator& t, const onnx::NodeProto& n);  // Add, Sub, Mul, Div, Max, Min
void pow(OnnxTranslator& t, const onnx::NodeProto& n);
// NumPy's broadcast of two dims lists (-1: known when the program runs).
std::vector<int64_t> broadcast_dims(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// onnx_window.cpp: (ph, pw), the padding of a 2-D window on both sides of
// each axis, from `auto_pad` and `pads` of `n` over image `x`.
std::vector<int64_t> window_pads(OnnxTranslator& t, const onnx::NodeProto& n, const OnnxValue& x,
                                 const std::vector<int64_t>& kernel, const std::vector<int64_t>& strides,
                                 const std::vector<int64_t>& dilations);

// onnx_ops_nn.cpp
void conv(OnnxTranslator& t, const onnx::NodeProto& n);
void gemm(OnnxTranslator& t, const onnx::NodeProto& n);
void matmul(OnnxTranslator& t, const onnx::NodeProto& n);
void batch_norm(OnnxTranslator& t, const onnx::NodeProto& n);
void layer_norm(OnnxTranslator& t, const onnx::NodeProto& n);
void softmax(OnnxTranslator& t, const onnx::NodeProto& n);

// onnx_ops_pool.cpp
void pool(OnnxTranslator& t, const onnx::NodeProto& n);  // MaxPool, AveragePool
void global_pool(OnnxTranslator& t, const onnx::NodeProto& n);
void reduce(OnnxTranslator& t, const onnx::NodeProto& n);  // ReduceMean, ReduceSum, ReduceMax

// onnx_ops_resize.cpp
void resize(OnnxTranslator& t, const onnx::NodeProto& n);

// onnx_ops_shape.cpp: the operators that only move or name data, and the
// shape arithmetic folded at import.
void identity(OnnxTranslator& t, const onnx::NodeProto& n);
void constant(OnnxTranslator& t, const onnx::NodeProto& n);
void shape(OnnxTranslator& t, const onnx::NodeProto& n);
void gather(OnnxTranslator& t, const onnx::NodeProto& n);
void concat(OnnxTranslator& t, const onnx::NodeProto& n);
void unsqueeze(OnnxTranslator& t, const onnx::NodeProto& n);
void squeeze(OnnxTranslator& t, const onnx::NodeProto& n);
void reshape(OnnxTranslator& t, const onnx::NodeProto& n);
void flatten(OnnxTranslator& t, const onnx::NodeProto& n);
void transpose(OnnxTranslator& t, const onnx::NodeProto& n);
void slice(OnnxTranslator& t, const onnx::NodeProto& n);
void cast(OnnxTranslator& t, const onnx::NodeProto& n);

}  // namespace dsl::onnx_ops
