#include "dsl/lower/movement/lower_data_movement.h"

#include <algorithm>

#include "dsl/lower/gemm/lower_gemm.h"
#include "dsl/support/diagnostics.h"
#include "sim/arch/program_check.h"

namespace dsl {

namespace {

using arch::EngineId;
using arch::EngineKind;
using arch::Space;

int64_t elements(const std::vector<int64_t>& shape, size_t from = 0, size_t to = SIZE_MAX) {
    int64_t n = 1;
    for (size_t k = from; k < std::min(to, shape.size()); ++k) n *= shape[k];
    return n;
}

// Row-major element strides of `shape`.
std::vector<int64_t> strides(const std::vector<int64_t>& shape) {
    std::vector<int64_t> s(shape.size(), 1);
    for (size_t k = shape.size(); k-- > 1;) s[k - 1] = s[k] * shape[k];
    return s;
}

std::string range(int64_t from, int64_t to) { return std::to_string(from) + ":" + std::to_string(to); }

}  // namespace

int64_t staged_piece_bytes(const arch::Config& c) { return c.l1_bytes() / 2; }

void add_copy_pieces(std::vector<CopyPiece>& out, uint64_t src, uint64_t src_stride, uint64_t dst, uint64_t dst_stride,
                     int64_t rows, int64_t row_bytes, int64_t max_bytes, const std::string& load_label,
                     const std::string& store_label) {
    // A contiguous region is one long row: cut it into full-size pieces.
    if (rows > 1 && src_stride == uint64_t(row_bytes) && dst_stride == uint64_t(row_bytes)) {
        row_bytes *= rows;
        rows = 1;
    }
    const int64_t seg = std::min(row_bytes, max_bytes);
    const int64_t band = std::max<int64_t>(1, max_bytes / seg);
    for (int64_t r0 = 0; r0 < rows; r0 += band) {
        const int64_t rr = std::min(band, rows - r0);
        for (int64_t c0 = 0; c0 < row_bytes; c0 += seg) {
            const int64_t cb = std::min(seg, row_bytes - c0);
            CopyPiece p;
            p.load = copy2d(Space::DDR, src + uint64_t(r0) * src_stride + uint64_t(c0), src_stride, Space::L1, 0,
                            uint64_t(cb), rr, cb);
            p.store = copy2d(Space::L1, 0, uint64_t(cb), Space::DDR, dst + uint64_t(r0) * dst_stride + uint64_t(c0),
                             dst_stride, rr, cb);
            p.load_label = load_label, p.store_label = store_label;
            out.push_back(std::move(p));
        }
    }
}

void lower_staged_copies(LowerContext& ctx, const std::string& name, const std::vector<CopyPiece>& pieces) {
    const arch::Config& c = ctx.config;
    const int64_t parallel = arch::blocks_in_flight(ctx.program, c);
    const int64_t n = int64_t(pieces.size());
    const int64_t blocks = std::min(parallel, n);
    const uint64_t half = uint64_t(staged_piece_bytes(c));
    const EngineId load{EngineKind::ClusterDma, 0}, store{EngineKind::ClusterDma, int(c.dma_engines - 1)};
    for (int64_t b = 0; b < blocks; ++b) {
        // Even split: block b moves pieces [n*b/blocks, n*(b+1)/blocks).
        const int64_t first = n * b / blocks, end = n * (b + 1) / blocks;
        BlockBuilder block(name + "[" + range(first, end) + "]");
        const bool one_engine = load == store;
        arch::FlagId loaded = 0, freed = 0;
        if (!one_engine) loaded = block.new_flag(), freed = block.new_flag();
        std::vector<arch::Command> stores;
        for (int64_t i = first; i < end; ++i) {
            const CopyPiece& p = pieces[size_t(i)];
            const uint64_t buffer = uint64_t((i - first) % 2) * half;
            arch::DmaArgs l = p.load, s = p.store;
            l.dst_addr += buffer, s.src_addr += buffer;
            arch::Command lc = dma_command(l, ctx.tag(p.load_label));
            arch::Command sc = dma_command(s, ctx.tag(p.store_label));
            if (one_engine) {
                // load i, then store i - 1: buffer i % 2 was emptied by store i - 2.
                block.stream(load).push_back(std::move(lc));
                if (!stores.empty()) block.stream(load).push_back(std::move(stores.back())), stores.pop_back();
                stores.push_back(std::move(sc));
            } else {
                if (i - first >= 2) lc.waits.push_back(freed);
                lc.sets.push_back(loaded);
                sc.waits.push_back(loaded);
                sc.sets.push_back(freed);
                block.stream(load).push_back(std::move(lc));
                block.stream(store).push_back(std::move(sc));
            }
        }
        for (arch::Command& s : stores) block.stream(load).push_back(std::move(s));
        ctx.add_block(block);
    }
}

void lower_transpose_dma_op(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    const std::vector<int64_t>& perm = op.attrs.at("perm").ints;
    const size_t rank = perm.size();
    const int64_t e = arch::dtype_bytes(x.dtype), max_bytes = staged_piece_bytes(ctx.config);
    const uint64_t src = ctx.ddr_addr(op.inputs[0]), dst = ctx.ddr_addr(op.output);
    const std::string load_label = x.name + " -> L1", store_label = y.name + " -> DDR (transposed)";
    std::vector<CopyPiece> pieces;
    const std::vector<int64_t> in_strides = strides(x.shape), out_strides = strides(y.shape);

    if (swaps_last_two_axes(perm)) {
        // Matrix transposes: a band of source rows (or of a row's columns)
        // goes to L1 as is and is written back transposed by the DMA engine.
        const int64_t R = x.shape[rank - 2], C = x.shape[rank - 1], batch = elements(x.shape, 0, rank - 2);
        const int64_t cs = std::min(C, max_bytes / e), rp = std::max<int64_t>(1, max_bytes / (cs * e));
        for (int64_t b = 0; b < batch; ++b)
            for (int64_t r0 = 0; r0 < R; r0 += rp)
                for (int64_t c0 = 0; c0 < C; c0 += cs) {
                    const int64_t rr = std::min(rp, R - r0), cc = std::min(cs, C - c0);
                    CopyPiece p;
                    p.load = copy2d(Space::DDR, src + uint64_t((b * R * C + r0 * C + c0) * e), uint64_t(C * e),
                                    Space::L1, 0, uint64_t(cc * e), rr, cc * e);
                    p.store = copy2d(Space::L1, 0, uint64_t(cc * e), Space::DDR,
                                     dst + uint64_t((b * R * C + c0 * R + r0) * e), uint64_t(R * e), rr, cc * e);
                    p.store.rearrange = arch::Rearrange{arch::Rearrange::Kind::Transpose, uint32_t(e), 0};
                    p.load_label = load_label, p.store_label = store_label;
                    pieces.push_back(std::move(p));
                }
    } else if (perm.back() == int64_t(rank - 1)) {
        // The last axis stays: whole rows move, gathered with the stride of
        // the input axis that becomes the output's second-to-last.
        const int64_t D = x.shape.back();
        const int64_t run = rank >= 2 ? y.shape[rank - 2] : 1;
        const int64_t run_stride = rank >= 2 ? in_strides[size_t(perm[rank - 2])] : D;
        const int64_t outer = elements(y.shape, 0, rank >= 2 ? rank - 2 : 0);
        for (int64_t o = 0; o < outer; ++o) {
            int64_t src_off = 0, dst_off = 0;
            for (int64_t rest = o, k = int64_t(rank) - 3; k >= 0; --k) {
                const int64_t i = rest % y.shape[size_t(k)];
                rest /= y.shape[size_t(k)];
                src_off += i * in_strides[size_t(perm[size_t(k)])];
                dst_off += i * out_strides[size_t(k)];
            }
            add_copy_pieces(pieces, src + uint64_t(src_off * e), uint64_t(run_stride * e), dst + uint64_t(dst_off * e),
                            uint64_t(D * e), run, D * e, max_bytes, load_label, y.name + " -> DDR");
        }
    } else {
        throw CompileError(op.loc, "transpose: engine='dma' with perm " + attr_text(op.attrs.at("perm")) +
                                       " is not lowered yet (it swaps the last two axes or keeps the last)");
    }
    lower_staged_copies(ctx, y.name, pieces);
}

void lower_concat_op(LowerContext& ctx, const OpNode& op) {
    const TensorNode& y = ctx.tensor(op.output);
    const size_t axis = size_t(op.attrs.at("axis").i);
    const int64_t e = arch::dtype_bytes(y.dtype), max_bytes = staged_piece_bytes(ctx.config);
    // As a matrix: outer rows, each the inputs' inner runs side by side.
    const int64_t outer = elements(y.shape, 0, axis), inner = elements(y.shape, axis);
    std::vector<CopyPiece> pieces;
    int64_t offset = 0;
    for (int in : op.inputs) {
        const TensorNode& x = ctx.tensor(in);
        const int64_t run = elements(x.shape, axis);
        add_copy_pieces(pieces, ctx.ddr_addr(in), uint64_t(run * e), ctx.ddr_addr(op.output) + uint64_t(offset * e),
                        uint64_t(inner * e), outer, run * e, max_bytes, x.name + " -> L1", y.name + " -> DDR");
        offset += run;
    }
    lower_staged_copies(ctx, y.name, pieces);
}

void lower_pixel_shuffle_op(LowerContext& ctx, const OpNode& op) {
    const TensorNode& x = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    if (!x.layout.empty() && x.layout != "NCHW")
        throw CompileError(op.loc, "pixel_shuffle: layout " + x.layout + " is not lowered yet (NCHW only)");
    const int64_t r = op.attrs.at("factor").i;
    const int64_t N = y.shape[0], C = y.shape[1], H = x.shape[2], W = x.shape[3];
    const int64_t e = arch::dtype_bytes(x.dtype), max_bytes = staged_piece_bytes(ctx.config);
    const int64_t plane_row = r * r * W * e;  // one input row of each of the r*r planes
    if (plane_row > max_bytes)
        throw CompileError(op.loc,
                           "pixel_shuffle: one row of the " + std::to_string(r * r) + " planes needs " +
                               std::to_string(plane_row) + " bytes of L1 per buffer, " + std::to_string(max_bytes) +
                               " are available",
                           CompileError::Capacity::L1);
    const int64_t band = std::min(H, max_bytes / plane_row);
    const uint64_t src = ctx.ddr_addr(op.inputs[0]), dst = ctx.ddr_addr(op.output);
    std::vector<CopyPiece> pieces;
    // Per output channel: its r*r input planes, a band of rows at a time,
    // in to L1 as r*r stacked bands, out as r*band rows of the output plane.
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t h0 = 0; h0 < H; h0 += band) {
                const int64_t hb = std::min(band, H - h0);
                CopyPiece p;
                p.load = copy2d(Space::DDR, src + uint64_t((((n * C + c) * r * r * H) + h0) * W * e),
                                uint64_t(H * W * e), Space::L1, 0, uint64_t(hb * W * e), r * r, hb * W * e);
                p.store = copy2d(Space::L1, 0, uint64_t(r * W * e), Space::DDR,
                                 dst + uint64_t(((n * C + c) * H * r + h0 * r) * W * r * e), uint64_t(W * r * e),
                                 hb * r, W * r * e);
                p.store.rearrange = arch::Rearrange{arch::Rearrange::Kind::PixelShuffle, uint32_t(e), uint32_t(r)};
                p.load_label = x.name + " -> L1", p.store_label = y.name + " -> DDR (shuffled)";
                pieces.push_back(std::move(p));
            }
    lower_staged_copies(ctx, y.name, pieces);
}

void lower_move_op(LowerContext& ctx, const OpNode& op) {
    // A buffer kept in DDR (a placement note) is its source: no copy
    // (dsl/lower/program/lower.cpp, place_tensors).
    if (!ctx.on_chip(op.output)) return;
    const TensorNode& src = ctx.tensor(op.inputs[0]);
    const TensorNode& buf = ctx.tensor(op.output);
    const int64_t e = arch::dtype_bytes(src.dtype);
    const int64_t cols = src.shape.empty() ? 1 : src.shape.back();
    int64_t rows = 1;
    for (size_t k = 0; k + 1 < src.shape.size(); ++k) rows *= src.shape[k];
    // A buffer a matmul reads is copied band by band of rows, each band into
    // the L1 of clusters / bands clusters (dsl/lower/row_bands.h: whole into
    // every cluster for one band); any other is split into one band of rows
    // per cluster, which its element-wise readers then follow
    // (dsl/lower/cluster_placement.h).
    const int64_t clusters = ctx.placement ? ctx.placement->clusters() : 1;
    const OnChipTensor& plan = ctx.plan.of(op.output);
    const int64_t pieces = plan.replicated ? clusters : std::min<int64_t>(clusters, rows);
    const int64_t bands = plan.replicated ? plan.bands : pieces;
    for (int64_t k = 0; k < pieces; ++k) {
        const int64_t band = k * bands / pieces;
        const int64_t r0 = band * rows / bands, r1 = (band + 1) * rows / bands;
        const std::string range = bands == 1 ? "" : "[" + std::to_string(r0) + ":" + std::to_string(r1) + "]";
        BlockBuilder block(buf.name + range + " = " + src.name + range);
        const uint64_t offset = uint64_t(r0 * cols * e);
        block.stream({arch::EngineKind::ClusterDma, 0})
            .push_back(dma_command(
                copy2d(arch::Space::DDR, ctx.ddr_addr(op.inputs[0]) + offset, uint64_t(cols * e), arch::Space::L1,
                       ctx.l1_addr(op.output) + offset, uint64_t(cols * e), r1 - r0, cols * e),
                ctx.tag(src.name + " -> " + buf.name)));
        ctx.pin = plan.replicated ? int32_t(k) : -1;
        ctx.add_block(block);
    }
    ctx.pin = -1;
}

}  // namespace dsl
