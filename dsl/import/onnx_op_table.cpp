#include "dsl/import/onnx_ops.h"

namespace dsl {

const std::map<std::string, OnnxOpTranslate>& onnx_op_table() {
    using namespace onnx_ops;
    static const std::map<std::string, OnnxOpTranslate> table = {
        {"Add", binary},
        {"AveragePool", pool},
        {"BatchNormalization", batch_norm},
        {"Cast", cast},
        {"Clip", clip},
        {"Concat", concat},
        {"Constant", constant},
        {"Conv", conv},
        {"Div", binary},
        {"Exp", unary},
        {"Flatten", flatten},
        {"Gather", gather},
        {"Gemm", gemm},
        {"GlobalAveragePool", global_pool},
        {"GlobalMaxPool", global_pool},
        {"Identity", identity},
        {"LayerNormalization", layer_norm},
        {"MatMul", matmul},
        {"Max", binary},
        {"MaxPool", pool},
        {"Min", binary},
        {"Mul", binary},
        {"Neg", neg},
        {"Pow", pow},
        {"ReduceMax", reduce},
        {"ReduceMean", reduce},
        {"ReduceSum", reduce},
        {"Relu", unary},
        {"Reshape", reshape},
        {"Resize", resize},
        {"Shape", shape},
        {"Sigmoid", unary},
        {"Slice", slice},
        {"Softmax", softmax},
        {"Sqrt", unary},
        {"Squeeze", squeeze},
        {"Sub", binary},
        {"Tanh", unary},
        {"Transpose", transpose},
        {"Unsqueeze", unsqueeze},
    };
    return table;
}

const char* onnx_unsupported_reason(const std::string& op_type) {
    // Operators users meet often, and why the language cannot express them yet.
    static const std::map<std::string, const char*> reasons = {
        {"Erf",
         "the language has no erf; an Erf is mapped only inside a GELU, x * 0.5 * (1 + Erf(x / sqrt(2))), "
         "which becomes pypo.op.gelu"},
        {"ConvTranspose", "the language has no transposed convolution"},
        {"LRN", "the language has no local response normalisation"},
        {"Pad", "the language pads only inside conv2d and pooling"},
        {"Where", "the importer does not map Where yet"},
    };
    auto r = reasons.find(op_type);
    return r == reasons.end() ? nullptr : r->second;
}

}  // namespace dsl
