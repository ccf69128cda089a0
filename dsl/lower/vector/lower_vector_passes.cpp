#include "dsl/lower/vector/lower_vector_passes.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "dsl/lower/vector/lower_vector_inputs.h"
#include "dsl/lower/vector/lower_vector_stream.h"
#include "sim/arch/ceil_div.h"

namespace dsl {

namespace {

using arch::VectorOp;
constexpr uint64_t kNone = arch::kNoAddress;

// The pieces of a row of R elements: the fewest pieces P, each of at most
// w = ceil(R / P) elements, for which `buffers(w, P)` fits L1 (P = 0 when
// none does: the per-piece statistics grow with P as the pieces shrink).
struct Pieces {
    int64_t w = 0, P = 0;
};
Pieces choose_pieces(const LowerContext& ctx, int64_t R,
                     const std::function<std::vector<BufferSpec>(int64_t w, int64_t P)>& buffers) {
    const int64_t l1 = ctx.config.l1_bytes();
    for (int64_t P = 1; P <= R && P * 2 <= l1; ++P) {
        const int64_t w = arch::ceil_div(R, P);
        if (P > 1 && arch::ceil_div(R, P - 1) == w) continue;  // the same pieces as P - 1
        if (max_chunk_units(ctx, buffers(w, P)) > 0) return {w, P};
    }
    return {};
}

// Where unit u of a stream of `passes` passes over P pieces per row is.
struct Unit {
    int64_t row, pass, piece, c0, cols;
};

// The shared frame: the op's input x streamed piece by piece (cast to the
// compute dtype on arrival), a `passes`-pass stream over every row.
struct RowPasses {
    int64_t rows = 0, R = 0, passes = 1;
    Pieces pc;
    arch::DType xt = arch::DType::Float16, t = arch::DType::Float16;
    int64_t ei = 2, ec = 2;
    uint64_t x_ddr = 0, y_ddr = 0;
    std::string xname, yname;

    Unit unit(int64_t u) const {
        Unit n;
        n.row = u / (passes * pc.P);
        n.pass = u / pc.P % passes;
        n.piece = u % pc.P;
        n.c0 = n.piece * pc.w;
        n.cols = std::min(pc.w, R - n.c0);
        return n;
    }
    // Loads the piece of x into buffer `raw`, cast into `cast` if the
    // dtypes differ; returns where the piece is in the compute dtype.
    uint64_t load_x(ChunkCommands& cc, const Unit& n, uint64_t raw, uint64_t cast) const {
        cc.loads.push_back(
            {load_dma(x_ddr + uint64_t((n.row * R + n.c0) * ei), raw, uint64_t(n.cols * ei)), xname + " piece -> L1"});
        if (xt == t) return raw;
        cc.compute.push_back({cast_args(xt, t, 1, n.cols, raw, cast), yname + ": cast " + xname});
        return cast;
    }
    void add(ChunkCommands& cc, VectorOp o, int64_t cols, uint64_t s0, uint64_t s1, uint64_t d,
             arch::VectorSource in1 = {}) const {
        cc.compute.push_back(
            {with_sources(vector_args(o, t, 1, cols, s0, s1, d), {}, in1), yname + ": " + arch::vector_op_name(o)});
    }
    uint64_t at(uint64_t base, int64_t element) const { return base + uint64_t(element * ec); }
};

// Fills the frame for op (input 0 -> output) or returns false for an
// on-chip input or output.
bool frame(const LowerContext& ctx, const OpNode& op, int64_t rows, int64_t R, int64_t passes, RowPasses& f) {
    if (ctx.in_place(op.inputs[0]) || ctx.in_place(op.output)) return false;
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    f.rows = rows, f.R = R, f.passes = passes;
    f.xt = x.dtype, f.t = y.dtype;
    f.ei = arch::dtype_bytes(x.dtype), f.ec = arch::dtype_bytes(y.dtype);
    f.x_ddr = ctx.ddr_addr(op.inputs[0]), f.y_ddr = ctx.ddr_addr(op.output);
    f.xname = x.name, f.yname = y.name;
    return true;
}

VectorStream stream_of(const RowPasses& f) {
    VectorStream s;
    s.name = f.yname;
    s.units = f.rows * f.passes * f.pc.P;
    s.group = f.passes * f.pc.P;
    s.max_chunk_units = 1;
    return s;
}

BufferSpec buf(BufferKind k, int64_t bytes) { return {k, bytes, 0}; }

}  // namespace

// Two passes per row. Pass 1, piece j: m_j = reduce_max, sub m_j, exp,
// s_j = reduce_sum; after the last piece the row's max M = reduce_max(m)
// and sum S = reduce_sum(s * exp(m - M)) (5 commands on P values). Pass 2,
// piece j: sub M, exp, div S, store.
namespace {

bool softmax_passes(LowerContext& ctx, const OpNode& op, RowPasses f) {
    const int64_t R = f.R;
    const bool cast = f.xt != f.t;
    // 0 x, 1 x cast, 2 work, 3 partials [m | s | pad], 4 stats [M, S | pad],
    // 5 y. Values read broadcast over a piece own the piece's extent after
    // them (lower_vector_inputs.h).
    auto buffers = [&](int64_t w, int64_t P) {
        return std::vector<BufferSpec>{buf(BufferKind::Streamed, w * f.ei),
                                       buf(BufferKind::Scratch, cast ? w * f.ec : 0),
                                       buf(BufferKind::Scratch, std::max(w, P) * f.ec),
                                       buf(BufferKind::Scratch, (2 * P + w) * f.ec),
                                       buf(BufferKind::Scratch, (std::max(w, P) + 2) * f.ec),
                                       buf(BufferKind::Result, w * f.ec)};
    };
    f.pc = choose_pieces(ctx, R, buffers);
    if (f.pc.P == 0) return false;
    VectorStream s = stream_of(f);
    s.buffers = buffers(f.pc.w, f.pc.P);
    s.stores = [f](int64_t u) { return f.unit(u).pass == 1; };
    s.chunk = [f](int64_t u, int64_t, const BufferAddrs& a) {
        const Unit n = f.unit(u);
        const int64_t P = f.pc.P, c = n.cols;
        ChunkCommands cc;
        const uint64_t x = f.load_x(cc, n, a[0], a[1]);
        const uint64_t m = a[3], sums = f.at(a[3], P), M = a[4], S = f.at(a[4], 1);
        if (n.pass == 0) {
            const uint64_t mj = f.at(m, n.piece);
            f.add(cc, VectorOp::ReduceMax, c, x, kNone, mj);
            f.add(cc, VectorOp::Sub, c, x, mj, a[2], per_row_source(1, c));
            f.add(cc, VectorOp::Exp, c, a[2], kNone, a[2]);
            f.add(cc, VectorOp::ReduceSum, c, a[2], kNone, f.at(sums, n.piece));
            if (n.piece == P - 1) {
                f.add(cc, VectorOp::ReduceMax, P, m, kNone, M);
                f.add(cc, VectorOp::Sub, P, m, M, a[2], per_row_source(1, P));
                f.add(cc, VectorOp::Exp, P, a[2], kNone, a[2]);
                f.add(cc, VectorOp::Mul, P, a[2], sums, a[2]);
                f.add(cc, VectorOp::ReduceSum, P, a[2], kNone, S);
            }
        } else {
            f.add(cc, VectorOp::Sub, c, x, M, a[5], per_row_source(1, c));
            f.add(cc, VectorOp::Exp, c, a[5], kNone, a[5]);
            f.add(cc, VectorOp::Div, c, a[5], S, a[5], per_row_source(1, c));
            cc.stores.push_back({store_dma(a[5], f.y_ddr + uint64_t((n.row * f.R + n.c0) * f.ec), uint64_t(c * f.ec)),
                                 f.yname + " piece -> DDR"});
        }
        return cc;
    };
    lower_vector_stream(ctx, op, s);
    return true;
}

// The frame of a stage between DDR tensors of its own.
RowPasses frame_at(const LowerContext& ctx, const OpNode& op, int64_t rows, int64_t R, int64_t passes,
                   const RowEnds& ends) {
    RowPasses f;
    f.rows = rows, f.R = R, f.passes = passes;
    f.xt = ends.src_dtype, f.t = ctx.tensor(op.output).dtype;
    f.ei = arch::dtype_bytes(f.xt), f.ec = arch::dtype_bytes(f.t);
    f.x_ddr = ends.src, f.y_ddr = ends.dst;
    f.xname = ends.src_name, f.yname = ends.dst_name;
    return f;
}

}  // namespace

bool lower_softmax_passes(LowerContext& ctx, const OpNode& op, int64_t rows, int64_t R) {
    RowPasses f;
    if (!frame(ctx, op, rows, R, 2, f)) return false;
    return softmax_passes(ctx, op, f);
}

bool lower_softmax_passes_at(LowerContext& ctx, const OpNode& op, int64_t rows, int64_t R, const RowEnds& ends) {
    return softmax_passes(ctx, op, frame_at(ctx, op, rows, R, 2, ends));
}

// Three passes per row, as the one-pass form's arithmetic: pass 1 sums the
// pieces (mean = reduce_sum(partials) * 1/D), pass 2 sums the squared
// differences (sqrt(reduce_sum(partials) * 1/D + eps)), pass 3 loads x,
// scale and shift pieces: sub mean, div, mul scale, add shift, store.
bool lower_layer_norm_passes(LowerContext& ctx, const OpNode& op, int64_t rows, int64_t D) {
    RowPasses f;
    if (!frame(ctx, op, rows, D, 3, f)) return false;
    for (size_t k = 1; k < 3; ++k)
        if (ctx.in_place(op.inputs[k])) return false;
    const bool cast = f.xt != f.t;
    const TensorNode& g = ctx.tensor(op.inputs[1]);
    const TensorNode& b = ctx.tensor(op.inputs[2]);
    const arch::DType gt = g.dtype, bt = b.dtype;
    const int64_t eg = arch::dtype_bytes(gt), eb = arch::dtype_bytes(bt);
    // 0 x, 1 x cast, 2 work, 3 partials, 4 stats [mean, sqrt(var + eps) |
    // pad], 5 scale, 6 scale cast, 7 shift, 8 shift cast, 9 y.
    auto buffers = [&](int64_t w, int64_t P) {
        return std::vector<BufferSpec>{buf(BufferKind::Streamed, w * f.ei),
                                       buf(BufferKind::Scratch, cast ? w * f.ec : 0),
                                       buf(BufferKind::Scratch, w * f.ec),
                                       buf(BufferKind::Scratch, (P + w) * f.ec),
                                       buf(BufferKind::Scratch, (w + 2) * f.ec),
                                       buf(BufferKind::Streamed, w * eg),
                                       buf(BufferKind::Scratch, gt != f.t ? w * f.ec : 0),
                                       buf(BufferKind::Streamed, w * eb),
                                       buf(BufferKind::Scratch, bt != f.t ? w * f.ec : 0),
                                       buf(BufferKind::Result, w * f.ec)};
    };
    f.pc = choose_pieces(ctx, D, buffers);
    if (f.pc.P == 0) return false;
    VectorStream s = stream_of(f);
    s.buffers = buffers(f.pc.w, f.pc.P);
    s.stores = [f](int64_t u) { return f.unit(u).pass == 2; };
    const uint64_t g_ddr = ctx.ddr_addr(op.inputs[1]), b_ddr = ctx.ddr_addr(op.inputs[2]);
    const std::string gname = g.name, bname = b.name;
    const arch::VectorSource inv_d = scalar_source(1.0 / double(D)), eps = scalar_source(op.attrs.at("eps").f);
    s.chunk = [=](int64_t u, int64_t, const BufferAddrs& a) {
        const Unit n = f.unit(u);
        const int64_t P = f.pc.P, c = n.cols;
        ChunkCommands cc;
        const uint64_t x = f.load_x(cc, n, a[0], a[1]);
        const uint64_t parts = a[3], mean = a[4], sd = f.at(a[4], 1);
        // A per-row value combined from the P partials, times 1/D.
        auto combine = [&](uint64_t dst) {
            f.add(cc, VectorOp::ReduceSum, P, parts, kNone, dst);
            f.add(cc, VectorOp::Mul, 1, dst, dst, dst, inv_d);
        };
        if (n.pass == 0) {
            f.add(cc, VectorOp::ReduceSum, c, x, kNone, f.at(parts, n.piece));
            if (n.piece == P - 1) combine(mean);
        } else if (n.pass == 1) {
            f.add(cc, VectorOp::Sub, c, x, mean, a[2], per_row_source(1, c));
            f.add(cc, VectorOp::Mul, c, a[2], a[2], a[2]);
            f.add(cc, VectorOp::ReduceSum, c, a[2], kNone, f.at(parts, n.piece));
            if (n.piece == P - 1) {
                combine(sd);
                f.add(cc, VectorOp::Add, 1, sd, sd, sd, eps);
                f.add(cc, VectorOp::Sqrt, 1, sd, kNone, sd);
            }
        } else {
            // The pieces of scale and shift that go with this piece of x.
            auto param = [&](uint64_t ddr, arch::DType pt, const std::string& name, uint64_t raw, uint64_t conv) {
                const int64_t ep = arch::dtype_bytes(pt);
                cc.loads.push_back({load_dma(ddr + uint64_t(n.c0 * ep), raw, uint64_t(c * ep)), name + " piece -> L1"});
                if (pt == f.t) return raw;
                cc.compute.push_back({cast_args(pt, f.t, 1, c, raw, conv), f.yname + ": cast " + name});
                return conv;
            };
            const uint64_t gs = param(g_ddr, gt, gname, a[5], a[6]), bs = param(b_ddr, bt, bname, a[7], a[8]);
            f.add(cc, VectorOp::Sub, c, x, mean, a[9], per_row_source(1, c));
            f.add(cc, VectorOp::Div, c, a[9], sd, a[9], per_row_source(1, c));
            f.add(cc, VectorOp::Mul, c, a[9], gs, a[9]);
            f.add(cc, VectorOp::Add, c, a[9], bs, a[9]);
            cc.stores.push_back({store_dma(a[9], f.y_ddr + uint64_t((n.row * f.R + n.c0) * f.ec), uint64_t(c * f.ec)),
                                 f.yname + " piece -> DDR"});
        }
        return cc;
    };
    lower_vector_stream(ctx, op, s);
    return true;
}

namespace {

// One pass per row: piece j reduces into partial j; after the last piece,
// the partials reduce to the row's value (times `scale` unless it is 1),
// stored.
bool reduction_passes(LowerContext& ctx, const OpNode& op, RowPasses f, VectorOp red, double scale) {
    const bool cast = f.xt != f.t;
    // 0 x, 1 x cast, 2 partials, 3 y (one value).
    auto buffers = [&](int64_t w, int64_t P) {
        return std::vector<BufferSpec>{buf(BufferKind::Streamed, w * f.ei),
                                       buf(BufferKind::Scratch, cast ? w * f.ec : 0),
                                       buf(BufferKind::Scratch, P * f.ec), buf(BufferKind::Result, f.ec)};
    };
    f.pc = choose_pieces(ctx, f.R, buffers);
    if (f.pc.P == 0) return false;
    VectorStream s = stream_of(f);
    s.buffers = buffers(f.pc.w, f.pc.P);
    s.stores = [f](int64_t u) { return f.unit(u).piece == f.pc.P - 1; };
    const arch::VectorSource by = scalar_source(scale);
    s.chunk = [=](int64_t u, int64_t, const BufferAddrs& a) {
        const Unit n = f.unit(u);
        ChunkCommands cc;
        const uint64_t x = f.load_x(cc, n, a[0], a[1]);
        f.add(cc, red, n.cols, x, kNone, f.at(a[2], n.piece));
        if (n.piece == f.pc.P - 1) {
            f.add(cc, red, f.pc.P, a[2], kNone, a[3]);
            if (scale != 1.0) f.add(cc, VectorOp::Mul, 1, a[3], a[3], a[3], by);
            cc.stores.push_back(
                {store_dma(a[3], f.y_ddr + uint64_t(n.row * f.ec), uint64_t(f.ec)), f.yname + " -> DDR"});
        }
        return cc;
    };
    lower_vector_stream(ctx, op, s);
    return true;
}

}  // namespace

bool lower_reduction_passes(LowerContext& ctx, const OpNode& op, int64_t rows, int64_t R, VectorOp red, bool mean) {
    RowPasses f;
    if (!frame(ctx, op, rows, R, 1, f)) return false;
    return reduction_passes(ctx, op, f, red, mean ? 1.0 / double(R) : 1.0);
}

bool lower_reduction_passes_at(LowerContext& ctx, const OpNode& op, int64_t rows, int64_t R, VectorOp red, double scale,
                               const RowEnds& ends) {
    return reduction_passes(ctx, op, frame_at(ctx, op, rows, R, 1, ends), red, scale);
}

}  // namespace dsl
