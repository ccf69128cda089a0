// Constant tensors of a model (initializers, Constant nodes): their dims,
// element type and values, decoded and checked. A hostile model can claim
// any dims and any element type; nothing is allocated before the claim is
// checked against the bytes the model really holds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace dsl {

struct ConstTensor {
    std::vector<int64_t> dims;  // empty: a scalar
    int32_t elem_type = 0;      // onnx::TensorProto::DataType
    std::vector<double> values;

    int64_t count() const { return int64_t(values.size()); }
    bool is_float() const;
    bool is_integer() const;
};

// The ONNX name of an element type ("FLOAT", "INT64", ...), for messages.
std::string onnx_type_name(int32_t elem_type);

// An integer constant's value as int64, saturating: values are held as
// doubles, and exporters write "to the end" as INT64_MAX, which a double
// rounds to 2^63, outside int64.
int64_t saturated_int64(double v);

// At most this many elements in one tensor: 2^28 (512 MiB of float16), as
// the largest weight of a model this simulator runs is far below it.
constexpr int64_t kMaxTensorElements = int64_t(1) << 28;
// No dimension of any tensor, declared or constant, above this.
constexpr int64_t kMaxDim = int64_t(1) << 28;

// Decodes `t` (FLOAT, FLOAT16, BFLOAT16, DOUBLE, INT8..INT64, UINT8, BOOL;
// from raw_data or the typed fields). Returns false and sets `why` (e.g.
// "its raw_data holds 10 bytes, its dims 3 x 4 of FLOAT need 48").
bool decode_tensor(const onnx::TensorProto& t, ConstTensor& out, std::string& why);

}  // namespace dsl
