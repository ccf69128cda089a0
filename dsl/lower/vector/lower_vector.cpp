// Vector-unit operations, lowered onto one generic pipeline, the streamed
// vector op (lower_vector_stream.h):
//
//  * The work is cut into units (rows of the flattened output, image planes,
//    transpose tiles); a chunk is as many units as fit L1 with its inputs and
//    output double-buffered (plus single-buffered vector temporaries and
//    per-block resident operands). The units are split evenly into one block
//    per cluster that may run at once, so every cluster streams its share and
//    the dispatcher hands blocks out as clusters free up; each block's chunks
//    amortise its pipeline fill and drain.
//  * In a block, dma0 loads chunk i into slot i % B (after the vector unit has
//    finished chunk i - B; B = 2, or pypo.config.BUFFERS), vector0 runs the
//    chunk's VECTOR commands, and the last DMA engine stores the result (dma1
//    with two engines; on a single dma0, the store of chunk i - B is queued
//    before the load of chunk i).
//    Four counting flags carry this: inputs ready/free, result ready/free.
//  * Broadcast operands (batch_norm's scale and shift, a bias) are loaded
//    whole once per block; number operands and 1/n are constants with no DDR
//    traffic; inputs in another dtype are cast by the vector unit on arrival.
//  * DDR traffic is the real data: every input element is read once (pooling
//    reads whole planes or bands of rows with their halo, never expanded
//    windows) and every output element is written once.
//
// The per-op command sequences are in lower_vector_{elementwise,rows,window,
// transpose}.cpp and docs/timing-model.md §10.
#include "dsl/lower/vector/lower_vector.h"

#include <stdexcept>

namespace dsl {

bool is_vector_lowered(const OpNode& op) {
    switch (op.kind) {
    case OpKind::Relu: case OpKind::Gelu: case OpKind::Sigmoid: case OpKind::Tanh: case OpKind::Exp:
    case OpKind::Sqrt: case OpKind::Cast: case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div:
    case OpKind::Maximum: case OpKind::BatchNorm: case OpKind::LayerNorm: case OpKind::Softmax:
    case OpKind::ReduceSum: case OpKind::ReduceMean: case OpKind::ReduceMax: case OpKind::MaxPool:
    case OpKind::AvgPool: case OpKind::GlobalAvgPool: case OpKind::Upsample: case OpKind::FormatConvert:
        return true;
    case OpKind::Transpose: {
        auto e = op.attrs.find("engine");
        return e == op.attrs.end() || e->second.s == "vector";
    }
    default: return false;
    }
}

void lower_vector_op(LowerContext& ctx, const OpNode& op) {
    // slide's patches are never stored: plan_buffers refused every reader of
    // a slide view but a reduction (check_slide_views, dsl/lower/lower_views.h).
    switch (op.kind) {
    case OpKind::Relu: case OpKind::Gelu: case OpKind::Sigmoid: case OpKind::Tanh: case OpKind::Exp:
    case OpKind::Sqrt: case OpKind::Cast:
        return lower_unary(ctx, op);
    case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div: case OpKind::Maximum:
        return lower_binary(ctx, op);
    case OpKind::BatchNorm: return lower_batch_norm(ctx, op);
    case OpKind::LayerNorm: return lower_layer_norm(ctx, op);
    case OpKind::Softmax: return lower_softmax(ctx, op);
    case OpKind::ReduceSum: case OpKind::ReduceMean: case OpKind::ReduceMax: return lower_reduce(ctx, op);
    case OpKind::MaxPool: case OpKind::AvgPool: return lower_pool(ctx, op);
    case OpKind::GlobalAvgPool: return lower_global_avg_pool(ctx, op);
    case OpKind::Upsample: return lower_upsample(ctx, op);
    case OpKind::FormatConvert: return lower_format_convert(ctx, op);
    case OpKind::Transpose:
        if (is_vector_lowered(op)) return lower_vector_transpose(ctx, op);
        break;
    default: break;
    }
    throw std::logic_error(std::string("not a vector-lowered operation: ") + op_kind_name(op.kind));
}

}  // namespace dsl
