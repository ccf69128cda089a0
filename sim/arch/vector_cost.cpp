#include "sim/arch/vector_cost.h"

#include <algorithm>

#include "sim/arch/ceil_div.h"

namespace arch {

namespace {

// ceil(log2(x)) for x >= 1: the depth of a binary tree over x values.
uint64_t ceil_log2(uint64_t x) {
    uint64_t depth = 0;
    while ((uint64_t{1} << depth) < x) ++depth;
    return depth;
}

}  // namespace

VectorClass vector_class(VectorOp op) {
    switch (op) {
    case VectorOp::Copy: return VectorClass::Copy;
    case VectorOp::Cast: return VectorClass::Cast;
    case VectorOp::Select: return VectorClass::Select;
    case VectorOp::Relu: return VectorClass::Relu;
    case VectorOp::Add:
    case VectorOp::Sub: return VectorClass::Add;
    case VectorOp::Maximum:
    case VectorOp::Minimum: return VectorClass::MinMax;
    case VectorOp::Mul: return VectorClass::Mul;
    case VectorOp::Sqrt: return VectorClass::Sqrt;
    case VectorOp::Exp:
    case VectorOp::Sigmoid:
    case VectorOp::Tanh:
    case VectorOp::Gelu: return VectorClass::Transcendental;
    case VectorOp::Div: return VectorClass::Divide;
    case VectorOp::Transpose: return VectorClass::Transpose;
    case VectorOp::ReduceSum:
    case VectorOp::ReduceMax:
    case VectorOp::Argmax: return VectorClass::Reduce;
    }
    return VectorClass::Copy;
}

VectorClassTiming vector_class_timing(const Config& c, VectorClass k) {
    switch (k) {
#define VECTOR_CLASS(Enum, key, ops, rate, note)                                        \
    case VectorClass::Enum:                                                             \
        return {uint64_t(c.vector_##key##_head), uint64_t(c.vector_##key##_rate.value), \
                uint64_t(c.vector_##key##_element_bytes)};
#include "sim/arch/vector_classes.def"
#undef VECTOR_CLASS
    }
    return {};
}

VectorCost vector_cost(const Config& c, const VectorArgs& v) {
    const uint64_t width = uint64_t(c.vector_bytes_per_cycle);
    const VectorClassTiming timing = vector_class_timing(c, vector_class(v.op));
    // A class that computes in wider elements than the dtype's counts its
    // repeats at that width (a float16 division runs at float32's).
    const uint64_t elem = std::max<uint64_t>(dtype_bytes(v.dtype), timing.element_bytes);
    VectorCost cost{};
    cost.head_cycles = timing.head_cycles;
    cost.repeats = ceil_div(v.elements() * elem, width);
    cost.data_cycles = ceil_div(cost.repeats * timing.rate_hundredths, uint64_t{100});
    if (vector_op_is_reduce(v.op)) {
        // Each lane accumulates a partial of its row; a row's partials then
        // meet in a tree as deep as log2 of the lanes the row occupied.
        const uint64_t lanes = std::max<uint64_t>(1, width / elem);
        cost.tree_cycles = uint64_t(v.rows) * ceil_log2(std::min<uint64_t>(v.cols, lanes));
    }
    cost.total_cycles = cost.head_cycles + cost.data_cycles + cost.tree_cycles;
    return cost;
}

}  // namespace arch
