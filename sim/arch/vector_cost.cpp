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

uint64_t vector_passes(const Config& c, VectorOp op) {
    switch (op) {
    case VectorOp::Gelu:
    case VectorOp::Sigmoid:
    case VectorOp::Tanh:
    case VectorOp::Exp: return uint64_t(c.vector_transcendental_passes);
    case VectorOp::Div:
    case VectorOp::Sqrt: return uint64_t(c.vector_divide_passes);
    case VectorOp::Transpose: return uint64_t(c.vector_transpose_passes);
    case VectorOp::Copy:
    case VectorOp::Add:
    case VectorOp::Sub:
    case VectorOp::Mul:
    case VectorOp::Maximum:
    case VectorOp::Minimum:
    case VectorOp::Select:
    case VectorOp::Relu:
    case VectorOp::Cast:
    case VectorOp::ReduceSum:
    case VectorOp::ReduceMax:
    case VectorOp::Argmax: break;
    }
    return 1;
}

VectorCost vector_cost(const Config& c, const VectorArgs& v) {
    const uint64_t width = uint64_t(c.vector_bytes_per_cycle);
    const uint64_t elem = uint64_t(dtype_bytes(v.dtype));
    VectorCost cost{};
    cost.passes = vector_passes(c, v.op);
    cost.data_cycles = ceil_div(v.src_bytes(), width);
    if (vector_op_is_reduce(v.op)) {
        // Each lane accumulates a partial of its row; a row's partials then
        // meet in a tree as deep as log2 of the lanes the row occupied.
        const uint64_t lanes = std::max<uint64_t>(1, width / elem);
        cost.tree_cycles = uint64_t(v.rows) * ceil_log2(std::min<uint64_t>(v.cols, lanes));
    }
    cost.total_cycles = uint64_t(c.vector_pipeline_cycles) + cost.passes * cost.data_cycles + cost.tree_cycles;
    return cost;
}

}  // namespace arch
