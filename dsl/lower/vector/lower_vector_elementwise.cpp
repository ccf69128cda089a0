// Element-wise operations on the streamed vector pipeline: unary functions,
// cast, binary operations with broadcasting or a number operand, and
// batch_norm (inference: y = x * scale + shift, per channel).
//
// The output is viewed as rows of `cols` elements (its last dimension, or
// a batch_norm plane); a unit is one row, and a chunk of n rows is one
// contiguous DMA in and one out. When one row does not fit L1 the view
// falls back to single elements.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "dsl/lower/vector/lower_vector.h"
#include "dsl/lower/vector/lower_vector_inputs.h"
#include "dsl/lower/vector/lower_vector_stream.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

using arch::VectorOp;

// The element-wise operations' instructions: the table's `vector` column.
#define VEC(op) std::optional<VectorOp>(VectorOp::op)
#define NO_VEC std::optional<VectorOp>()
const std::optional<VectorOp> kVectorOps[] = {
#define OP(e, name, unit, access, precision, on_chip, rule, lowering, reference, vector, fusion) vector,
#include "dsl/ir/op_table.def"
#undef OP
};
#undef VEC
#undef NO_VEC

VectorOp vector_op_of(OpKind k) {
    if (const auto& v = kVectorOps[size_t(k)]) return *v;
    throw std::logic_error(std::string("not an element-wise operation: ") + op_kind_name(k));
}

// Lowers the first view (row length) from `cols` whose single row fits L1.
// Over a part of a partitioned on-chip tensor (LowerContext::window) the
// row is the part's.
template <class Build>
void lower_rows(LowerContext& ctx, const OpNode& op, std::vector<int64_t> cols, Build build) {
    if (ctx.window.active()) return lower_vector_stream(ctx, op, build(ctx.window.cols));
    cols.push_back(1);
    for (int64_t c : cols) {
        VectorStream s = build(c);
        if (c == 1 || max_chunk_units(ctx, s.buffers) > 0) return lower_vector_stream(ctx, op, s);
    }
}

int64_t last_dim(const TensorNode& t) { return t.shape.empty() ? 1 : t.shape.back(); }

// The operand's shape left-padded with 1s to `rank`.
std::vector<int64_t> padded(const std::vector<int64_t>& shape, size_t rank) {
    std::vector<int64_t> p(rank - std::min(rank, shape.size()), 1);
    p.insert(p.end(), shape.begin(), shape.end());
    return p;
}

}  // namespace

void lower_unary(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    const bool is_cast = op.kind == OpKind::Cast;
    const VectorOp vop = is_cast ? (x.dtype == y.dtype ? VectorOp::Copy : VectorOp::Cast) : vector_op_of(op.kind);
    lower_unary_steps(ctx, op, {vop});
}

void lower_unary_steps(LowerContext& ctx, const OpNode& op, const std::vector<VectorOp>& steps) {
    if (steps.empty() || arch::vector_op_is_binary(steps.front()))
        throw std::logic_error(std::string(op_kind_name(op.kind)) + ": the first step must read the input alone");
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    // cast converts as it computes; every other function computes in the
    // output's dtype, after casting an input of another dtype.
    const arch::DType compute = op.kind == OpKind::Cast ? x.dtype : y.dtype;
    const int64_t total = element_count(y.shape);
    const int out = op.output;
    lower_rows(ctx, op, {last_dim(y)}, [&](int64_t cols) {
        VectorStream s;
        s.name = y.name;
        s.units = ctx.window.active() ? ctx.window.rows : total / cols;
        VectorInputs in(ctx, compute, y.name);
        const int xs = in.streamed(s, op.inputs[0], cols);
        const size_t yb = s.buffers.size();
        if (!ctx.on_chip(out)) s.buffers.push_back({BufferKind::Streamed, cols * arch::dtype_bytes(y.dtype), 0});
        s.chunk = [&ctx, in, xs, yb, steps, cols, out](int64_t first, int64_t n, const BufferAddrs& a) {
            ChunkCommands cc;
            in.chunk(cc, first, n, a);
            const uint64_t dst = output_addr(ctx, out, cols, first, yb < a.size() ? a[yb] : 0);
            const uint64_t src = in.addr_at(xs, a, first);
            // Step 0 reads x; a later step reads the result so far, and a
            // binary one combines x with it: y = op(x, y), in place.
            for (size_t k = 0; k < steps.size(); ++k) {
                const bool binary = arch::vector_op_is_binary(steps[k]);
                const uint64_t src0 = k == 0 || binary ? src : dst;
                const uint64_t src1 = binary ? dst : arch::kNoAddress;
                cc.compute.push_back({with_sources(vector_args(steps[k], in.compute(), n, cols, src0, src1, dst),
                                                   src0 == src ? in.source(xs, 0) : arch::VectorSource{}, {}),
                                      in.label(steps[k])});
            }
            store_units(cc, ctx, out, cols, first, n, dst);
            return cc;
        };
        return s;
    });
}

void lower_binary(LowerContext& ctx, const OpNode& op) {
    const TensorNode& y = ctx.tensor(op.output);
    const VectorOp vop = vector_op_of(op.kind);
    const int64_t total = element_count(y.shape);
    const int out = op.output;
    const bool has_scalar = op.attrs.count("scalar") > 0;
    const bool scalar_first = has_scalar && op.attrs.count("scalar_first") && op.attrs.at("scalar_first").b;
    // Operands that have the output's shape stream with it; smaller ones
    // (broadcast) are loaded whole once per block, when they are small
    // enough to leave L1 to the stream.
    const int64_t resident_limit = ctx.config.l1_bytes() / 8;
    for (int t : op.inputs) {
        const TensorNode& in = ctx.tensor(t);
        const int64_t bytes = element_count(in.shape) * arch::dtype_bytes(in.dtype);
        if (padded(in.shape, y.shape.size()) != y.shape && bytes > resident_limit)
            throw CompileError(op.loc,
                               std::string(op_kind_name(op.kind)) + ": broadcasting " + in.name + " (" +
                                   std::to_string(bytes) + " bytes, more than " + std::to_string(resident_limit) +
                                   " = L1 / 8) is not lowered yet",
                               CompileError::Capacity::L1);
    }
    lower_rows(ctx, op, {last_dim(y)}, [&](int64_t cols) {
        VectorStream s;
        s.name = y.name;
        s.units = ctx.window.active() ? ctx.window.rows : total / cols;
        VectorInputs in(ctx, y.dtype, y.name);
        std::vector<int> src;
        for (int t : op.inputs) {
            const TensorNode& tn = ctx.tensor(t);
            if (padded(tn.shape, y.shape.size()) == y.shape) {
                src.push_back(in.streamed(s, t, cols));
                continue;
            }
            // Broadcast operands are loaded from DDR: the tensor stays there
            // instead, said in a note (dsl/lower/cluster_placement.h).
            if (ctx.on_chip(t))
                throw PlacementMismatch{t, std::string(op_kind_name(op.kind)) + " '" + y.name + "' broadcasts it, " +
                                               "and broadcast operands are read from DDR"};
            src.push_back(in.resident(s, t, cols, dims_of(y.shape), broadcast_strides(tn.shape, y.shape)));
        }
        if (has_scalar)
            src.insert(scalar_first ? src.begin() : src.end(), in.constant(s, cols, op.attrs.at("scalar").f));
        const size_t yb = s.buffers.size();
        if (!ctx.on_chip(out)) s.buffers.push_back({BufferKind::Streamed, cols * arch::dtype_bytes(y.dtype), 0});
        s.prologue = in.prologue_fn();
        s.chunk = [&ctx, in, src, yb, vop, cols, out](int64_t first, int64_t n, const BufferAddrs& a) {
            ChunkCommands cc;
            in.chunk(cc, first, n, a);
            const uint64_t dst = output_addr(ctx, out, cols, first, yb < a.size() ? a[yb] : 0);
            cc.compute.push_back({with_sources(vector_args(vop, in.compute(), n, cols, in.addr_at(src[0], a, first),
                                                           in.addr_at(src[1], a, first), dst),
                                               in.source(src[0], ctx.unit_elem(first, cols)),
                                               in.source(src[1], ctx.unit_elem(first, cols))),
                                  in.label(vop)});
            store_units(cc, ctx, out, cols, first, n, dst);
            return cc;
        };
        return s;
    });
}

// Inference batch norm with the running statistics folded into the
// parameters: y = x * scale + shift, a Mul and an Add (the ISA has no fused
// multiply-add). scale and shift (one value per channel) are resident.
void lower_batch_norm(LowerContext& ctx, const OpNode& op) {
    const TensorNode& y = ctx.tensor(op.output);
    const size_t channel = y.shape.size() == 4 && y.layout == "NHWC" ? 3 : 1;
    int64_t inner = 1;
    for (size_t k = channel + 1; k < y.shape.size(); ++k) inner *= y.shape[k];
    const int64_t total = element_count(y.shape);
    const int out = op.output;
    // A row must hold a single channel (channel last: a row of all channels).
    std::vector<int64_t> views =
        inner == 1 ? std::vector<int64_t>{y.shape[channel]} : std::vector<int64_t>{inner, last_dim(y)};
    lower_rows(ctx, op, views, [&](int64_t cols) {
        VectorStream s;
        s.name = y.name;
        s.units = total / cols;
        VectorInputs in(ctx, y.dtype, y.name);
        const int xs = in.streamed(s, op.inputs[0], cols);
        // One value per channel: the channel axis of the output.
        std::vector<int64_t> per_channel(y.shape.size(), 0);
        per_channel[channel] = 1;
        const int scale = in.resident(s, op.inputs[1], cols, dims_of(y.shape), per_channel);
        const int shift = in.resident(s, op.inputs[2], cols, dims_of(y.shape), per_channel);
        const size_t yb = s.buffers.size();
        s.buffers.push_back({BufferKind::Streamed, cols * arch::dtype_bytes(y.dtype), 0});
        s.prologue = in.prologue_fn();
        s.chunk = [&ctx, in, xs, scale, shift, yb, cols, out](int64_t first, int64_t n, const BufferAddrs& a) {
            ChunkCommands cc;
            in.chunk(cc, first, n, a);
            const arch::DType t = in.compute();
            cc.compute.push_back(
                {with_sources(vector_args(VectorOp::Mul, t, n, cols, in.addr(xs, a), in.addr(scale, a), a[yb]), {},
                              in.source(scale, first * cols)),
                 in.label(VectorOp::Mul)});
            cc.compute.push_back({with_sources(vector_args(VectorOp::Add, t, n, cols, a[yb], in.addr(shift, a), a[yb]),
                                               {}, in.source(shift, first * cols)),
                                  in.label(VectorOp::Add)});
            store_units(cc, ctx, out, cols, first, n, a[yb]);
            return cc;
        };
        return s;
    });
}

}  // namespace dsl
