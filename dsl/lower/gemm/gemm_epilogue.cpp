#include "dsl/lower/gemm/gemm_epilogue.h"

#include <stdexcept>

#include "dsl/lower/vector_instruction.h"

namespace dsl {

int64_t GemmEpilogue::c_block_copy_bytes() const {
    int64_t bytes = 0;
    for (size_t k = 1; k < tiles.size(); ++k) bytes += arch::dtype_bytes(tiles[k]);
    if (transposed_store) bytes += arch::dtype_bytes(result_dtype());
    for (arch::DType d : streamed_dtype) bytes += arch::dtype_bytes(d);
    return bytes;
}

int64_t GemmEpilogue::column_vector_bytes() const {
    int64_t bytes = 0;
    for (arch::DType d : column_dtype) bytes += arch::dtype_bytes(d);
    return bytes;
}

void GemmEpilogue::describe(GemmShape& shape) const {
    if (empty()) return;
    shape.epilogue_block_bytes = c_block_copy_bytes();
    shape.epilogue_column_bytes = column_vector_bytes();
    shape.epilogue_streamed_bytes = 0;
    for (arch::DType d : streamed_dtype) shape.epilogue_streamed_bytes += arch::dtype_bytes(d);
    shape.epilogue_vector.clear();
    for (const EpilogueStep& s : steps) shape.epilogue_vector.push_back({s.op, s.dtype});
    if (transposed_store) shape.epilogue_vector.push_back({arch::VectorOp::Transpose, result_dtype()});
    shape.epilogue_result = result_dtype();
}

std::string fold_major_unfused_reason(const arch::Config& c) {
    return std::string("the ") + (c.cube_dataflow == arch::Dataflow::WS ? "weight" : "input") +
           "-stationary array's fold-major schedule runs no epilogue";
}

const char* const kOnChipResultUnfused = "its result is kept on chip";

const char* const kVectorBufferUnfused =
    "the vector units compute in their own Unified Buffers (vector.buffer_kib), which the cube's output tiles reach "
    "only through DDR or the L2";

std::string gemm_epilogue_blocked(const arch::Config& c, bool fold_major, bool c_on_chip) {
    if (c.vector_buffer()) return kVectorBufferUnfused;
    if (fold_major) return fold_major_unfused_reason(c);
    return c_on_chip ? kOnChipResultUnfused : "";
}

std::string epilogue_unfused_reason(const arch::Config& c, const TaskGraph& g, const OpNode& head) {
    // A vector chain runs unfused only when not one row fits L1, which the
    // graph alone does not tell.
    if (head.epilogue.empty() || op_kind_fusion(head.kind) != OpFusion::Head) return "";
    if (c.vector_buffer()) return kVectorBufferUnfused;
    if (g.tensors[size_t(head.output)].placement != Placement::DDR) return kOnChipResultUnfused;
    // As fold_major_applies: a ws or is array, B in DDR (a convolution's
    // filters always are), no tile=.
    const bool stationary = c.cube_dataflow == arch::Dataflow::WS || c.cube_dataflow == arch::Dataflow::IS;
    const bool b_in_ddr = head.kind == OpKind::Conv2d || g.tensors[size_t(head.inputs[1])].placement == Placement::DDR;
    if (stationary && b_in_ddr && head.attrs.count("tile") == 0) return fold_major_unfused_reason(c);
    return "";
}

std::string unfused_group_note(const TaskGraph& g, const OpNode& head, const std::string& reason) {
    std::string chain = op_kind_name(head.kind);
    for (int k : head.epilogue) chain += std::string(" -> ") + op_kind_name(g.ops[size_t(k)].kind);
    return "fusion group '" + g.tensors[size_t(g.ops[size_t(head.epilogue.back())].output)].name + "' (" + chain +
           ") ran unfused: " + reason + "; its operations were lowered one by one, through DDR";
}

GemmEpilogue build_epilogue(LowerContext& ctx, const OpNode& head, int& out) {
    GemmEpilogue e;
    out = head.output;
    e.tiles.push_back(ctx.tensor(head.output).dtype);
    int cur = 0;  // the tile buffer holding `out`
    // After a fused format_convert the graph's tensors are NCHW while the
    // tile stays (pixels x channels): operands of those tensors arrive
    // transposed.
    bool nchw = false;
    int scratch = -1;  // silu's sigmoid tile, in the dtype of the tile it is for (one per dtype: reused)
    // Step `s` (its op and tile_first set) combining the tile with tensor
    // `other`, streamed per tile from DDR.
    auto streamed = [&](EpilogueStep s, int other, const std::string& call) {
        s.operand = EpilogueStep::Operand::Streamed;
        s.slot = int(e.streamed_ddr.size());
        e.streamed_ddr.push_back(ctx.ddr_addr(other));
        e.streamed_transposed.push_back(nchw);
        e.streamed_dtype.push_back(s.dtype);
        e.streamed_op.push_back(s.program_op);
        s.label = call + ", " + ctx.tensor(other).name + ") tile";
        e.steps.push_back(s);
    };
    for (int k : head.epilogue) {
        const OpNode& op = ctx.graph.ops[size_t(k)];
        const int32_t pop = int32_t(k);
        const std::string y = ctx.tensor(op.output).name;
        const std::string call = y + " = " + op_kind_name(op.kind) + "(" + ctx.tensor(out).name;
        const arch::DType dtype = e.tiles[size_t(cur)];
        EpilogueStep s;
        s.program_op = pop;
        s.dtype = dtype, s.src = s.dst = cur;
        switch (op.kind) {
        case OpKind::FormatConvert:
            e.transposed_store = true;
            e.transpose_op = pop;
            nchw = true;
            break;
        case OpKind::Cast: {
            // Into a tile buffer of the new dtype (VECTOR cast names the
            // source's); a cast to the same dtype copies in place, as the
            // unfused cast copies.
            const arch::DType to = ctx.tensor(op.output).dtype;
            s.label = call + ") tile";
            if (to == dtype) {
                s.op = arch::VectorOp::Copy;
            } else {
                s.op = arch::VectorOp::Cast;
                e.tiles.push_back(to);
                s.dst = cur = int(e.tiles.size()) - 1;
            }
            e.steps.push_back(s);
            break;
        }
        case OpKind::Silu:
        case OpKind::Swiglu: {
            // x * sigmoid(x), as lower_silu: the sigmoid into a scratch tile,
            // then the tile times it, in place; swiglu's tile is its gate
            // (pass_fusion's joins), then times up, streamed as a binary
            // operation's other operand is.
            if (scratch < 0 || e.tiles[size_t(scratch)] != dtype) {
                scratch = -1;
                for (size_t b = 1; b < e.tiles.size(); ++b)
                    if (e.tiles[b] == dtype && int(b) != cur && int(b) != e.result) scratch = int(b);
                if (scratch < 0) {
                    e.tiles.push_back(dtype);
                    scratch = int(e.tiles.size()) - 1;
                }
            }
            s.op = arch::VectorOp::Sigmoid, s.dst = scratch;
            s.label = call + ") tile: sigmoid";
            e.steps.push_back(s);
            s.op = arch::VectorOp::Mul, s.dst = cur;
            s.operand = EpilogueStep::Operand::Tile, s.slot = scratch;
            s.label = call + ") tile * sigmoid";
            e.steps.push_back(s);
            s.tile_first = true;
            if (op.kind == OpKind::Swiglu) streamed(s, op.inputs[1], call);
            break;
        }
        case OpKind::Clip: {
            // max(tile, lo), then min(tile, hi), in place, as lower_clip.
            s.operand = EpilogueStep::Operand::Scalar, s.tile_first = true;
            for (const char* bound : {"lo", "hi"}) {
                s.op = bound[0] == 'l' ? arch::VectorOp::Maximum : arch::VectorOp::Minimum;
                s.scalar = op.attrs.at(bound).f;
                s.label = call + ") tile: " + arch::vector_op_name(s.op) + " " + attr_text(op.attrs.at(bound));
                e.steps.push_back(s);
            }
            break;
        }
        case OpKind::BatchNorm: {
            s.op = arch::VectorOp::Mul, s.operand = EpilogueStep::Operand::PerColumn;
            s.slot = int(e.column_ddr.size());
            s.label = call + ") tile * " + ctx.tensor(op.inputs[1]).name;
            e.column_ddr.push_back(ctx.ddr_addr(op.inputs[1]));
            e.column_dtype.push_back(dtype);
            e.column_op.push_back(pop);
            e.steps.push_back(s);
            s.op = arch::VectorOp::Add, s.slot = int(e.column_ddr.size());
            s.label = call + ") tile + " + ctx.tensor(op.inputs[2]).name;
            e.column_ddr.push_back(ctx.ddr_addr(op.inputs[2]));
            e.column_dtype.push_back(dtype);
            e.column_op.push_back(pop);
            e.steps.push_back(s);
            break;
        }
        default:
            s.op = vector_instruction(op.kind);
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
                if (ctx.tensor(other).shape == ctx.tensor(op.output).shape) {
                    streamed(s, other, call);
                    break;
                }
                // A column vector (a conv2d's bias, pass_fusion's column_vector):
                // one value per GEMM column, as batch_norm's shift.
                s.operand = EpilogueStep::Operand::PerColumn;
                s.slot = int(e.column_ddr.size());
                s.label = call + ", " + ctx.tensor(other).name + ") tile";
                e.column_ddr.push_back(ctx.ddr_addr(other));
                e.column_dtype.push_back(dtype);
                e.column_op.push_back(pop);
            }
            e.steps.push_back(s);
        }
        out = op.output;
        e.result = cur;
        e.store_op = pop;
    }
    return e;
}

}  // namespace dsl
