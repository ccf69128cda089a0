// The translation of a checked ONNX graph into .pto program text: the
// state the operation translators (onnx_ops_*.cpp) share. Values are
// tracked as the program will hold them: a tensor is a program variable;
// a constant (initializer, Constant node) stays a number until an
// operation needs it as a tensor, and then becomes a pypo.weight; a shape
// (Shape and the integer arithmetic on it) is a list of Python
// expressions, `x.shape[0]` for a dimension known only once --shape binds
// it, so Reshape targets are folded without fixing the batch size.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include <memory>
#include "dsl/import/onnx_import.h"

#include "dsl/import/onnx_tensor.h"

namespace dsl {

struct OnnxValue {
    enum class Kind { Tensor, Const, Shape };
    Kind kind = Kind::Tensor;
    // Tensor: the program variable, its dims (-1: known when the program
    // runs) and dtype; `declared` for an input or weight.
    std::string var;
    std::vector<int64_t> dims;
    arch::DType dtype = arch::DType::Float16;
    bool declared = false;
    // Const: the values, shared by the values Identity, Cast and the like
    // pass on (never copied); `name` is the ONNX name a weight made of it keeps.
    std::shared_ptr<const ConstTensor> const_values;
    const ConstTensor& c() const { return *const_values; }
    void set_const(ConstTensor values) { const_values = std::make_shared<const ConstTensor>(std::move(values)); }
    std::string name;
    // Shape: one integer expression per element; `scalar` for a 0-D one.
    std::vector<std::string> exprs;
    bool scalar = false;
};

class OnnxTranslator {
public:
    OnnxTranslator(std::string path, const onnx::ModelProto& model);
    ImportedModel run();

    // "FILE: error: MESSAGE", as dsl::CompileError.
    [[noreturn]] void fail(const std::string& message) const;
    // "FILE: error: node 'NAME' (OP): MESSAGE".
    [[noreturn]] void fail(const onnx::NodeProto& n, const std::string& message) const;

    int64_t opset() const { return opset_; }

    // Inputs: whether input i is given (ONNX leaves optional ones empty),
    // the value of input i (which must be given), and input i as a program
    // tensor (a constant becomes a weight) or as constants.
    bool has_input(const onnx::NodeProto& n, int i) const;
    const OnnxValue& input(const onnx::NodeProto& n, int i) const;
    // The value named `name`, read by node n (fail() if nothing computed it).
    const OnnxValue& value(const onnx::NodeProto& n, const std::string& name) const;
    const OnnxValue& tensor_input(const onnx::NodeProto& n, int i);
    const ConstTensor& const_input(const onnx::NodeProto& n, int i, const char* what) const;
    // Input i as integer expressions: a Shape value or an integer constant.
    std::vector<std::string> int_exprs(const onnx::NodeProto& n, int i, const char* what) const;
    // ... as known integers (a constant, or a Shape value whose expressions are numbers).
    std::vector<int64_t> known_ints(const onnx::NodeProto& n, int i, const char* what) const;

    // Attributes, checked for their type.
    bool has_attr(const onnx::NodeProto& n, const char* name) const;
    int64_t attr_int(const onnx::NodeProto& n, const char* name, int64_t fallback) const;
    double attr_float(const onnx::NodeProto& n, const char* name, double fallback) const;
    std::vector<int64_t> attr_ints(const onnx::NodeProto& n, const char* name,
                                   const std::vector<int64_t>& fallback) const;
    // An INTS attribute of sizes (kernel_shape, strides, pads, dilations):
    // each within +-kMaxDim, so that window arithmetic cannot overflow.
    std::vector<int64_t> attr_sizes(const onnx::NodeProto& n, const char* name,
                                    const std::vector<int64_t>& fallback) const;
    std::string attr_string(const onnx::NodeProto& n, const char* name, const std::string& fallback) const;
    const onnx::TensorProto* attr_tensor(const onnx::NodeProto& n, const char* name) const;
    // Fails naming every attribute of `n` outside `known`.
    void only_attrs(const onnx::NodeProto& n, std::initializer_list<const char*> known) const;

    // Outputs. emit: output 0 is `call` (a pypo.op expression), a new
    // variable named after the ONNX output. set_value: output 0 is `v`
    // (folded, or an alias of an input: Identity).
    const OnnxValue& emit(const onnx::NodeProto& n, const std::string& call, std::vector<int64_t> dims,
                          arch::DType dtype, const std::string& note = "");
    void set_value(const onnx::NodeProto& n, OnnxValue v);
    // An intermediate value of n's translation: `call` as a new variable
    // named after `name` (its program variable), commented with n and `note`.
    std::string emit_temp(const onnx::NodeProto& n, const std::string& name, const std::string& call,
                          const std::string& note = "");
    // A weight of values computed at import (a folded BatchNormalization's
    // scale), named `name`: its program variable.
    // `source`: the constant the weight is derived from, for reusing the
    // weight when the same constant and name come again (nullptr: never).
    std::string add_weight(const std::string& name, const ConstTensor& c, arch::DType dtype,
                           const ConstTensor* source = nullptr);
    // A weight of values folded at import from a node's constants (a
    // BatchNormalization's scale and shift, Gemm's C times beta), named
    // `base`; when a fold of other values (another node sharing some of the
    // constants) took that name, `base.2`, `base.3`, ... in the order the
    // nodes are translated. A fold of the same values under the same base
    // (nodes sharing all their constants) is the weight already made.
    std::string add_folded_weight(const std::string& base, const ConstTensor& c, arch::DType dtype);

    // A dimension of a tensor as program text: its number, or `var.shape[i]`.
    static std::string dim_text(const OnnxValue& t, size_t i);
    // (a, b, c) as Python writes a tuple.
    static std::string tuple(const std::vector<std::string>& items);
    static std::string tuple(const std::vector<int64_t>& items);
    // Whether program text `e` is an integer literal, and its value.
    static bool known_int(const std::string& e, int64_t& v);
    // A number as program text: a float32 value (every FLOAT attribute and
    // constant) by its shortest float32 spelling ("0.1", not
    // "0.10000000149011612"), any other as Python's repr.
    static std::string number(double v);
    // number(v) for node n's program text; fail() for inf and NaN, which
    // the language has no literal for (`what` names the value).
    std::string finite_number(const onnx::NodeProto& n, double v, const std::string& what) const;
    // An axis of a rank-r tensor, negative counting from the end, checked.
    int64_t axis(const onnx::NodeProto& n, int64_t a, size_t rank, const char* what) const;

private:
    std::string unique_var(const std::string& onnx_name);
    std::string weight_of(OnnxValue& c);
    std::string declare_input(const onnx::ValueInfoProto& v);
    OnnxValue& tensor_value(const onnx::NodeProto& n, const std::string& name);
    void translate(const onnx::NodeProto& n);
    // `n` ends a GELU subgraph (onnx_gelu.h) of input `x`.
    void translate_gelu(const onnx::NodeProto& n, const std::string& x);
    void emit_outputs();

    std::string path_;
    const onnx::ModelProto& model_;
    int64_t opset_ = 0;
    std::map<std::string, OnnxValue> values_;
    // The weights made by add_weight with a source: (source, name) -> (var, dtype).
    std::map<std::pair<const ConstTensor*, std::string>, std::pair<std::string, arch::DType>> weights_made_;
    // The weights made by add_folded_weight: name -> (index in out_.weights, var).
    std::map<std::string, std::pair<size_t, std::string>> folded_;
    std::set<std::string> vars_;          // identifiers taken
    std::set<std::string> tensor_names_;  // pypo tensor names taken
    std::string decls_, body_;
    ImportedModel out_;
    const onnx::NodeProto* current_ = nullptr;
};

// One operation's translation.
using OnnxOpTranslate = void (*)(OnnxTranslator& t, const onnx::NodeProto& n);

// The operations the importer maps, by ONNX op type (onnx_op_table.cpp).
const std::map<std::string, OnnxOpTranslate>& onnx_op_table();
// Why an operator users meet often is not mapped; null for the others.
const char* onnx_unsupported_reason(const std::string& op_type);

// The ONNX element type of a value as a program dtype; false for a type
// the language has no tensors of.
bool onnx_dtype(int32_t elem_type, arch::DType& out);

}  // namespace dsl
