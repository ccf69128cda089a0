// Lowering, in the documented order (docs/timing-model.md §10, "Compiler
// passes"): shapes are bound by the elaborator (shape_hint); then
//   1. precision (dsl/pass_precision.h): compute dtype per op, explicit casts;
//   2. layout (dsl/pass_layout.h): format_convert ops where a producer's
//      natural layout (conv2d: NHWC) is not the one the graph labels;
//   3. per op: tiling, L1/L0 buffer planning, DMA and sync insertion, blocks.
#include "dsl/lower.h"

#include <algorithm>

#include "dsl/diagnostics.h"
#include "dsl/lower_context.h"
#include "dsl/lower_conv.h"
#include "dsl/lower_data_movement.h"
#include "dsl/lower_matmul.h"
#include "dsl/lower_vector.h"
#include "dsl/lower_views.h"
#include "dsl/pass_layout.h"
#include "dsl/pass_precision.h"

namespace dsl {

namespace {

// Tensors start on 4 KiB boundaries in DDR so no two share a page.
constexpr uint64_t kDdrAlignment = 4096;

uint64_t tensor_bytes(const TensorNode& t) {
    uint64_t n = uint64_t(arch::dtype_bytes(t.dtype));
    for (int64_t d : t.shape) n *= uint64_t(d);
    return n;
}

// Every stored tensor gets its own DDR range; a view (dsl/lower_views.h)
// gets its source's address and no range of its own.
void place_tensors(const TaskGraph& g, const arch::Config& c, arch::Program& p) {
    uint64_t next = 0;
    p.tensors.resize(g.tensors.size());
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const TensorNode& t = g.tensors[i];
        if (view_source(g, int(i)) >= 0) continue;
        uint64_t bytes = tensor_bytes(t);
        if (t.placement != Placement::DDR)
            throw CompileError(t.loc, "tensor '" + t.name + "' is placed in " + placement_name(t.placement) +
                                          ": explicit placement is not lowered yet");
        if (next + bytes > uint64_t(c.ddr_bytes()))
            throw CompileError(t.loc, "tensor '" + t.name + "' does not fit in DDR: the program's tensors need " +
                                          std::to_string(next + bytes) + " bytes, DDR has " +
                                          std::to_string(c.ddr_bytes()));
        std::string role = tensor_role_name(t.role);
        if (!t.layout.empty()) role += ", " + t.layout;
        p.tensors[i] = {t.name, t.shape, t.dtype, next, bytes, role};
        next = (next + bytes + kDdrAlignment - 1) / kDdrAlignment * kDdrAlignment;
    }
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const TensorNode& t = g.tensors[i];
        int source = view_source(g, int(i));
        if (source < 0) continue;
        p.tensors[i] = {t.name, t.shape, t.dtype, p.tensors[size_t(source)].ddr_addr, tensor_bytes(t),
                        std::string(tensor_role_name(t.role)) + ", view of " + g.tensors[size_t(source)].name};
    }
}

}  // namespace

arch::Program lower(const TaskGraph& elaborated, const arch::Config& config, const std::string& source) {
    const TaskGraph g = apply_layout(apply_precision(elaborated));
    if (!g.moves.empty())
        throw CompileError(g.moves.front().loc, "explicit data movement is not lowered yet");
    arch::Program program;
    program.source = source;
    program.max_parallel = uint32_t(std::max(g.max_parallel, 0));
    place_tensors(g, config, program);
    LowerContext ctx(g, config, program);
    // Blocks of op i, so a consumer can wait for its producers.
    std::vector<std::vector<uint32_t>> op_blocks(g.ops.size());
    size_t next_log = 0;
    for (size_t i = 0; i < g.ops.size(); ++i) {
        const OpNode& op = g.ops[i];
        // print(...) is a synchronisation point: everything before it drains
        // before anything after it starts. pypo.log(...) is asynchronous.
        for (; next_log < g.logs.size() && g.logs[next_log].after_op < int(i); ++next_log)
            if (g.logs[next_log].synchronous) ctx.drain = uint32_t(program.blocks.size());
        ctx.deps.clear();
        for (int in : op.inputs) {
            int producer = g.tensors[size_t(in)].producer;
            if (producer >= 0) ctx.deps.insert(ctx.deps.end(), op_blocks[size_t(producer)].begin(), op_blocks[size_t(producer)].end());
        }
        std::sort(ctx.deps.begin(), ctx.deps.end());
        ctx.deps.erase(std::unique(ctx.deps.begin(), ctx.deps.end()), ctx.deps.end());
        uint32_t first = uint32_t(program.blocks.size());
        arch::ProgramOp info{g.tensors[size_t(op.output)].name, op_kind_name(op.kind),
                             op.task >= 0 ? g.tasks[size_t(op.task)].name : "", {}};
        for (int in : op.inputs)
            if (int producer = g.tensors[size_t(in)].producer; producer >= 0) info.inputs.push_back(producer);
        program.ops.push_back(std::move(info));
        ctx.program_op = int32_t(program.ops.size() - 1);
        switch (op.kind) {
        case OpKind::Matmul: lower_matmul_op(ctx, op); break;
        case OpKind::Conv2d: lower_conv2d_op(ctx, op); break;
        // Views emit nothing (dsl/lower_views.h); their consumers wait for
        // the view's own producers, below.
        case OpKind::Reshape:
        case OpKind::Flatten:
        case OpKind::Slide: break;
        case OpKind::Concat: lower_concat_op(ctx, op); break;
        case OpKind::Transpose:
            // engine='dma' transposes in flight (dsl/lower_data_movement.h);
            // the default runs on the vector unit.
            if (op.attrs.at("engine").s == "dma") {
                lower_transpose_dma_op(ctx, op);
                break;
            }
            lower_vector_op(ctx, op);
            break;
        case OpKind::PixelShuffle: lower_pixel_shuffle_op(ctx, op); break;
        default:
            // The vector unit's operations (dsl/lower_vector.h).
            if (is_vector_lowered(op)) {
                lower_vector_op(ctx, op);
                break;
            }
            // Until every operation has a lowering, the rest stop here, at
            // the call, rather than being skipped.
            throw CompileError(op.loc, std::string(op_kind_name(op.kind)) + " is not lowered yet");
        }
        for (uint32_t b = first; b < program.blocks.size(); ++b) op_blocks[i].push_back(b);
        // An operation without commands (a view) stands for what it waited on.
        if (first == program.blocks.size()) op_blocks[i] = ctx.deps;
    }
    return program;
}

}  // namespace dsl
