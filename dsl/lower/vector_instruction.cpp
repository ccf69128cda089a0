#include "dsl/lower/vector_instruction.h"

#include <optional>
#include <stdexcept>
#include <string>

namespace dsl {

namespace {

#define VEC(op) std::optional<arch::VectorOp>(arch::VectorOp::op)
#define NO_VEC std::optional<arch::VectorOp>()
const std::optional<arch::VectorOp> kVectorOps[] = {
#define OP(e, name, unit, access, precision, on_chip, rule, lowering, reference, vector, fusion) vector,
#include "dsl/ir/op_table.def"
#undef OP
};
#undef VEC
#undef NO_VEC

}  // namespace

arch::VectorOp vector_instruction(OpKind k) {
    if (const auto& v = kVectorOps[size_t(k)]) return *v;
    throw std::logic_error(std::string("not an element-wise operation: ") + op_kind_name(k));
}

}  // namespace dsl
