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

// A broadcast operand too large to keep resident, loaded chunk by chunk:
// the output, viewed as rows of `cols` elements, reads operand element
// off(r) + c of row r (a run of cols elements when the operand has the
// output's last axis), or off(r) alone, broadcast over the row (per_row,
// when its last axis is 1 and cols > 1). A chunk's rows are gathered with
// one DMA per run of rows whose operand data are consecutive.
struct Gather {
    std::string name;
    arch::DType dtype = arch::DType::Float16;
    uint64_t ddr = 0;
    std::vector<int64_t> dims, strides;  // the output's shape, the operand's strides in it
    int64_t cols = 1, row_elems = 1;     // elements of the operand one output row reads
    bool per_row = false;
    size_t raw = 0, cast = 0;     // buffer indices (cast = raw when no cast is needed)
    LowerContext::Window window;  // over a part of a partitioned tensor, row r is window row r

    int64_t offset(int64_t row) const {
        int64_t e = window.active() ? (window.r0 + row) * window.row_elems + window.c0 : row * cols, off = 0;
        for (size_t k = dims.size(); k-- > 0;) {
            off += e % dims[k] * strides[k];
            e /= dims[k];
        }
        return off;
    }
    void chunk(ChunkCommands& cc, int64_t first, int64_t n, const BufferAddrs& a, const std::string& out) const {
        const int64_t e = arch::dtype_bytes(dtype);
        int64_t r = 0;
        while (r < n) {
            const int64_t start = offset(first + r);
            int64_t len = 1;
            while (r + len < n && offset(first + r + len) == start + len * row_elems) ++len;
            cc.loads.push_back({load_dma(ddr + uint64_t(start * e), a[raw] + uint64_t(r * row_elems * e),
                                         uint64_t(len * row_elems * e)),
                                name + " rows -> L1"});
            r += len;
        }
        if (cast != raw)
            cc.compute.push_back(
                {vector_args(arch::VectorOp::Cast, dtype, 1, n * row_elems, a[raw], arch::kNoAddress, a[cast]),
                 out + ": cast " + name});
    }
    uint64_t addr(const BufferAddrs& a) const { return a[cast]; }
    arch::VectorSource source(int64_t n) const { return per_row ? per_row_source(n, cols) : arch::VectorSource{}; }
};

Gather gather_of(const LowerContext& ctx, VectorStream& s, int t, const TensorNode& y, int64_t cols) {
    const TensorNode& tn = ctx.tensor(t);
    Gather g;
    g.name = tn.name, g.dtype = tn.dtype, g.ddr = ctx.ddr_addr(t);
    g.dims = y.shape, g.strides = broadcast_strides(tn.shape, y.shape), g.cols = cols, g.window = ctx.window;
    g.per_row = cols > 1 && g.strides.back() == 0;
    g.row_elems = cols > 1 && !g.per_row ? cols : 1;
    // Sized for the command's full extent (lower_vector_inputs.h), also per row.
    g.raw = s.buffers.size();
    s.buffers.push_back({BufferKind::Streamed, cols * arch::dtype_bytes(tn.dtype), 0});
    g.cast = g.raw;
    if (tn.dtype != y.dtype) {
        g.cast = s.buffers.size();
        s.buffers.push_back({BufferKind::Scratch, cols * arch::dtype_bytes(y.dtype), 0});
    }
    return g;
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
    // (broadcast) are loaded whole once per block when they are small
    // enough to leave L1 to the stream (at most L1 / 8), else gathered: each
    // chunk loads the operand rows its output rows read, one DMA per run of
    // consecutive operand rows, into a chunk-sized buffer (a causal mask
    // over heads: one or two runs per chunk).
    const int64_t resident_limit = ctx.config.l1_bytes() / 8;
    auto gathered = [&](int t) {
        const TensorNode& in = ctx.tensor(t);
        return padded(in.shape, y.shape.size()) != y.shape &&
               element_count(in.shape) * arch::dtype_bytes(in.dtype) > resident_limit;
    };
    lower_rows(ctx, op, {last_dim(y)}, [&](int64_t cols) {
        VectorStream s;
        s.name = y.name;
        s.units = ctx.window.active() ? ctx.window.rows : total / cols;
        VectorInputs in(ctx, y.dtype, y.name);
        std::vector<int> src;
        std::vector<Gather> gathers;  // src[k] < 0: gathers[-1 - src[k]]
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
            if (gathered(t)) {
                gathers.push_back(gather_of(ctx, s, t, y, cols));
                src.push_back(-int(gathers.size()));
                continue;
            }
            src.push_back(in.resident(s, t, cols, dims_of(y.shape), broadcast_strides(tn.shape, y.shape)));
        }
        if (has_scalar)
            src.insert(scalar_first ? src.begin() : src.end(), in.constant(s, cols, op.attrs.at("scalar").f));
        const size_t yb = s.buffers.size();
        if (!ctx.on_chip(out)) s.buffers.push_back({BufferKind::Streamed, cols * arch::dtype_bytes(y.dtype), 0});
        s.prologue = in.prologue_fn();
        s.chunk = [&ctx, in, src, gathers, yb, vop, cols, out](int64_t first, int64_t n, const BufferAddrs& a) {
            ChunkCommands cc;
            in.chunk(cc, first, n, a);
            for (const Gather& g : gathers) g.chunk(cc, first, n, a, in.out_name());
            const uint64_t dst = output_addr(ctx, out, cols, first, yb < a.size() ? a[yb] : 0);
            auto addr = [&](int h) { return h < 0 ? gathers[size_t(-1 - h)].addr(a) : in.addr_at(h, a, first); };
            auto source = [&](int h) {
                return h < 0 ? gathers[size_t(-1 - h)].source(n) : in.source(h, ctx.unit_elem(first, cols));
            };
            cc.compute.push_back({with_sources(vector_args(vop, in.compute(), n, cols, addr(src[0]), addr(src[1]), dst),
                                               source(src[0]), source(src[1])),
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
