#include "dsl/lower/gemm/lower_gemm.h"

#include "dsl/lower/placement_mismatch.h"

#include <algorithm>
#include <vector>

#include "sim/arch/ceil_div.h"

namespace dsl {

namespace {

using arch::EngineId;
using arch::EngineKind;
using arch::FlagId;
using arch::Space;

// Where the buffers of one block live in L1 and in each cube's L0.
struct Layout {
    int64_t e, eo;                     // element bytes of A/B and of C
    std::vector<uint64_t> l1_a, l1_b;  // one per panel buffer
    uint64_t l1_c;
    std::vector<uint64_t> l0_a, l0_b;  // one per L0 tile buffer
    uint64_t l0_c;

    Layout(const arch::Config& c, const MatmulTiling& t, const GemmOperands& op)
        : e(arch::dtype_bytes(op.in)), eo(arch::dtype_bytes(op.out)) {
        uint64_t a_panel = uint64_t(op.a->panel_bytes(t));
        uint64_t b_panel = op.b_on_chip ? 0 : uint64_t(t.kb * t.block_cols() * e);
        for (int64_t i = 0; i < t.buffers; ++i) l1_a.push_back(uint64_t(i) * a_panel);
        for (int64_t i = 0; i < t.buffers; ++i) l1_b.push_back(uint64_t(t.buffers) * a_panel + uint64_t(i) * b_panel);
        l1_c = uint64_t(t.buffers) * (a_panel + b_panel);
        uint64_t a_tile = uint64_t(t.mt * t.kt * e), b_tile = uint64_t(t.kt * t.nt * e);
        const uint64_t lb = uint64_t(t.l0_buffers);
        // A split L0 has its A, B and C buffers at fixed places; one L0 packs them.
        const uint64_t b_base = c.l0_split() ? uint64_t(c.l0a_kib) * 1024 : lb * a_tile;
        const uint64_t c_base = c.l0_split() ? uint64_t(c.l0a_kib + c.l0b_kib) * 1024 : lb * (a_tile + b_tile);
        for (uint64_t i = 0; i < lb; ++i) l0_a.push_back(i * a_tile);
        for (uint64_t i = 0; i < lb; ++i) l0_b.push_back(b_base + i * b_tile);
        l0_c = c_base;
    }
};

// One cube's share of a block and the flags it synchronises through.
struct CubeWork {
    int index = 0;
    int64_t row0 = 0, col0 = 0;  // offset of its C tile within the block
    int64_t m = 0, n = 0;        // extent of its C tile
    FlagId a_ready = 0, b_ready = 0, a_free = 0, b_free = 0, l0_ready = 0, l0_free = 0, c_done = 0, c_in_l1 = 0;
    // A fused epilogue's: its operands in L1, its result ready to store.
    FlagId operands_ready = 0, columns_ready = 0, epilogue_done = 0;
};

std::string range(int64_t from, int64_t size) { return std::to_string(from) + ":" + std::to_string(from + size); }

}  // namespace

arch::DmaArgs RowMajorA::load_panel(const GemmPanel& p, const MatmulTiling& t) const {
    return copy2d(Space::DDR, addr_ + uint64_t((p.row0 * row_elems_ + p.k0) * e_), uint64_t(row_elems_ * e_), Space::L1,
                  p.l1, uint64_t(t.kb * e_), p.rows, p.kb * e_);
}

arch::DmaArgs RowMajorA::load_tile(const GemmPanel& p, const MatmulTiling& t, int64_t r, int64_t m, int64_t kk,
                                   int64_t kt, uint64_t l0) const {
    return copy2d(Space::L1, p.l1 + uint64_t((r * t.kb + kk) * e_), uint64_t(t.kb * e_), Space::L0, l0,
                  uint64_t(kt * e_), m, kt * e_);
}

arch::DmaArgs OnChipA::load_panel(const GemmPanel&, const MatmulTiling&) const {
    throw std::logic_error("OnChipA: an on-chip A has no panels to load");
}

arch::DmaArgs OnChipA::load_tile(const GemmPanel& p, const MatmulTiling&, int64_t r, int64_t m, int64_t kk, int64_t kt,
                                 uint64_t l0) const {
    const uint64_t at = uint64_t(((p.row0 + r) * K_ + p.k0 + kk) * e_);
    return copy2d(Space::L1, addr_ + (band_ ? at % band_ : at), uint64_t(K_ * e_), Space::L0, l0, uint64_t(kt * e_), m,
                  kt * e_);
}

void lower_gemm(LowerContext& ctx, const MatmulTiling& t, const GemmOperands& op) {
    const arch::Config& config = ctx.config;
    const Layout L(ctx.config, t, op);
    const int64_t e = L.e, eo = L.eo;
    // Byte offset `at` of an on-chip C, within its band when it is kept in bands.
    const auto c_offset = [&op](int64_t at) { return op.c_band_bytes ? uint64_t(at) % op.c_band_bytes : uint64_t(at); };
    const int64_t b_row = op.b_row_elems > 0 ? op.b_row_elems : op.N;
    const int64_t buffers = t.buffers;     // L1 panel buffers
    const int64_t l0_bufs = t.l0_buffers;  // L0 tile buffers
    const GemmQueues queues = gemm_queues(config);
    const EngineId load_a{EngineKind::ClusterDma, queues.load_a};
    const EngineId load_b{EngineKind::ClusterDma, queues.load_b};
    const EngineId store_c{EngineKind::ClusterDma, queues.store};
    // On-chip operands (dsl/lower/buffer_plan.h) are read from L1 as they are.
    const bool load_a_panels = !op.a->on_chip(), load_b_panels = !op.b_on_chip;
    const uint32_t tag_a_l1 = load_a_panels ? ctx.tag(op.a_name + " panel -> L1") : 0;
    const uint32_t tag_b_l1 = load_b_panels ? ctx.tag(op.b_name + " panel -> L1") : 0;
    const uint32_t tag_a_l0 = ctx.tag(op.a_name + " tile -> L0");
    const uint32_t tag_b_l0 = ctx.tag(op.b_name + " tile -> L0");
    const uint32_t tag_mm = ctx.tag(op.c_name + " += " + op.a_name + " @ " + op.b_name);
    const uint32_t tag_c_l1 = ctx.tag(op.c_name + " tile -> L1");
    // A fused group's store is its last operation's (the tensor it writes).
    const uint32_t tag_c_ddr = op.c_on_chip ? 0
                               : op.epilogue && op.epilogue->store_op >= 0
                                   ? ctx.tags(op.c_name + " tile -> DDR", op.epilogue->store_op)
                                   : ctx.tag(op.c_name + " tile -> DDR");
    const int64_t steps = arch::ceil_div(op.K, t.kb);
    const std::string& name = op.block_name.empty() ? op.c_name : op.block_name;
    // Loop control: step i of an engine's k-loop starts an iteration of the
    // loop (unrolled op.unroll times) when i % op.unroll == 0, and then its
    // first command on that engine carries the overhead.
    const int64_t unroll = std::max<int64_t>(1, op.unroll);
    const uint32_t overhead = uint32_t(config.loop_overhead_cycles);
    auto loop_issue = [&](int64_t step) { return step % unroll == 0 ? overhead : 0u; };

    // §7.2 on a systolic array: an os tile of one fold continues its fold
    // from k-step to k-step (k is its temporal dimension); the other
    // dataflows' k-steps are other folds. One MATMUL, the operation's last,
    // ends its fold schedule.
    const bool systolic = config.systolic();
    const bool os_chain =
        config.cube_dataflow == arch::Dataflow::OS && t.mt <= config.mac_rows && t.nt <= config.mac_cols;
    const int64_t block_rows_n = arch::ceil_div(op.M, t.block_rows()),
                  block_cols_n = arch::ceil_div(op.N, t.block_cols());
    // A fused epilogue (gemm_epilogue.h): each cube's C tile sits in its
    // own slot of the C block, contiguous (n elements per row), so that the
    // vector unit works on it as one matrix; then come the epilogue's other
    // tile buffers (a cast's result in its dtype, silu's sigmoid), the
    // transposed result's slots, the streamed operands' and the column
    // vectors, each block in its own dtype.
    static const GemmEpilogue kNone;
    const GemmEpilogue& ep = op.epilogue && !op.c_on_chip ? *op.epilogue : kNone;
    const bool fused = !ep.empty();
    const int64_t block_elems = t.block_rows() * t.block_cols(), slot_elems = t.mt * t.nt;
    uint64_t l1_next = L.l1_c + uint64_t(block_elems * eo);
    // Each tile buffer's base and element bytes (tile 0: the C block).
    std::vector<uint64_t> tile_base{L.l1_c};
    std::vector<int64_t> tile_bytes{eo};
    for (size_t k = 1; k < ep.tiles.size(); ++k) {
        tile_base.push_back(l1_next), tile_bytes.push_back(arch::dtype_bytes(ep.tiles[k]));
        l1_next += uint64_t(block_elems * tile_bytes.back());
    }
    const int64_t ero = fused ? tile_bytes[size_t(ep.result)] : eo;  // the stored result's element bytes
    const uint64_t l1_transposed = l1_next;
    l1_next += ep.transposed_store ? uint64_t(block_elems * ero) : 0;
    std::vector<uint64_t> streamed_base, column_base;
    for (arch::DType d : ep.streamed_dtype)
        streamed_base.push_back(l1_next), l1_next += uint64_t(block_elems * arch::dtype_bytes(d));
    for (arch::DType d : ep.column_dtype)
        column_base.push_back(l1_next), l1_next += uint64_t(t.block_cols() * arch::dtype_bytes(d));
    // Weight-only int8 (GemmOperands::b_dequant): a raw int8 panel per
    // buffer and the block's scales, after everything else. A dequantised
    // panel is `cols` elements wide (its rows contiguous for the vector
    // unit), not block_cols.
    const GemmOperands::DequantB* dq = load_b_panels ? op.b_dequant : nullptr;
    std::vector<uint64_t> l1_raw;
    uint64_t l1_scale = 0;
    if (dq) {
        // The scales first: the multiply reads them as a kb x cols source,
        // whose region (as the program checker sees a broadcast source)
        // runs over the raw panels (l1_bytes_needed counts the larger).
        l1_scale = l1_next;
        for (int64_t i = 0; i < buffers; ++i)
            l1_raw.push_back(l1_scale + uint64_t(t.block_cols() * e + i * t.kb * t.block_cols()));
    }
    const uint32_t tag_raw = dq ? ctx.tag(dq->q_name + " panel -> L1 (int8)") : 0;
    const uint32_t tag_scale = dq ? ctx.tags(dq->scale_name + " -> L1", dq->op) : 0;
    const uint32_t tag_dq_cast = dq ? ctx.tags(op.b_name + ": cast", dq->op) : 0;
    const uint32_t tag_dq_mul = dq ? ctx.tags(op.b_name + ": mul", dq->op) : 0;
    // Cube w's slot of tile buffer k.
    auto tile_of = [&](const CubeWork& w, int k) {
        return tile_base[size_t(k)] + uint64_t(w.index * slot_elems * tile_bytes[size_t(k)]);
    };
    auto c_tile_l1 = [&](const CubeWork& w) {
        return fused ? tile_of(w, 0) : L.l1_c + uint64_t((w.row0 * t.block_cols() + w.col0) * eo);
    };
    auto c_tile_stride = [&](const CubeWork& w) { return uint64_t((fused ? w.n : t.block_cols()) * eo); };
    std::vector<uint32_t> tag_epilogue;
    for (const EpilogueStep& s : ep.steps) tag_epilogue.push_back(ctx.tags(s.label, s.program_op));
    std::vector<uint32_t> tag_operand, tag_columns;
    for (int32_t o : ep.streamed_op) tag_operand.push_back(ctx.tags(op.c_name + " tile operand -> L1", o));
    for (int32_t o : ep.column_op) tag_columns.push_back(ctx.tags(op.c_name + " columns -> L1", o));
    const uint32_t tag_transpose =
        ep.transposed_store ? ctx.tags(op.c_name + " tile transposed (NHWC -> NCHW)", ep.transpose_op) : 0;
    const int64_t vector_units = std::max<int64_t>(1, config.vector_units);
    for (int64_t bi = 0; bi < block_rows_n; ++bi) {
        for (int64_t bj = 0; bj < block_cols_n; ++bj) {
            const bool last_block = op.last_item && bi == block_rows_n - 1 && bj == block_cols_n - 1;
            const int64_t row0 = bi * t.block_rows(), col0 = bj * t.block_cols();
            const int64_t rows = std::min(t.block_rows(), op.M - row0);
            const int64_t cols = std::min(t.block_cols(), op.N - col0);
            BlockBuilder block(name + "[" + range(row0, rows) + ", " + range(col0, cols) + "]");

            std::vector<CubeWork> cubes;
            for (int64_t r = 0; r < t.grid_rows; ++r)
                for (int64_t q = 0; q < t.grid_cols; ++q) {
                    int64_t m = std::min(t.mt, rows - r * t.mt), n = std::min(t.nt, cols - q * t.nt);
                    if (m <= 0 || n <= 0) continue;  // an edge block leaves this cube idle
                    CubeWork w;
                    w.index = int(r * t.grid_cols + q), w.row0 = r * t.mt, w.col0 = q * t.nt, w.m = m, w.n = n;
                    for (FlagId* f :
                         {&w.a_ready, &w.b_ready, &w.a_free, &w.b_free, &w.l0_ready, &w.l0_free, &w.c_done, &w.c_in_l1})
                        *f = block.new_flag();
                    if (fused) {
                        if (!ep.streamed_ddr.empty()) w.operands_ready = block.new_flag();
                        if (!ep.column_ddr.empty()) w.columns_ready = block.new_flag();
                        w.epilogue_done = block.new_flag();
                    }
                    cubes.push_back(w);
                }

            // Weight-only int8: the raw panel's arrival and release (load_b <->
            // vector0) and the scales' arrival.
            const FlagId raw_ready = dq ? block.new_flag() : 0, raw_free = dq ? block.new_flag() : 0;
            const FlagId scale_ready = dq ? block.new_flag() : 0;
            const int64_t b_stride = dq ? cols : t.block_cols();  // a dequantised panel's row, in elements
            if (dq) {
                const uint64_t bytes = uint64_t(dq->per_column ? cols * e : e);
                arch::Command sc =
                    dma_command(copy2d(Space::DDR, dq->scale_addr + uint64_t(dq->per_column ? col0 * e : 0), 0,
                                       Space::L1, l1_scale, 0, 1, int64_t(bytes)),
                                tag_scale);
                sc.sets.push_back(scale_ready);
                block.stream(load_b).push_back(std::move(sc));
            }
            auto panel = [&](int64_t s) {
                const int64_t k0 = s * t.kb;
                return GemmPanel{row0, rows, k0, std::min(t.kb, op.K - k0), L.l1_a[size_t(s % buffers)]};
            };
            // DDR -> L1: panel s goes to buffer s % buffers once every cube
            // has finished reading panel s - buffers from it.
            for (int64_t s = 0; s < steps; ++s) {
                const GemmPanel p = panel(s);
                const uint64_t l1_b = L.l1_b[size_t(s % buffers)];
                // Each load waits for every cube to release panel s - buffers
                // and tells every cube it has arrived.
                auto panel_load = [&](const arch::DmaArgs& d, uint32_t tag, FlagId CubeWork::*free,
                                      FlagId CubeWork::*ready) {
                    arch::Command cmd = dma_command(d, tag);
                    for (const CubeWork& w : cubes) {
                        if (s >= buffers) cmd.waits.push_back(w.*free);
                        cmd.sets.push_back(w.*ready);
                    }
                    return cmd;
                };
                // The first command of each engine's step pays the loop issue.
                if (load_a_panels) {
                    arch::Command a =
                        panel_load(op.a->load_panel(p, t), tag_a_l1, &CubeWork::a_free, &CubeWork::a_ready);
                    a.issue_cycles = loop_issue(s);
                    block.stream(load_a).push_back(std::move(a));
                }
                if (dq) {
                    // The int8 rows DDR -> L1, then on vector0 a cast to the
                    // compute dtype into the panel buffer and a multiply by
                    // the scales (per column, or one), which hands the
                    // panel to the cubes.
                    arch::Command raw =
                        dma_command(copy2d(Space::DDR, op.b_addr + uint64_t(p.k0 * b_row + col0), uint64_t(b_row),
                                           Space::L1, l1_raw[size_t(s % buffers)], uint64_t(cols), p.kb, cols),
                                    tag_raw);
                    if (s >= buffers) raw.waits.push_back(raw_free);
                    raw.sets.push_back(raw_ready);
                    if (load_b != load_a || !load_a_panels) raw.issue_cycles = loop_issue(s);
                    block.stream(load_b).push_back(std::move(raw));
                    auto& vec = block.stream(EngineId{EngineKind::Vector, 0});
                    arch::VectorArgs cast;
                    cast.op = arch::VectorOp::Cast, cast.dtype = arch::DType::Int8, cast.cast_to = op.in;
                    cast.rows = uint32_t(p.kb), cast.cols = uint32_t(cols);
                    cast.src0 = l1_raw[size_t(s % buffers)], cast.dst = l1_b;
                    arch::Command c = vector_command(cast, tag_dq_cast);
                    c.waits.push_back(raw_ready);
                    if (s >= buffers)
                        for (const CubeWork& w : cubes) c.waits.push_back(w.b_free);
                    c.sets.push_back(raw_free);
                    vec.push_back(std::move(c));
                    arch::VectorArgs mul;
                    mul.op = arch::VectorOp::Mul, mul.dtype = op.in, mul.rows = uint32_t(p.kb),
                    mul.cols = uint32_t(cols);
                    mul.src0 = l1_b, mul.src1 = l1_scale, mul.dst = l1_b;
                    arch::VectorSource per;
                    per.kind = arch::VectorSource::Kind::Strided;
                    per.dims = {uint32_t(p.kb), uint32_t(cols)}, per.strides = {0, dq->per_column ? 1 : 0};
                    mul.in1 = std::make_shared<arch::VectorSource>(per);
                    arch::Command m = vector_command(mul, tag_dq_mul);
                    if (s == 0) m.waits.push_back(scale_ready);
                    for (const CubeWork& w : cubes) m.sets.push_back(w.b_ready);
                    vec.push_back(std::move(m));
                } else if (load_b_panels) {
                    arch::Command b = panel_load(
                        op.b_transposed
                            ? copy2d(Space::DDR, op.b_addr + uint64_t((col0 * op.K + p.k0) * e), uint64_t(op.K * e),
                                     Space::L1, l1_b, uint64_t(t.kb * e), cols, p.kb * e)
                            : copy2d(Space::DDR, op.b_addr + uint64_t((p.k0 * b_row + col0) * e), uint64_t(b_row * e),
                                     Space::L1, l1_b, uint64_t(t.block_cols() * e), p.kb, cols * e),
                        tag_b_l1, &CubeWork::b_free, &CubeWork::b_ready);
                    if (load_b != load_a || !load_a_panels) b.issue_cycles = loop_issue(s);
                    block.stream(load_b).push_back(std::move(b));
                }
            }

            // The epilogue's operands, queued after the panels: the block's
            // column vectors once, each cube's tile of every streamed operand.
            if (fused) {
                auto& loads = block.stream(load_b);
                for (size_t v = 0; v < ep.column_ddr.size(); ++v) {
                    const int64_t ce = arch::dtype_bytes(ep.column_dtype[v]);
                    arch::Command c = dma_command(copy2d(Space::DDR, ep.column_ddr[v] + uint64_t(col0 * ce), 0,
                                                         Space::L1, column_base[v], 0, 1, cols * ce),
                                                  tag_columns[v]);
                    for (const CubeWork& w : cubes) c.sets.push_back(w.columns_ready);
                    loads.push_back(std::move(c));
                }
                for (const CubeWork& w : cubes)
                    for (size_t k = 0; k < ep.streamed_ddr.size(); ++k) {
                        const int64_t se = arch::dtype_bytes(ep.streamed_dtype[k]);
                        const uint64_t dst = streamed_base[k] + uint64_t(w.index * slot_elems * se);
                        const int64_t r = row0 + w.row0, q = col0 + w.col0;
                        const uint64_t src = ep.streamed_ddr[k] + uint64_t(op.epilogue_offset * se);
                        // NCHW: n channel rows of m pixels; else m rows of n.
                        arch::Command c = dma_command(
                            ep.streamed_transposed[k]
                                ? copy2d(Space::DDR, src + uint64_t((q * op.M + r) * se), uint64_t(op.M * se),
                                         Space::L1, dst, uint64_t(w.m * se), w.n, w.m * se)
                                : copy2d(Space::DDR, src + uint64_t((r * op.N + q) * se), uint64_t(op.N * se),
                                         Space::L1, dst, uint64_t(w.n * se), w.m, w.n * se),
                            tag_operand[k]);
                        c.sets.push_back(w.operands_ready);
                        loads.push_back(std::move(c));
                    }
            }

            for (const CubeWork& w : cubes) {
                const EngineId dma{EngineKind::CubeDma, w.index}, mac{EngineKind::Cube, w.index};
                auto& moves = block.stream(dma);
                auto& macs = block.stream(mac);
                int64_t u = 0;  // L0 step: buffer u % l0_bufs, reused after the MATMUL of step u - l0_bufs
                for (int64_t s = 0; s < steps; ++s) {
                    const GemmPanel p = panel(s);
                    const uint64_t l1_b = L.l1_b[size_t(s % buffers)];
                    const int64_t tiles = arch::ceil_div(p.kb, t.kt);
                    for (int64_t k = 0; k < tiles; ++k, ++u) {
                        const int64_t kt = std::min(t.kt, p.kb - k * t.kt);
                        arch::Command a = dma_command(
                            op.a->load_tile(p, t, w.row0, w.m, k * t.kt, kt, L.l0_a[size_t(u % l0_bufs)]), tag_a_l0);
                        arch::Command b = dma_command(
                            op.b_on_chip ? copy2d(Space::L1,
                                                  op.b_addr + uint64_t(((p.k0 + k * t.kt) * op.N + col0 + w.col0) * e),
                                                  uint64_t(op.N * e), Space::L0, L.l0_b[size_t(u % l0_bufs)],
                                                  uint64_t(w.n * e), kt, w.n * e)
                            : op.b_transposed
                                ? copy2d(Space::L1, l1_b + uint64_t((w.col0 * t.kb + k * t.kt) * e), uint64_t(t.kb * e),
                                         Space::L0, L.l0_b[size_t(u % l0_bufs)], uint64_t(kt * e), w.n, kt * e)
                                : copy2d(Space::L1, l1_b + uint64_t((k * t.kt * b_stride + w.col0) * e),
                                         uint64_t(b_stride * e), Space::L0, L.l0_b[size_t(u % l0_bufs)],
                                         uint64_t(w.n * e), kt, w.n * e),
                            tag_b_l0);
                        if (k == 0 && load_a_panels) a.waits.push_back(w.a_ready);
                        if (k == 0 && load_b_panels) b.waits.push_back(w.b_ready);
                        if (u >= l0_bufs) a.waits.push_back(w.l0_free);
                        if (k == tiles - 1 && load_a_panels) a.sets.push_back(w.a_free);
                        if (k == tiles - 1 && load_b_panels) b.sets.push_back(w.b_free);
                        b.sets.push_back(w.l0_ready);
                        a.issue_cycles = loop_issue(u);
                        moves.push_back(std::move(a));
                        moves.push_back(std::move(b));

                        arch::MatmulArgs mm;
                        mm.m = uint32_t(w.m), mm.k = uint32_t(kt), mm.n = uint32_t(w.n);
                        mm.dtype = op.in;
                        mm.accumulate = u > 0;
                        mm.fold_continues = os_chain && u > 0;
                        mm.schedule_continues = systolic;  // cleared below on the operation's last
                        // A transposed B (conv2d's filters) reaches L0 as n x kt rows; an on-chip B is always k x n.
                        mm.b_transposed = op.b_transposed && !op.b_on_chip;
                        mm.a_addr = L.l0_a[size_t(u % l0_bufs)], mm.b_addr = L.l0_b[size_t(u % l0_bufs)],
                        mm.c_addr = L.l0_c;
                        arch::Command c = matmul_command(mm, tag_mm);
                        c.issue_cycles = loop_issue(u);
                        c.waits.push_back(w.l0_ready);
                        c.sets.push_back(w.l0_free);
                        macs.push_back(std::move(c));
                    }
                }
                macs.back().sets.push_back(w.c_done);
                if (last_block && &w == &cubes.back()) macs.back().mm.schedule_continues = false;

                // Write-back: the float32 accumulator to L1 (narrowed in flight
                // when C is float16), then L1 to C's rows in DDR.
                // An on-chip C is written in place, its rows N apart.
                arch::DmaArgs to_l1 = op.c_on_chip
                                          ? copy2d(Space::L0, L.l0_c, uint64_t(w.n * 4), Space::L1,
                                                   op.c_addr + c_offset(((row0 + w.row0) * op.N + col0 + w.col0) * eo),
                                                   uint64_t(op.N * eo), w.m, w.n * eo)
                                          : copy2d(Space::L0, L.l0_c, uint64_t(w.n * 4), Space::L1, c_tile_l1(w),
                                                   c_tile_stride(w), w.m, w.n * eo);
                // int32 (an int8 GEMM's C) is written back as it is, as float32 is.
                to_l1.convert_f32_to_f16 = arch::dtype_bytes(op.out) == 2;
                if (to_l1.convert_f32_to_f16) to_l1.narrow_to = op.out;
                arch::Command c1 = dma_command(to_l1, tag_c_l1);
                c1.waits.push_back(w.c_done);
                if (!op.c_on_chip) c1.sets.push_back(w.c_in_l1);
                moves.push_back(std::move(c1));

                // The epilogue on the tile in L1, in place; a transposed
                // store transposes it last into its slot.
                if (!fused) continue;
                auto& vec = block.stream(EngineId{EngineKind::Vector, int(w.index % vector_units)});
                const size_t first = vec.size();
                for (size_t k = 0; k < ep.steps.size(); ++k) {
                    const EpilogueStep& s = ep.steps[k];
                    const uint64_t tile = tile_of(w, s.src);
                    arch::VectorArgs v;
                    v.op = s.op, v.dtype = s.dtype, v.rows = uint32_t(w.m), v.cols = uint32_t(w.n);
                    if (s.op == arch::VectorOp::Cast) v.cast_to = ep.tiles[size_t(s.dst)];
                    v.src0 = tile, v.dst = tile_of(w, s.dst);
                    std::shared_ptr<const arch::VectorSource> other;
                    uint64_t other_addr = tile;
                    arch::Command c;
                    if (s.operand == EpilogueStep::Operand::Scalar) {
                        arch::VectorSource src;
                        src.kind = arch::VectorSource::Kind::Scalar, src.scalar = s.scalar;
                        other = std::make_shared<arch::VectorSource>(src);
                    } else if (s.operand == EpilogueStep::Operand::PerColumn) {
                        arch::VectorSource src;
                        src.kind = arch::VectorSource::Kind::Strided;
                        src.dims = {uint32_t(w.m), uint32_t(w.n)}, src.strides = {0, 1};
                        other = std::make_shared<arch::VectorSource>(src);
                        other_addr = column_base[size_t(s.slot)] +
                                     uint64_t(w.col0 * arch::dtype_bytes(ep.column_dtype[size_t(s.slot)]));
                    } else if (s.operand == EpilogueStep::Operand::Tile) {
                        other_addr = tile_of(w, s.slot);
                    } else if (s.operand == EpilogueStep::Operand::Streamed) {
                        other_addr =
                            streamed_base[size_t(s.slot)] +
                            uint64_t(w.index * slot_elems * arch::dtype_bytes(ep.streamed_dtype[size_t(s.slot)]));
                        if (ep.streamed_transposed[size_t(s.slot)]) {
                            arch::VectorSource src;
                            src.kind = arch::VectorSource::Kind::Strided;
                            src.dims = {uint32_t(w.m), uint32_t(w.n)}, src.strides = {1, w.m};
                            other = std::make_shared<arch::VectorSource>(src);
                        }
                    }
                    if (arch::vector_op_is_binary(s.op)) {
                        if (s.tile_first) v.src1 = other_addr, v.in1 = other;
                        else v.src0 = other_addr, v.in0 = other, v.src1 = tile;
                    }
                    c = vector_command(v, tag_epilogue[k]);
                    if (s.operand == EpilogueStep::Operand::Streamed) c.waits.push_back(w.operands_ready);
                    if (s.operand == EpilogueStep::Operand::PerColumn) c.waits.push_back(w.columns_ready);
                    vec.push_back(std::move(c));
                }
                if (ep.transposed_store) {
                    arch::VectorArgs v;
                    v.op = arch::VectorOp::Transpose, v.dtype = ep.result_dtype();
                    v.rows = uint32_t(w.m), v.cols = uint32_t(w.n);
                    v.src0 = tile_of(w, ep.result), v.dst = l1_transposed + uint64_t(w.index * slot_elems * ero);
                    vec.push_back(vector_command(v, tag_transpose));
                }
                vec[first].waits.insert(vec[first].waits.begin(), w.c_in_l1);
                vec.back().sets.push_back(w.epilogue_done);
            }
            for (const CubeWork& w : cubes) {
                if (op.c_on_chip) break;
                const int64_t r = row0 + w.row0, q = col0 + w.col0;
                // Transposed (NCHW): n channel rows of m pixels, M apart.
                // A fused result is in its own dtype (a cast's) in its tile buffer.
                const uint64_t from = fused ? tile_of(w, ep.result) : c_tile_l1(w);
                const uint64_t from_stride = fused ? uint64_t(w.n * ero) : c_tile_stride(w);
                arch::Command c2 = dma_command(
                    ep.transposed_store
                        ? copy2d(Space::L1, l1_transposed + uint64_t(w.index * slot_elems * ero), uint64_t(w.m * ero),
                                 Space::DDR, op.c_addr + uint64_t((q * op.M + r) * ero), uint64_t(op.M * ero), w.n,
                                 w.m * ero)
                        : copy2d(Space::L1, from, from_stride, Space::DDR, op.c_addr + uint64_t((r * op.N + q) * ero),
                                 uint64_t(op.N * ero), w.m, w.n * ero),
                    tag_c_ddr);
                c2.waits.push_back(fused ? w.epilogue_done : w.c_in_l1);
                block.stream(store_c).push_back(std::move(c2));
            }
            // A block over rows of A or C kept in bands runs on the band's
            // cluster; its rows must be one band's.
            const int32_t outer_pin = ctx.pin;
            for (const int64_t band : {op.a_band_rows, op.c_band_rows}) {
                if (band == 0) continue;
                if (row0 / band != (row0 + rows - 1) / band)
                    throw PlacementMismatch{band == op.c_band_rows ? op.c_tensor : op.a_tensor,
                                            "block '" + name + "[" + range(row0, rows) + ", " + range(col0, cols) +
                                                "]' of matmul spans two of its bands of " + std::to_string(band) +
                                                " rows",
                                            false, true};
                ctx.pin = int32_t(row0 / band);
            }
            ctx.add_block(block);
            ctx.pin = outer_pin;
        }
    }
}

}  // namespace dsl
