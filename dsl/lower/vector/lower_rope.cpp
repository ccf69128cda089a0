// rope on the streamed vector pipeline, rotate_half done by the sources'
// addressing (arch::VectorSource::Strided), so no half of x ever goes
// back to DDR. With H = HD / 2, rotate_half(x) * sin = swap(x * sw), where
// swap exchanges the halves of each row and sw = swap(sin with its first
// half negated) = [sin2, -sin1] (the halves of a row of sin). Per block
// (its prologue, S x HD elements each, after cos and sin are loaded):
//   p[0 : S*HD] = copy(sin); p[S*HD : 2*S*HD] = sin * -1
// and per chunk of n rows (n x HD each):
//   y = x * cos;  z = x * sw (read from p);  y = y + swap(z)
// sw reads p through one strided view: (l, s, h, k) of the output, for
// leading index l, position s, half h and k < H, reads p + H + s*HD +
// h*(S*HD - H) + k, i.e. sin2 for h = 0 and -sin1 for h = 1; swap(z) reads
// z + H + r*HD - h*H + k. Both views start H elements into their buffer,
// which holds H elements more than the command's extent, so every element
// a command names lies in memory this op owns. The vector unit has no
// negation and no fused multiply-add: three passes per element is the
// least for x*cos + y*sin with binary commands.
//
// Tables that do not fit L1 beside one chunk (long prefill sequences:
// S > 254 at HD 128 float16 on the default L1) are streamed instead: each
// chunk loads the cos and sin rows of its own positions (one DMA per run
// of consecutive positions, two where a chunk wraps from position S - 1 to
// 0) into its slots, casts them if their dtype is not the compute dtype,
// and computes its own p = [sin, sin * -1] (n x HD each): the same three
// passes plus that negation, a fourth n x HD pass per chunk, and the
// tables' bytes once per leading index instead of once per block. The
// resident form is kept where it fits, so those programs time as before.
#include "dsl/lower/vector/lower_vector.h"
#include "dsl/lower/vector/lower_vector_inputs.h"
#include "dsl/lower/vector/lower_vector_stream.h"

#include <algorithm>

namespace dsl {

namespace {

void lower_rope_streamed(LowerContext& ctx, const OpNode& op);

}  // namespace

void lower_rope(LowerContext& ctx, const OpNode& op) {
    using arch::VectorOp;
    const TensorNode& y = ctx.tensor(op.output);
    const TensorNode& table = ctx.tensor(op.inputs[1]);
    const int64_t D = y.shape.back(), H = D / 2, S = table.shape[0], ec = arch::dtype_bytes(y.dtype);
    const int64_t rows = element_count(y.shape) / D;
    const int out = op.output;
    VectorStream s;
    s.name = y.name;
    s.units = rows;
    VectorInputs in(ctx, y.dtype, y.name);
    const int xs = in.streamed(s, op.inputs[0], D);
    const std::vector<uint32_t> dims = dims_of(y.shape);
    const int cos = in.resident(s, op.inputs[1], D, dims, broadcast_strides(table.shape, y.shape));
    const int sin = in.resident(s, op.inputs[2], D, dims, broadcast_strides(table.shape, y.shape));
    const size_t p = s.buffers.size();  // sin and -sin, one after the other
    s.buffers.push_back({BufferKind::Resident, D * ec, 2 * S * D * ec});
    const size_t z = s.buffers.size();
    s.buffers.push_back({BufferKind::Scratch, D * ec, H * ec});
    const size_t yb = s.buffers.size();
    s.buffers.push_back({BufferKind::Streamed, D * ec, 0});
    if (max_chunk_units(ctx, s.buffers) == 0) return lower_rope_streamed(ctx, op);
    // The leading axes of x, the position and the two halves.
    const uint32_t leading = uint32_t(rows / S);
    s.prologue = [in, sin, p, S, D](int64_t, int64_t, const BufferAddrs& a) {
        ChunkCommands cc;
        in.prologue(cc, a);
        const arch::DType t = in.compute();
        const uint64_t sn = in.addr(sin, a), neg = a[p] + uint64_t(S * D) * arch::dtype_bytes(t);
        cc.compute.push_back(
            {vector_args(VectorOp::Copy, t, S, D, sn, arch::kNoAddress, a[p]), in.label(VectorOp::Copy)});
        // The immediate -1's source extent is the sin just read (the
        // descriptor's value is what the functional model uses).
        cc.compute.push_back({with_sources(vector_args(VectorOp::Mul, t, S, D, sn, sn, neg), {}, scalar_source(-1.0)),
                              in.label(VectorOp::Mul)});
        return cc;
    };
    s.chunk = [&ctx, in, xs, cos, p, z, yb, D, H, S, leading, out](int64_t first, int64_t n, const BufferAddrs& a) {
        ChunkCommands cc;
        in.chunk(cc, first, n, a);
        const arch::DType t = in.compute();
        const uint64_t e = uint64_t(arch::dtype_bytes(t));
        const uint64_t x = in.addr(xs, a), y_ = a[yb];
        auto add = [&](VectorOp o, uint64_t s0, uint64_t s1, uint64_t d, arch::VectorSource in0,
                       arch::VectorSource in1) {
            cc.compute.push_back({with_sources(vector_args(o, t, n, D, s0, s1, d), in0, in1), in.label(o)});
        };
        add(VectorOp::Mul, x, in.addr(cos, a), y_, {}, in.source(cos, first * D));
        const arch::VectorSource sw =
            strided_source(uint64_t(first * D), {leading, uint32_t(S), 2, uint32_t(H)}, {0, D, S * D - H, 1});
        add(VectorOp::Mul, x, a[p] + uint64_t(H) * e, a[z], {}, sw);
        const arch::VectorSource swap = strided_source(0, {uint32_t(n), 2, uint32_t(H)}, {D, -H, 1});
        add(VectorOp::Add, y_, a[z] + uint64_t(H) * e, y_, {}, swap);
        store_units(cc, ctx, out, D, first, n, y_);
        return cc;
    };
    lower_vector_stream(ctx, op, s);
}

namespace {

// The tables streamed with the chunks (the file's comment). A unit is a
// row of x; unit u is at position u % S.
void lower_rope_streamed(LowerContext& ctx, const OpNode& op) {
    using arch::VectorOp;
    const TensorNode& y = ctx.tensor(op.output);
    const int64_t D = y.shape.back(), H = D / 2, S = ctx.tensor(op.inputs[1]).shape[0];
    const int64_t ec = arch::dtype_bytes(y.dtype);
    const int out = op.output;
    VectorStream s;
    s.name = y.name;
    s.units = element_count(y.shape) / D;
    VectorInputs in(ctx, y.dtype, y.name);
    const int xs = in.streamed(s, op.inputs[0], D);
    // One table's rows: loaded raw into a Streamed slot, cast into a
    // Scratch buffer when the compute dtype differs. sin's cast (or its
    // load) lands in the first half of p, whose second half is -sin.
    struct Table {
        int tensor;
        std::string name;
        arch::DType dtype;
        uint64_t ddr;
        size_t raw, cast;
    };
    auto table = [&](int tensor, size_t cast_into) {
        const TensorNode& t = ctx.tensor(tensor);
        Table tb{tensor, t.name, t.dtype, ctx.ddr_addr(tensor), s.buffers.size(), cast_into};
        if (t.dtype == y.dtype && cast_into != size_t(-1)) {
            tb.raw = cast_into;  // loaded straight into place
            return tb;
        }
        s.buffers.push_back({BufferKind::Streamed, D * arch::dtype_bytes(t.dtype), 0});
        if (cast_into == size_t(-1)) {
            tb.cast = tb.raw;
            if (t.dtype != y.dtype) {
                tb.cast = s.buffers.size();
                s.buffers.push_back({BufferKind::Scratch, D * ec, 0});
            }
        }
        return tb;
    };
    const Table cos = table(op.inputs[1], size_t(-1));
    // p: sin then -sin; a Streamed slot when sin is loaded into it, else
    // the cast's target (Scratch).
    const size_t p = s.buffers.size();
    const bool sin_in_place = ctx.tensor(op.inputs[2]).dtype == y.dtype;
    s.buffers.push_back({sin_in_place ? BufferKind::Streamed : BufferKind::Scratch, 2 * D * ec, 0});
    const Table sin = table(op.inputs[2], p);
    const size_t z = s.buffers.size();
    s.buffers.push_back({BufferKind::Scratch, D * ec, H * ec});
    const size_t yb = s.buffers.size();
    s.buffers.push_back({BufferKind::Streamed, D * ec, 0});
    s.prologue = in.prologue_fn();
    s.chunk = [&ctx, in, xs, cos, sin, p, z, yb, D, H, S, out](int64_t first, int64_t n, const BufferAddrs& a) {
        ChunkCommands cc;
        in.chunk(cc, first, n, a);
        const arch::DType t = in.compute();
        const uint64_t e = uint64_t(arch::dtype_bytes(t));
        // The rows of positions (first + r) % S, r < n, one DMA per run.
        auto load = [&](const Table& tb) {
            const uint64_t te = uint64_t(arch::dtype_bytes(tb.dtype)), row = uint64_t(D) * te;
            for (int64_t r = 0; r < n;) {
                const int64_t pos = (first + r) % S, run = std::min(n - r, S - pos);
                cc.loads.push_back(
                    {load_dma(tb.ddr + uint64_t(pos) * row, a[tb.raw] + uint64_t(r) * row, uint64_t(run) * row),
                     tb.name + " -> L1"});
                r += run;
            }
            if (tb.cast != tb.raw)
                cc.compute.push_back(
                    {cast_args(tb.dtype, t, n, D, a[tb.raw], a[tb.cast]), in.out_name() + ": cast " + tb.name});
        };
        load(cos);
        load(sin);
        const uint64_t x = in.addr(xs, a), y_ = a[yb], sn = a[p], neg = a[p] + uint64_t(n * D) * e;
        auto add = [&](VectorOp o, uint64_t s0, uint64_t s1, uint64_t d, arch::VectorSource in0,
                       arch::VectorSource in1) {
            cc.compute.push_back({with_sources(vector_args(o, t, n, D, s0, s1, d), in0, in1), in.label(o)});
        };
        add(VectorOp::Mul, sn, sn, neg, {}, scalar_source(-1.0));
        add(VectorOp::Mul, x, a[cos.cast], y_, {}, {});
        // sw = [sin2, -sin1] of each row: (r, h, k) reads p + H + r*D +
        // h*(n*D - H) + k.
        const arch::VectorSource sw = strided_source(0, {uint32_t(n), 2, uint32_t(H)}, {D, n * D - H, 1});
        add(VectorOp::Mul, x, sn + uint64_t(H) * e, a[z], {}, sw);
        const arch::VectorSource swap = strided_source(0, {uint32_t(n), 2, uint32_t(H)}, {D, -H, 1});
        add(VectorOp::Add, y_, a[z] + uint64_t(H) * e, y_, {}, swap);
        store_units(cc, ctx, out, D, first, n, y_);
        return cc;
    };
    lower_vector_stream(ctx, op, s);
}

}  // namespace

}  // namespace dsl
