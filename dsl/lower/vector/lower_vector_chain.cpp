#include "dsl/lower/vector/lower_vector_chain.h"

#include <algorithm>
#include <stdexcept>

#include "dsl/lower/placement_mismatch.h"
#include "dsl/lower/vector/lower_vector.h"
#include "dsl/lower/vector_instruction.h"

namespace dsl {

namespace {

using arch::VectorOp;

int64_t last_dim(const TensorNode& t) { return t.shape.empty() ? 1 : t.shape.back(); }

// The operand's shape left-padded with 1s to `rank`.
std::vector<int64_t> padded(const std::vector<int64_t>& shape, size_t rank) {
    std::vector<int64_t> p(rank - std::min(rank, shape.size()), 1);
    p.insert(p.end(), shape.begin(), shape.end());
    return p;
}

// batch_norm's channel axis: the last of an NHWC image, else axis 1.
size_t channel_axis(const TensorNode& y) { return y.shape.size() == 4 && y.layout == "NHWC" ? 3 : 1; }

// The row lengths a stream of `op` may take, preferred first: a row must
// hold a single channel of batch_norm (channel last: a row of all
// channels); any other element-wise operation takes the last axis.
std::vector<int64_t> row_views(const LowerContext& ctx, const OpNode& op) {
    const TensorNode& y = ctx.tensor(op.output);
    if (op.kind != OpKind::BatchNorm) return {last_dim(y)};
    const size_t channel = channel_axis(y);
    int64_t inner = 1;
    for (size_t k = channel + 1; k < y.shape.size(); ++k) inner *= y.shape[k];
    return inner == 1 ? std::vector<int64_t>{y.shape[channel]} : std::vector<int64_t>{inner, last_dim(y)};
}

// The graph operation `op` is (for tags), or -1: the one being lowered.
int32_t index_of(const LowerContext& ctx, const OpNode& op) {
    const auto& ops = ctx.graph.ops;
    return &op >= ops.data() && &op < ops.data() + ops.size() ? int32_t(&op - ops.data()) : -1;
}

}  // namespace

int64_t Gather::offset(int64_t row) const {
    int64_t e = window.active() ? (window.r0 + row) * window.row_elems + window.c0 : row * cols, off = 0;
    for (size_t k = dims.size(); k-- > 0;) {
        off += e % dims[k] * strides[k];
        e /= dims[k];
    }
    return off;
}

void Gather::chunk(ChunkCommands& cc, int64_t first, int64_t n, const BufferAddrs& a, const std::string& out) const {
    if (in_place) return;  // read in place
    const int64_t e = arch::dtype_bytes(dtype);
    int64_t r = 0;
    while (r < n) {
        const int64_t start = offset(first + r);
        int64_t len = 1;
        while (r + len < n && offset(first + r + len) == start + len * row_elems) ++len;
        cc.loads.push_back(
            {load_dma(ddr + uint64_t(start * e), a[raw] + uint64_t(r * row_elems * e), uint64_t(len * row_elems * e)),
             name + " rows -> L1", op});
        r += len;
    }
    if (cast != raw)
        cc.compute.push_back(
            {cast_args(dtype, compute, 1, n * row_elems, a[raw], a[cast]), out + ": cast " + name, op});
}

ElementwiseChain::ElementwiseChain(const LowerContext& ctx, arch::DType compute, const std::string& name)
    : ctx_(&ctx), in_(ctx, compute, name) {}

ElementwiseChain::Ref ElementwiseChain::operand(VectorStream& s, const OpNode& op, int t, int cur, int64_t extent,
                                                int64_t cols) {
    const TensorNode& tn = ctx_->tensor(t);
    const TensorNode& y = ctx_->tensor(op.output);
    if (t == cur) return result();
    // Operands that have the output's shape stream with it (a later link's
    // read of an input already streamed reuses its buffer).
    if (padded(tn.shape, y.shape.size()) == y.shape) return {Ref::Kind::Input, in_.streamed(s, t, extent, cur >= 0)};
    // An on-chip operand broadcast over whole rows' last axis alone, in the
    // chain's dtype, is read in place (a row statistic of a partitioned
    // tensor: the cluster holding a part's rows holds their statistics
    // too, dsl/lower/cluster_placement.h checks it). Any other broadcast
    // operand is loaded from DDR: the tensor stays there instead, said in a
    // note.
    if (ctx_->in_place(t)) {
        std::vector<int64_t> row_stat = y.shape;
        if (!row_stat.empty()) row_stat.back() = 1;
        const bool whole_rows = !ctx_->window.active() || ctx_->window.cols == ctx_->window.row_elems;
        if (cols == last_dim(y) && cols > 1 && whole_rows && padded(tn.shape, y.shape.size()) == row_stat &&
            tn.dtype == in_.compute()) {
            Gather g;
            g.name = tn.name, g.dtype = tn.dtype, g.compute = tn.dtype, g.in_place = ctx_, g.tensor = t;
            g.op = index_of(*ctx_, op);
            g.dims = y.shape, g.strides = broadcast_strides(tn.shape, y.shape), g.cols = cols, g.window = ctx_->window;
            g.per_row = true, g.row_elems = 1;
            gathers_.push_back(g);
            return {Ref::Kind::Gathered, int(gathers_.size() - 1)};
        }
        throw PlacementMismatch{t, std::string(op_kind_name(op.kind)) + " '" + y.name + "' broadcasts it, " +
                                       "and broadcast operands other than a row statistic in the result's dtype " +
                                       "are read from DDR"};
    }
    // Smaller ones (broadcast) are loaded whole once per block when they
    // are small enough to leave L1 to the stream (at most L1 / 8), else
    // gathered: each chunk loads the operand rows its output rows read, one
    // DMA per run of consecutive operand rows, into a chunk-sized buffer (a
    // causal mask over heads: one or two runs per chunk).
    if (element_count(tn.shape) * arch::dtype_bytes(tn.dtype) > ctx_->config.l1_bytes() / 8) {
        Gather g;
        g.name = tn.name, g.dtype = tn.dtype, g.compute = in_.compute(), g.ddr = ctx_->ddr_addr(t),
        g.op = index_of(*ctx_, op);
        g.dims = y.shape, g.strides = broadcast_strides(tn.shape, y.shape), g.cols = cols, g.window = ctx_->window;
        g.per_row = cols > 1 && g.strides.back() == 0;
        g.row_elems = cols > 1 && !g.per_row ? cols : 1;
        // Sized for the command's full extent (lower_vector_inputs.h), also per row.
        g.raw = s.buffers.size();
        s.buffers.push_back({BufferKind::Streamed, cols * arch::dtype_bytes(tn.dtype), 0});
        g.cast = g.raw;
        if (tn.dtype != g.compute) {
            g.cast = s.buffers.size();
            s.buffers.push_back({BufferKind::Scratch, cols * arch::dtype_bytes(g.compute), 0});
        }
        gathers_.push_back(g);
        return {Ref::Kind::Gathered, int(gathers_.size() - 1)};
    }
    return {Ref::Kind::Input, in_.resident(s, t, extent, dims_of(y.shape), broadcast_strides(tn.shape, y.shape))};
}

void ElementwiseChain::add(VectorStream& s, const OpNode& op, int cur, int64_t extent, int64_t cols,
                           std::vector<VectorOp> steps) {
    const TensorNode& y = ctx_->tensor(op.output);
    const int32_t pop = index_of(*ctx_, op);
    in_.charge_to(pop);
    auto step = [&](VectorOp v, Ref a, Ref b, Ref dst) {
        steps_.push_back({v, a, b, dst, in_.compute(), y.dtype, pop, y.name + ": " + arch::vector_op_name(v), {}});
    };
    const Ref result = this->result();
    if (cur >= 0 && op.kind == OpKind::Cast) {
        // Into a buffer of the new dtype (VECTOR cast names the source's);
        // to the same dtype a copy in place, as the cast alone copies.
        if (y.dtype == in_.compute()) return step(VectorOp::Copy, result, {}, result);
        results_.push_back({int(s.buffers.size()), y.dtype});
        s.buffers.push_back({BufferKind::Streamed, extent * arch::dtype_bytes(y.dtype), 0});
        step(VectorOp::Cast, result, {}, this->result());
        in_.compute_in(y.dtype);
        return;
    }
    // A scratch buffer of the chain's dtype (one per dtype, shared by the
    // chain's silus and swiglus).
    auto scratch = [&]() {
        int k = 0;
        while (k < int(scratch_.size()) && scratch_[size_t(k)].dtype != in_.compute()) ++k;
        if (k == int(scratch_.size())) {
            scratch_.push_back({int(s.buffers.size()), in_.compute()});
            s.buffers.push_back({BufferKind::Scratch, extent * arch::dtype_bytes(in_.compute()), 0});
        }
        return Ref{Ref::Kind::Scratch, k};
    };
    if (cur >= 0 && op.kind == OpKind::Silu) {
        // x * sigmoid(x), as silu alone (lower_silu.cpp), x being the result
        // so far: the sigmoid into the scratch buffer, then the product in
        // place.
        const Ref sig = scratch();
        step(VectorOp::Sigmoid, result, {}, sig);
        step(VectorOp::Mul, result, sig, result);
        return;
    }
    if (op.kind == OpKind::Swiglu) {
        // silu(gate) * up: the silu into the result's buffer (a first
        // link) or, in a chain whose result so far is gate or up, into the
        // scratch buffer; then the product into the result, in place.
        const Ref gate = operand(s, op, op.inputs[0], cur, extent, cols);
        const Ref up = operand(s, op, op.inputs[1], cur, extent, cols);
        const Ref silu = cur < 0 ? result : scratch();
        step(VectorOp::Sigmoid, gate, {}, silu);
        step(VectorOp::Mul, gate, silu, silu);
        step(VectorOp::Mul, silu, up, result);
        return;
    }
    if (op.kind == OpKind::Clip) {
        // max(x, lo), then min(that, hi) in place: two one-pass
        // instructions, the bounds immediates (one constant buffer gives
        // both their source extent).
        const Ref x = operand(s, op, op.inputs[0], cur, extent, cols);
        const Ref lo{Ref::Kind::Input, in_.constant(s, extent, op.attrs.at("lo").f, true)};
        const Ref hi{Ref::Kind::Input, in_.constant(s, extent, op.attrs.at("hi").f, true)};
        step(VectorOp::Maximum, x, lo, result);
        step(VectorOp::Minimum, result, hi, result);
        return;
    }
    if (op.kind == OpKind::Quantize) {
        // x / scale in float32 into the scratch buffer, then a cast to int8
        // (round half to even, saturation) into the result. A division, not
        // a multiply by 1/scale: the reciprocal's own rounding moves
        // quotients off the half-integer ties (45.5 / 7 is 6.5, a tie that
        // rounds to 6; 45.5 * fl(1/7) is 6.5000005, which rounds to 7),
        // and both cost one pass (docs/language.md "quantize").
        const Ref x = operand(s, op, op.inputs[0], cur, extent, cols);
        const Ref scale = operand(s, op, op.inputs[1], cur, extent, cols);
        const Ref quotient = scratch();
        step(VectorOp::Div, x, scale, quotient);
        step(VectorOp::Cast, quotient, {}, result);
        return;
    }
    if (op.kind == OpKind::Dequantize) {
        // q (cast to the output's dtype on arrival: exact, int8 fits every
        // float dtype) times the scale, one multiply.
        const Ref q = operand(s, op, op.inputs[0], cur, extent, cols);
        const Ref scale = operand(s, op, op.inputs[1], cur, extent, cols);
        step(VectorOp::Mul, q, scale, result);
        return;
    }
    if (op.kind == OpKind::Where) {
        // One select: x where cond is nonzero, else y, each read in the
        // result's dtype (the rule keeps cond's zeros exact there).
        const Ref cond = operand(s, op, op.inputs[0], cur, extent, cols);
        const Ref x = operand(s, op, op.inputs[1], cur, extent, cols);
        const Ref other = operand(s, op, op.inputs[2], cur, extent, cols);
        step(VectorOp::Select, x, other, result);
        steps_.back().c = cond;
        return;
    }
    if (op.kind == OpKind::BatchNorm) {
        // Inference batch norm with the running statistics folded into the
        // parameters: y = x * scale + shift, a Mul and an Add (the ISA has
        // no fused multiply-add). scale and shift (one value per channel)
        // are resident, read through the output's channel axis.
        const Ref x = operand(s, op, op.inputs[0], cur, extent, cols);
        std::vector<int64_t> per_channel(y.shape.size(), 0);
        per_channel[channel_axis(y)] = 1;
        const Ref scale{Ref::Kind::Input, in_.resident(s, op.inputs[1], extent, dims_of(y.shape), per_channel)};
        const Ref shift{Ref::Kind::Input, in_.resident(s, op.inputs[2], extent, dims_of(y.shape), per_channel)};
        step(VectorOp::Mul, x, scale, result);
        step(VectorOp::Add, result, shift, result);
        return;
    }
    if (steps.empty()) steps = {vector_instruction(op.kind)};
    const VectorOp vop = steps.front();
    if (!arch::vector_op_is_binary(vop)) {
        // Step 0 reads x; a later step reads the result so far, and a
        // binary one combines x with it: y = op(x, y), in place.
        const Ref x = operand(s, op, op.inputs[0], cur, extent, cols);
        for (size_t k = 0; k < steps.size(); ++k) {
            const bool binary = arch::vector_op_is_binary(steps[k]);
            step(steps[k], k == 0 || binary ? x : result, binary ? result : Ref{}, result);
        }
        return;
    }
    std::vector<Ref> src;
    for (int t : op.inputs) src.push_back(operand(s, op, t, cur, extent, cols));
    if (op.attrs.count("scalar")) {
        const bool scalar_first = op.attrs.count("scalar_first") && op.attrs.at("scalar_first").b;
        const Ref c{Ref::Kind::Input, in_.constant(s, extent, op.attrs.at("scalar").f, cur >= 0)};
        src.insert(scalar_first ? src.begin() : src.end(), c);
    }
    step(vop, src[0], src[1], result);
}

void ElementwiseChain::head_result(int buffer, arch::DType dtype) {
    results_ = {{buffer, dtype}};
    in_.compute_in(dtype);
}

void ElementwiseChain::finish(VectorStream& s) const {
    for (size_t k = 0; k + 1 < results_.size(); ++k) s.buffers[size_t(results_[k].buffer)].kind = BufferKind::Scratch;
}

void ElementwiseChain::loads(ChunkCommands& cc, int64_t first, int64_t n, const BufferAddrs& a) const {
    in_.chunk(cc, first, n, a);
    for (const Gather& g : gathers_) g.chunk(cc, first, n, a, in_.out_name());
}

void ElementwiseChain::compute(ChunkCommands& cc, const BufferAddrs& a, int64_t first, uint64_t dst, int64_t rows,
                               int64_t cols, int64_t first_elem) const {
    auto addr = [&](const Ref& r) {
        switch (r.kind) {
        case Ref::Kind::None: return arch::kNoAddress;
        case Ref::Kind::Result:
            return size_t(r.h) + 1 >= results_.size() ? dst : a[size_t(results_[size_t(r.h)].buffer)];
        case Ref::Kind::Input: return in_.addr_at(r.h, a, first);
        case Ref::Kind::Gathered: return gathers_[size_t(r.h)].addr(a, first);
        case Ref::Kind::Scratch: return a[size_t(scratch_[size_t(r.h)].buffer)];
        }
        return arch::kNoAddress;
    };
    auto source = [&](const Ref& r) {
        if (r.kind == Ref::Kind::Input) return in_.source(r.h, first_elem);
        if (r.kind == Ref::Kind::Gathered) return gathers_[size_t(r.h)].source(rows);
        return arch::VectorSource{};
    };
    for (const Step& st : steps_) {
        const arch::VectorArgs v = st.op == VectorOp::Cast
                                       ? cast_args(st.dtype, st.cast_to, rows, cols, addr(st.a), addr(st.dst))
                                       : vector_args(st.op, st.dtype, rows, cols, addr(st.a), addr(st.b), addr(st.dst));
        arch::VectorArgs w = with_sources(v, source(st.a), source(st.b));
        if (st.c.kind != Ref::Kind::None) {
            w.src2 = addr(st.c);
            const arch::VectorSource s2 = source(st.c);
            if (s2.kind != arch::VectorSource::Kind::Contiguous) w.in2 = std::make_shared<const arch::VectorSource>(s2);
        }
        cc.compute.push_back({w, st.label, st.program_op});
    }
}

void lower_elementwise(LowerContext& ctx, const OpNode& op, const std::vector<VectorOp>& steps) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    // cast converts as it computes; every other function computes in the
    // output's dtype, after casting an input of another dtype, and
    // quantize divides in float32 (its int8 result is the cast's).
    const arch::DType compute = op.kind == OpKind::Cast       ? x.dtype
                                : op.kind == OpKind::Quantize ? arch::DType::Float32
                                                              : y.dtype;
    std::vector<const OpNode*> members;
    for (int k : op.epilogue) members.push_back(&ctx.graph.ops[size_t(k)]);
    const OpNode* bn = op.kind == OpKind::BatchNorm ? &op : nullptr;
    for (const OpNode* m : members)
        if (!bn && m->kind == OpKind::BatchNorm) bn = m;
    // The stream over rows of `cols` elements of `op` and `chain` (its
    // group's members, or none): the first link's buffers, the result's
    // (none for an on-chip result: the commands write it in place), the
    // members'.
    auto build = [&](int64_t cols, const std::vector<const OpNode*>& chain) {
        const int out = chain.empty() ? op.output : chain.back()->output;
        const int32_t last = chain.empty() ? -1 : index_of(ctx, *chain.back());
        VectorStream s;
        s.name = y.name;
        s.units = ctx.window.active() ? ctx.window.rows : element_count(y.shape) / cols;
        ElementwiseChain links(ctx, compute, y.name);
        links.add(s, op, -1, cols, cols, steps);
        // (The members' results are in DDR or kept in the Unified Buffers: an
        // on-chip result in L1 is the head's alone.)
        const bool own = !ctx.in_place(out) || !chain.empty();
        links.head_result(own ? int(s.buffers.size()) : -1, y.dtype);
        if (own) s.buffers.push_back({BufferKind::Streamed, cols * arch::dtype_bytes(y.dtype), 0});
        int cur = op.output;
        for (const OpNode* m : chain) {
            links.add(s, *m, cur, cols, cols);
            cur = m->output;
        }
        links.finish(s);
        const int yb = links.result_buffer();
        s.prologue = links.prologue_fn();
        s.chunk = [&ctx, links, yb, cols, out, last](int64_t first, int64_t n, const BufferAddrs& a) {
            ChunkCommands cc;
            links.loads(cc, first, n, a);
            const uint64_t dst = output_addr(ctx, out, cols, first, yb >= 0 ? a[size_t(yb)] : 0);
            links.compute(cc, a, first, dst, n, cols, ctx.unit_elem(first, cols));
            store_units(cc, ctx, out, cols, first, n, dst, last);
            return cc;
        };
        return s;
    };
    // The group runs fused over the first of its rows that fits L1 (over
    // a part of a partitioned on-chip tensor, the part's rows: the pass
    // keeps batch_norm, whose per-channel operands do not follow such a
    // window, out of chains whose head reads an on-chip tensor).
    if (!members.empty()) {
        if (ctx.window.active()) {
            if (bn) throw std::logic_error("a vector chain with batch_norm over parts of an on-chip tensor: " + y.name);
            lower_vector_stream(ctx, op, build(ctx.window.cols, members));
            ctx.epilogue_fused = true;
            return;
        }
        for (int64_t c : row_views(ctx, bn ? *bn : op)) {
            VectorStream s = build(c, members);
            if (max_chunk_units(ctx, s.buffers) == 0) continue;
            lower_vector_stream(ctx, op, s);
            ctx.epilogue_fused = true;
            return;
        }
    }
    // Alone: the first of its rows whose single row fits L1, else single
    // elements. A group's members then run on their own (lowered after it).
    if (!members.empty())
        ctx.epilogue_unfused = std::string("not one row of the group's buffers fits ") + vector_memory_name(ctx.config);
    if (ctx.window.active()) return lower_vector_stream(ctx, op, build(ctx.window.cols, {}));
    std::vector<int64_t> cols = row_views(ctx, op);
    cols.push_back(1);
    for (int64_t c : cols) {
        VectorStream s = build(c, {});
        if (c == 1 || max_chunk_units(ctx, s.buffers) > 0) return lower_vector_stream(ctx, op, s);
    }
}

}  // namespace dsl
