#include "dsl/lower/gemm/gemm_epilogue.h"

#include <stdexcept>

namespace dsl {

namespace {

arch::VectorOp vector_op(OpKind k) {
    switch (k) {
    case OpKind::Relu: return arch::VectorOp::Relu;
    case OpKind::Gelu: return arch::VectorOp::Gelu;
    case OpKind::Sigmoid: return arch::VectorOp::Sigmoid;
    case OpKind::Tanh: return arch::VectorOp::Tanh;
    case OpKind::Exp: return arch::VectorOp::Exp;
    case OpKind::Sqrt: return arch::VectorOp::Sqrt;
    case OpKind::Add: return arch::VectorOp::Add;
    case OpKind::Sub: return arch::VectorOp::Sub;
    case OpKind::Mul: return arch::VectorOp::Mul;
    case OpKind::Div: return arch::VectorOp::Div;
    case OpKind::Maximum: return arch::VectorOp::Maximum;
    default: throw std::logic_error(std::string("fusion: no vector instruction for ") + op_kind_name(k));
    }
}

}  // namespace

GemmEpilogue build_epilogue(LowerContext& ctx, const OpNode& head, int& out) {
    GemmEpilogue e;
    out = head.output;
    // After a fused format_convert the graph's tensors are NCHW while the
    // tile stays (pixels x channels): operands of those tensors arrive
    // transposed.
    bool nchw = false;
    for (int k : head.epilogue) {
        const OpNode& op = ctx.graph.ops[size_t(k)];
        const int32_t pop = int32_t(k);
        const std::string y = ctx.tensor(op.output).name;
        const std::string call = y + " = " + op_kind_name(op.kind) + "(" + ctx.tensor(out).name;
        EpilogueStep s;
        s.program_op = pop;
        switch (op.kind) {
        case OpKind::FormatConvert:
            e.transposed_store = true;
            e.transpose_op = pop;
            nchw = true;
            break;
        case OpKind::BatchNorm: {
            s.op = arch::VectorOp::Mul, s.operand = EpilogueStep::Operand::PerColumn;
            s.slot = int(e.column_ddr.size());
            s.label = call + ") tile * " + ctx.tensor(op.inputs[1]).name;
            e.column_ddr.push_back(ctx.ddr_addr(op.inputs[1]));
            e.column_op.push_back(pop);
            e.steps.push_back(s);
            s.op = arch::VectorOp::Add, s.slot = int(e.column_ddr.size());
            s.label = call + ") tile + " + ctx.tensor(op.inputs[2]).name;
            e.column_ddr.push_back(ctx.ddr_addr(op.inputs[2]));
            e.column_op.push_back(pop);
            e.steps.push_back(s);
            break;
        }
        default:
            s.op = vector_op(op.kind);
            if (!arch::vector_op_is_binary(s.op)) {
                s.label = call + ") tile";
            } else if (op.inputs.size() == 1) {
                s.operand = EpilogueStep::Operand::Scalar;
                s.scalar = op.attrs.at("scalar").f;
                s.tile_first = !(op.attrs.count("scalar_first") && op.attrs.at("scalar_first").b);
                s.label = call + ", " + attr_text(op.attrs.at("scalar")) + ") tile";
            } else {
                s.tile_first = op.inputs[0] == out;
                const int other = s.tile_first ? op.inputs[1] : op.inputs[0];
                s.operand = EpilogueStep::Operand::Streamed;
                s.slot = int(e.streamed_ddr.size());
                e.streamed_ddr.push_back(ctx.ddr_addr(other));
                e.streamed_transposed.push_back(nchw);
                e.streamed_op.push_back(pop);
                s.label = call + ", " + ctx.tensor(other).name + ") tile";
            }
            e.steps.push_back(s);
        }
        out = op.output;
        e.store_op = pop;
    }
    return e;
}

}  // namespace dsl
