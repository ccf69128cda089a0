// A row group (dsl/passes/pass_fusion.h): a row reduction and the
// row-wise operations and row reductions after it that read its result,
// run as one streamed vector op whose unit is one row of every tensor of
// the group (docs/timing-model.md §10, "Fusion"). A chunk of rows loads
// the rows of the tensors the group reads from DDR, runs every member's
// VECTOR commands on them in program order (a row statistic, one element
// a row, is read broadcast over its row), and stores the rows of each
// result that is read outside the group or is a program output; the
// others are the chunk's temporaries. So a softmax written out of its
// steps, or a flash-attention step's running statistics, takes one pass
// over the rows instead of one stream per operation.
#include <map>
#include <stdexcept>

#include "dsl/ir/fusion_groups.h"

#include "dsl/lower/vector/lower_vector.h"
#include "dsl/lower/vector/lower_vector_inputs.h"
#include "dsl/lower/vector/lower_vector_stream.h"
#include "dsl/lower/vector_instruction.h"

namespace dsl {

namespace {

using arch::VectorOp;

// Where a step's operand is: a result of the group (its buffer, or where
// it is kept in the Unified Buffers: `kept`) or an input of the stream
// (VectorInputs' handle: a loaded row operand or a number).
struct Ref {
    bool result = false;
    int h = -1;
    int64_t width = 0;  // elements a row
    int kept = -1;      // a result kept in the Unified Buffers: the tensor
};

struct Step {
    VectorOp op = VectorOp::Copy;
    Ref a, b;
    Ref dst;           // a result
    int64_t cols = 0;  // elements a row it computes (a reduction: of the row it reduces)
    int32_t program_op = -1;
    std::string label;
};

struct Store {
    int tensor = -1, buffer = -1;
    int64_t width = 0;
    int32_t op = -1;
};

}  // namespace

bool lower_row_group(LowerContext& ctx, const OpNode& head) {
    const TaskGraph& g = ctx.graph;
    const TensorNode& y = ctx.tensor(head.output);
    const arch::DType dtype = y.dtype;
    const int64_t e = arch::dtype_bytes(dtype);
    // Its tensors are in DDR or kept in the Unified Buffers (the pass groups
    // both as DDR tensors): no part of an on-chip tensor in L1 to follow.
    if (ctx.window.active()) throw std::logic_error("a row group over a part of an on-chip tensor: " + y.name);
    std::vector<int> ops{int(&head - g.ops.data())};
    ops.insert(ops.end(), head.epilogue.begin(), head.epilogue.end());
    const std::vector<std::vector<int>>& readers = ctx.readers();

    VectorStream s;
    s.name = g.tensors[size_t(g.ops[size_t(ops.back())].output)].name;
    s.units = element_count(ctx.tensor(head.inputs[0]).shape) / ctx.tensor(head.inputs[0]).shape.back();
    VectorInputs in(ctx, dtype, s.name);
    std::map<int, Ref> buffer_of;  // a group result -> where it is
    std::vector<Step> steps;
    std::vector<Store> stores;
    for (int k : ops) {
        const OpNode& op = g.ops[size_t(k)];
        const TensorNode& out = ctx.tensor(op.output);
        in.charge_to(int32_t(k));
        auto operand = [&](int t) {
            const int64_t w = ctx.tensor(t).shape.back();
            if (auto it = buffer_of.find(t); it != buffer_of.end()) return it->second;
            return Ref{false, in.streamed(s, t, w, true), w};
        };
        // A result is stored when anything outside the group reads it or it
        // is an output of the program; else it lives in the chunk only. One
        // kept in the Unified Buffers is computed where it is kept.
        const bool stored = fused_result_stored(g, readers, k);
        const int64_t w = out.shape.back();
        Ref dst{true, int(s.buffers.size()), w};
        if (ctx.plan.in_ub(op.output)) {
            dst.h = -1, dst.kept = op.output;
        } else {
            s.buffers.push_back({stored ? BufferKind::Streamed : BufferKind::Scratch, w * e, 0});
            if (stored) stores.push_back({op.output, dst.h, w, int32_t(k)});
        }
        buffer_of[op.output] = dst;
        const std::string label = out.name + ": ";
        if (is_reduce_kind(op.kind)) {
            const Ref x = operand(op.inputs[0]);
            const VectorOp red = op.kind == OpKind::ReduceMax ? VectorOp::ReduceMax : VectorOp::ReduceSum;
            steps.push_back({red, x, {}, dst, x.width, int32_t(k), label + arch::vector_op_name(red)});
            if (op.kind == OpKind::ReduceMean) {
                const Ref inv_n{false, in.constant(s, 1, 1.0 / double(x.width), true), 1};
                steps.push_back(
                    {VectorOp::Mul, dst, inv_n, dst, 1, int32_t(k), label + arch::vector_op_name(VectorOp::Mul)});
            }
            continue;
        }
        const VectorOp v = vector_instruction(op.kind);
        std::vector<Ref> src;
        for (int t : op.inputs) src.push_back(operand(t));
        if (op.attrs.count("scalar")) {
            const bool first = op.attrs.count("scalar_first") && op.attrs.at("scalar_first").b;
            const Ref c{false, in.constant(s, w, op.attrs.at("scalar").f, true), w};
            src.insert(first ? src.begin() : src.end(), c);
        }
        steps.push_back(
            {v, src[0], src.size() > 1 ? src[1] : Ref{}, dst, w, int32_t(k), label + arch::vector_op_name(v)});
    }
    if (max_chunk_units(ctx, s.buffers) == 0) {
        ctx.epilogue_unfused = std::string("not one row of the group's buffers fits ") + vector_memory_name(ctx.config);
        return false;
    }
    s.chunk = [&ctx, in, steps, stores, dtype](int64_t first, int64_t n, const BufferAddrs& a) {
        ChunkCommands cc;
        in.chunk(cc, first, n, a);
        auto addr = [&](const Ref& r) {
            if (r.kept >= 0)
                return ctx.place_at(r.kept, uint64_t(first * r.width * arch::dtype_bytes(ctx.tensor(r.kept).dtype)));
            if (r.h < 0) return arch::kNoAddress;
            return r.result ? a[size_t(r.h)] : in.addr_at(r.h, a, first);
        };
        // A number is an immediate; a row statistic read by a step over
        // longer rows is one element a row, broadcast over it.
        auto source = [&](const Ref& r, int64_t cols) {
            if (r.h >= 0 && !r.result && in.source(r.h, 0).kind == arch::VectorSource::Kind::Scalar)
                return in.source(r.h, 0);
            if ((r.h >= 0 || r.kept >= 0) && r.width == 1 && cols > 1) return per_row_source(n, cols);
            return arch::VectorSource{};
        };
        for (const Step& st : steps) {
            const arch::VectorArgs v = vector_args(st.op, dtype, n, st.cols, addr(st.a), addr(st.b), addr(st.dst));
            cc.compute.push_back(
                {with_sources(v, source(st.a, st.cols), source(st.b, st.cols)), st.label, st.program_op});
        }
        for (const Store& o : stores) store_units(cc, ctx, o.tensor, o.width, first, n, a[size_t(o.buffer)], o.op);
        return cc;
    };
    lower_vector_stream(ctx, head, s);
    ctx.epilogue_fused = true;
    return true;
}

}  // namespace dsl
