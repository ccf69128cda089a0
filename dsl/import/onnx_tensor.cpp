#include "dsl/import/onnx_tensor.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace dsl {

namespace {

using TP = onnx::TensorProto;

// Bytes per element in raw_data; 0 for a type this importer does not read.
int raw_bytes(int32_t type) {
    switch (type) {
    case TP::FLOAT:
    case TP::INT32:
    case TP::UINT32: return 4;
    case TP::DOUBLE:
    case TP::INT64:
    case TP::UINT64: return 8;
    case TP::FLOAT16:
    case TP::BFLOAT16:
    case TP::INT16:
    case TP::UINT16: return 2;
    case TP::INT8:
    case TP::UINT8:
    case TP::BOOL: return 1;
    default: return 0;
    }
}

double half_to_double(uint16_t h) {
    const int sign = h >> 15, exp = (h >> 10) & 0x1f, frac = h & 0x3ff;
    double v;
    if (exp == 0) v = std::ldexp(double(frac), -24);
    else if (exp == 31) v = frac ? std::nan("") : HUGE_VAL;
    else v = std::ldexp(double(frac | 0x400), exp - 25);
    return sign ? -v : v;
}

double bf16_to_double(uint16_t b) {
    const uint32_t bits = uint32_t(b) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// Element i of raw little-endian bytes of type `type`.
double raw_element(const std::string& raw, int32_t type, size_t i) {
    const char* p = raw.data() + i * size_t(raw_bytes(type));
    auto get = [p](auto v) {
        std::memcpy(&v, p, sizeof v);
        return v;
    };
    switch (type) {
    case TP::FLOAT: return get(float());
    case TP::DOUBLE: return get(double());
    case TP::FLOAT16: return half_to_double(get(uint16_t()));
    case TP::BFLOAT16: return bf16_to_double(get(uint16_t()));
    case TP::INT8: return get(int8_t());
    case TP::UINT8:
    case TP::BOOL: return get(uint8_t());
    case TP::INT16: return get(int16_t());
    case TP::UINT16: return get(uint16_t());
    case TP::INT32: return get(int32_t());
    case TP::UINT32: return get(uint32_t());
    case TP::INT64: return double(get(int64_t()));
    case TP::UINT64: return double(get(uint64_t()));
    default: return 0;
    }
}

}  // namespace

int64_t saturated_int64(double v) {
    if (std::isnan(v)) return 0;
    if (v >= 9223372036854775807.0) return INT64_MAX;
    if (v <= -9223372036854775808.0) return INT64_MIN;
    return int64_t(v);
}

bool ConstTensor::is_float() const {
    return elem_type == TP::FLOAT || elem_type == TP::FLOAT16 || elem_type == TP::BFLOAT16 || elem_type == TP::DOUBLE;
}

bool ConstTensor::is_integer() const { return !is_float(); }

std::string onnx_type_name(int32_t elem_type) {
    if (TP::DataType_IsValid(elem_type)) return TP::DataType_Name(TP::DataType(elem_type));
    return "type " + std::to_string(elem_type);
}

bool decode_tensor(const TP& t, ConstTensor& out, std::string& why) {
    out = ConstTensor{};
    out.elem_type = t.data_type();
    if (t.data_location() == TP::EXTERNAL || t.external_data_size() > 0) {
        why = "its data is in an external file, which the importer does not read";
        return false;
    }
    if (!raw_bytes(out.elem_type)) {
        why = "its element type " + onnx_type_name(out.elem_type) + " is not one the importer reads";
        return false;
    }
    int64_t count = 1;
    for (int64_t d : t.dims()) {
        if (d < 0 || d > kMaxDim) {
            why = "its dimension " + std::to_string(d) + " is out of range (0 to " + std::to_string(kMaxDim) + ")";
            return false;
        }
        out.dims.push_back(d);
        count *= d;
        if (count > kMaxTensorElements) {
            why = "it has more than " + std::to_string(kMaxTensorElements) + " elements";
            return false;
        }
    }
    const int32_t type = out.elem_type;
    int64_t have = 0;  // elements the model holds
    if (t.has_raw_data()) have = int64_t(t.raw_data().size()) / raw_bytes(type);
    else if (type == TP::FLOAT) have = t.float_data_size();
    else if (type == TP::DOUBLE) have = t.double_data_size();
    else if (type == TP::INT64) have = t.int64_data_size();
    else if (type == TP::UINT32 || type == TP::UINT64) have = t.uint64_data_size();
    else have = t.int32_data_size();  // int8..int32, uint8, uint16, bool, float16, bfloat16
    if (have != count || (t.has_raw_data() && int64_t(t.raw_data().size()) != count * raw_bytes(type))) {
        why = "its dims ask for " + std::to_string(count) + " elements of " + onnx_type_name(type) + ", it holds " +
              (t.has_raw_data() ? std::to_string(t.raw_data().size()) + " bytes" : std::to_string(have) + " values");
        return false;
    }
    out.values.resize(size_t(count));
    for (int64_t i = 0; i < count; ++i) {
        const size_t k = size_t(i);
        double v;
        if (t.has_raw_data()) v = raw_element(t.raw_data(), type, k);
        else if (type == TP::FLOAT) v = t.float_data(i);
        else if (type == TP::DOUBLE) v = t.double_data(i);
        else if (type == TP::INT64) v = double(t.int64_data(i));
        else if (type == TP::UINT32 || type == TP::UINT64) v = double(t.uint64_data(i));
        else if (type == TP::FLOAT16) v = half_to_double(uint16_t(t.int32_data(i)));
        else if (type == TP::BFLOAT16) v = bf16_to_double(uint16_t(t.int32_data(i)));
        else v = t.int32_data(i);
        out.values[k] = v;
    }
    return true;
}

}  // namespace dsl
