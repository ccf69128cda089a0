#include "dsl/lower/weight_dequant.h"

#include "dsl/lower/lower_views.h"

namespace dsl {

namespace {

bool program_data(const TensorNode& t) { return t.role == TensorRole::Input || t.role == TensorRole::Weight; }

}  // namespace

std::optional<WeightDequant> weight_dequant(const LowerContext& ctx, const OpNode& matmul) {
    const TaskGraph& g = ctx.graph;
    if (matmul.kind != OpKind::Matmul || matmul.inputs.size() < 2) return std::nullopt;
    const int b = matmul.inputs[1];
    const TensorNode& bt = ctx.tensor(b);
    if (bt.producer < 0 || bt.role == TensorRole::Output || ctx.on_chip(b) || matmul.inputs[0] == b)
        return std::nullopt;
    const OpNode& d = g.ops[size_t(bt.producer)];
    if (d.kind != OpKind::Dequantize) return std::nullopt;
    const arch::Dataflow flow = ctx.config.cube_dataflow;
    if (flow == arch::Dataflow::WS || flow == arch::Dataflow::IS) return std::nullopt;
    // Vector units with their own Unified Buffers cannot dequantise a
    // panel in L1: the dequantize then runs on its own, through DDR.
    if (ctx.config.vector_buffer()) return std::nullopt;
    const TensorNode& q = ctx.tensor(d.inputs[0]);
    const TensorNode& s = ctx.tensor(d.inputs[1]);
    if (q.shape.size() != 2 || q.dtype != arch::DType::Int8 || !program_data(q) || !program_data(s))
        return std::nullopt;
    if (s.dtype != bt.dtype || ctx.tensor(matmul.inputs[0]).dtype != bt.dtype) return std::nullopt;
    if (!ddr_view(g, d.inputs[0]).one_run()) return std::nullopt;
    for (const OpNode& op : g.ops)
        for (int in : op.inputs)
            if (in == b && &op != &matmul) return std::nullopt;
    return WeightDequant{bt.producer, d.inputs[0], d.inputs[1], s.shape.back() == q.shape.back()};
}

bool dequantize_in_matmul(const LowerContext& ctx, const OpNode& dequantize) {
    const TaskGraph& g = ctx.graph;
    for (const OpNode& op : g.ops)
        if (op.kind == OpKind::Matmul && op.inputs.size() > 1 && op.inputs[1] == dequantize.output)
            return weight_dequant(ctx, op).has_value();
    return false;
}

}  // namespace dsl
