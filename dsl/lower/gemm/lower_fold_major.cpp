#include "dsl/lower/gemm/lower_fold_major.h"

#include <algorithm>
#include <vector>

#include "dsl/support/diagnostics.h"

#include "sim/arch/ceil_div.h"

namespace dsl {

namespace {

using arch::EngineId;
using arch::EngineKind;
using arch::FlagId;
using arch::Space;

std::string range(int64_t from, int64_t size) { return std::to_string(from) + ":" + std::to_string(from + size); }

// k fold f: K range [k0, k0 + kt), and the A panel that holds it (whole
// channels of a convolution: [kal, kal + kb)).
struct KFold {
    int64_t k0 = 0, kt = 0, kal = 0, kb = 0;
};

KFold k_fold(const arch::Config& c, const GemmShape& g, int64_t f) {
    KFold k;
    k.k0 = f * c.mac_rows;
    k.kt = std::min<int64_t>(c.mac_rows, g.K - k.k0);
    const int64_t unit = g.k_granule ? g.k_granule : 1;
    k.kal = k.k0 / unit * unit;
    k.kb = std::min(g.K, arch::ceil_div(k.k0 + k.kt, unit) * unit) - k.kal;
    return k;
}

// The MatmulTiling a GemmA sizes and addresses its panels by: `rows` rows of
// panels `kb` deep, one cube, two buffers.
MatmulTiling panel_tiling(const arch::Config& c, int64_t rows, int64_t kb) {
    MatmulTiling t;
    t.mt = rows, t.nt = c.mac_cols, t.kt = c.mac_rows;
    t.grid_rows = t.grid_cols = 1;
    t.kb = kb;
    t.buffers = t.l0_buffers = 2;
    return t;
}

// One cube's share of a block: its unit (column fold) and its flags.
struct CubeUnit {
    int index = 0;
    int64_t s0 = 0, su = 0;  // the unit's columns of N (ws) or rows of M (is)
    FlagId s_ready = 0, s_free = 0, w_ready = 0, w_free = 0, l0w_free = 0, l0s_free = 0, l0_ready = 0;
    FlagId mm_done = 0, acc_free = 0, c_in_l1 = 0, c_free = 0, p_stored = 0, p_ready = 0, p_free = 0;
};

}  // namespace

bool fold_major_applies(const arch::Config& c, const GemmShape& shape) {
    const bool stationary = c.cube_dataflow == arch::Dataflow::WS || c.cube_dataflow == arch::Dataflow::IS;
    return stationary && !shape.b_on_chip && !shape.c_on_chip && shape.tile.empty();
}

FoldPlan plan_fold_major(LowerContext& ctx, const OpNode& op, const GemmShape& g) {
    const arch::Config& c = ctx.config;
    const int64_t R = c.mac_rows, C = c.mac_cols, e = arch::dtype_bytes(g.in);
    const int64_t cubes = c.cubes_per_cluster;
    FoldPlan plan;
    plan.ws = c.cube_dataflow == arch::Dataflow::WS;
    const int64_t T = plan.ws ? g.M : g.N;
    for (int64_t f = 0; f * R < g.K; ++f) plan.kb = std::max(plan.kb, k_fold(c, g, f).kb);
    auto a_panel = [&](int64_t rows) {
        if (g.a_on_chip) return int64_t(0);
        const MatmulTiling t = panel_tiling(c, rows, plan.kb);
        return g.a_panel_bytes ? g.a_panel_bytes(t) : rows * plan.kb * e;
    };
    // The temporal extent of one MATMUL: all of it, else the largest power
    // of two below it that fits; partial sums in L0 if possible, else in
    // L1, else in DDR.
    std::vector<int64_t> chunks{T};
    for (int64_t p = int64_t(1) << 40; p >= 1; p /= 2)
        if (p < T) chunks.push_back(p);
    using Partials = FoldPlan::Partials;
    for (Partials partials : {Partials::L0, Partials::L1, Partials::Ddr}) {
        for (int64_t chunk : chunks) {
            const int64_t J = arch::ceil_div(T, chunk);
            const uint64_t acc = uint64_t(chunk * C * 4);
            const uint64_t stream_l0 = uint64_t(chunk * R * e), stat_l0 = uint64_t(R * C * e);
            const uint64_t accs = partials == Partials::L0 ? uint64_t(J) * acc : 2 * acc;
            // ws streams A (L0A) through a B fold (L0B); is the other way.
            const uint64_t a_l0 = plan.ws ? stream_l0 : stat_l0, b_l0 = plan.ws ? stat_l0 : stream_l0;
            bool fits_l0 = c.l0_split()
                               ? 2 * a_l0 <= uint64_t(c.l0a_kib) * 1024 && 2 * b_l0 <= uint64_t(c.l0b_kib) * 1024 &&
                                     accs <= uint64_t(c.l0c_kib) * 1024
                               : 2 * (a_l0 + b_l0) + accs <= uint64_t(c.l0_bytes());
            if (!fits_l0) continue;
            const uint64_t stream_l1 = uint64_t(plan.ws ? a_panel(chunk) : R * chunk * e);
            const uint64_t stat_l1 = uint64_t(plan.ws ? R * C * e : a_panel(C));
            const uint64_t home = partials == Partials::L1 ? uint64_t(J) * acc : 0;
            const uint64_t in = partials == Partials::Ddr ? 2 * acc : 0;
            const uint64_t per_cube = 2 * stat_l1 + 2 * acc + in + home;
            if (2 * stream_l1 + uint64_t(cubes) * per_cube > uint64_t(c.l1_bytes())) continue;
            plan.chunk = chunk, plan.partials = partials;
            plan.l1_stream[0] = 0, plan.l1_stream[1] = stream_l1;
            plan.l1_stat = 2 * stream_l1, plan.l1_stat_bytes = stat_l1;
            plan.l1_acc_bytes = acc;
            plan.l1_out = plan.l1_stat + uint64_t(cubes) * 2 * stat_l1;
            plan.l1_in = plan.l1_out + uint64_t(cubes) * 2 * acc;
            plan.l1_home = plan.l1_in + uint64_t(cubes) * in;
            const uint64_t b_base = c.l0_split() ? uint64_t(c.l0a_kib) * 1024 : 2 * a_l0;
            const uint64_t c_base = c.l0_split() ? uint64_t(c.l0a_kib + c.l0b_kib) * 1024 : 2 * (a_l0 + b_l0);
            uint64_t* stream = plan.ws ? plan.l0_stream : plan.l0_stat;  // the A buffers
            uint64_t* stat = plan.ws ? plan.l0_stat : plan.l0_stream;    // the B buffers
            stream[0] = 0, stream[1] = a_l0;
            stat[0] = b_base, stat[1] = b_base + b_l0;
            plan.l0_acc = c_base, plan.l0_acc_bytes = acc;
            if (partials == Partials::Ddr) {
                const TensorNode& out = ctx.tensor(op.output);
                plan.scratch = ctx.ddr_scratch(out.name + " partial sums", {std::max<int64_t>(1, g.items), g.M, g.N},
                                               arch::DType::Float32, op.loc);
            }
            return plan;
        }
    }
    // The configuration's checks make L0 hold the smallest chunk (one row
    // of a fold and two accumulators of one row); L1 may still be short of
    // its panels (a convolution's input rows).
    const uint64_t need = 2 * uint64_t(plan.ws ? a_panel(1) : R * e) +
                          uint64_t(cubes) * (2 * uint64_t(plan.ws ? R * C * e : a_panel(C)) + 4 * uint64_t(C * 4));
    throw CompileError(op.loc,
                       std::string(op_kind_name(op.kind)) + " does not fit the hardware: the " +
                           (plan.ws ? "weight" : "input") + "-stationary schedule's smallest chunk (one " +
                           (plan.ws ? "row" : "column") + " through a " + std::to_string(R) + "x" + std::to_string(C) +
                           " fold) needs " + std::to_string(need) + " bytes of L1, the cluster has " +
                           std::to_string(c.l1_bytes()),
                       CompileError::Capacity::L1);
}

void lower_fold_major(LowerContext& ctx, const FoldPlan& plan, const GemmShape& shape, const GemmOperands& op,
                      int64_t item, bool last) {
    const arch::Config& c = ctx.config;
    const bool ws = plan.ws;
    const int64_t R = c.mac_rows, C = c.mac_cols;
    const int64_t e = arch::dtype_bytes(op.in), eo = arch::dtype_bytes(op.out);
    const int64_t S = ws ? op.N : op.M, T = ws ? op.M : op.N;
    const int64_t units = arch::ceil_div(S, C), kfolds = arch::ceil_div(op.K, R), J = arch::ceil_div(T, plan.chunk);
    const int64_t steps = kfolds * J;
    const int64_t cubes = c.cubes_per_cluster;
    const GemmQueues queues = gemm_queues(c);
    const EngineId ld_s{EngineKind::ClusterDma, queues.load_a};
    const EngineId ld_w{EngineKind::ClusterDma, queues.load_b};
    const EngineId st{EngineKind::ClusterDma, queues.store};
    const bool a_loads = !op.a->on_chip();
    // The streamed operand is A for ws, B for is; the stationary one the other.
    const bool stream_loads = ws ? a_loads : true, stat_loads = ws ? true : a_loads;
    const std::string& sname = ws ? op.a_name : op.b_name;
    const std::string& wname = ws ? op.b_name : op.a_name;
    const uint32_t tag_s_l1 = stream_loads ? ctx.tag(sname + " chunk -> L1") : 0;
    const uint32_t tag_s_l0 = ctx.tag(sname + " chunk -> L0");
    const uint32_t tag_w_l1 = stat_loads ? ctx.tag(wname + " fold -> L1") : 0;
    const uint32_t tag_w_l0 = ctx.tag(wname + " fold -> L0");
    const uint32_t tag_mm = ctx.tag(op.c_name + " += " + op.a_name + " @ " + op.b_name);
    const uint32_t tag_c_l1 = ctx.tag(op.c_name + " tile -> L1");
    const uint32_t tag_c_ddr = ctx.tag(op.c_name + " tile -> DDR");
    using Partials = FoldPlan::Partials;
    const bool in_l0 = plan.partials == Partials::L0, in_ddr = plan.partials == Partials::Ddr;
    const uint32_t tag_p_l1 = in_l0 ? 0 : ctx.tag(op.c_name + " partial sums -> L1");
    const uint32_t tag_p_ddr = in_ddr ? ctx.tag(op.c_name + " partial sums -> DDR") : 0;
    const uint32_t tag_p_l0 = in_l0 ? 0 : ctx.tag(op.c_name + " partial sums -> L0");
    const uint32_t overhead = uint32_t(c.loop_overhead_cycles);
    const std::string& name = op.block_name.empty() ? op.c_name : op.block_name;
    const uint64_t scratch = plan.scratch + uint64_t(item * op.M * op.N * 4);
    const MatmulTiling t_stream = panel_tiling(c, plan.chunk, plan.kb), t_stat = panel_tiling(c, C, plan.kb);

    auto fold_of = [&](int64_t s) { return k_fold(c, shape, s / J); };
    auto chunk_of = [&](int64_t s, int64_t& t0, int64_t& tj) {
        t0 = (s % J) * plan.chunk;
        tj = std::min(plan.chunk, T - t0);
    };
    // Which steps write their accumulator back, and which of those go out
    // through an L1 out buffer to DDR (the last k fold's outputs, and with
    // partial sums in DDR every fold's).
    auto has_wb = [&](int64_t s) { return !in_l0 || s / J == kfolds - 1; };
    auto goes_out = [&](int64_t s) { return in_ddr || s / J == kfolds - 1; };
    // The extent of a chunk's partial sums or outputs: rows x cols of C at
    // (row0, col0).
    struct Tile {
        int64_t row0, col0, rows, cols;
    };
    auto out_tile = [&](const CubeUnit& w, int64_t s) {
        int64_t t0 = 0, tj = 0;
        chunk_of(s, t0, tj);
        return ws ? Tile{t0, w.s0, tj, w.su} : Tile{w.s0, t0, w.su, tj};
    };
    auto acc_addr = [&](int64_t s) { return plan.l0_acc + uint64_t(in_l0 ? s % J : s % 2) * plan.l0_acc_bytes; };
    auto stream_panel = [&](int64_t s) {
        const KFold k = fold_of(s);
        int64_t t0 = 0, tj = 0;
        chunk_of(s, t0, tj);
        return GemmPanel{t0, tj, k.kal, k.kb, plan.l1_stream[s % 2]};
    };

    for (int64_t b = 0; b < arch::ceil_div(units, cubes); ++b) {
        const int64_t u0 = b * cubes, nu = std::min(cubes, units - u0);
        const int64_t first = u0 * C, extent = std::min(S, (u0 + nu) * C) - first;
        BlockBuilder block(ws ? name + "[0:" + std::to_string(op.M) + ", " + range(first, extent) + "]"
                              : name + "[" + range(first, extent) + ", 0:" + std::to_string(op.N) + "]");
        std::vector<CubeUnit> work;
        for (int64_t i = 0; i < nu; ++i) {
            CubeUnit w;
            w.index = int(i), w.s0 = (u0 + i) * C, w.su = std::min(C, S - w.s0);
            for (FlagId* f : {&w.s_ready, &w.s_free, &w.w_ready, &w.w_free, &w.l0w_free, &w.l0s_free, &w.l0_ready,
                              &w.mm_done, &w.acc_free, &w.c_in_l1, &w.c_free, &w.p_stored, &w.p_ready, &w.p_free})
                *f = block.new_flag();
            work.push_back(w);
        }
        const bool block_last = last && b == arch::ceil_div(units, cubes) - 1;

        // The stationary fold of unit w for k fold f: DDR -> L1, L1 -> L0.
        auto stat_panel = [&](const CubeUnit& w, int64_t f) {
            const KFold k = k_fold(c, shape, f);
            const uint64_t l1 = plan.l1_stat + uint64_t(w.index * 2 + f % 2) * plan.l1_stat_bytes;
            return std::make_pair(k, GemmPanel{w.s0, w.su, k.kal, k.kb, l1});
        };
        auto b_copy = [&](Space src, uint64_t src_addr, uint64_t src_stride, Space dst, uint64_t dst_addr, int64_t k0,
                          int64_t kt, int64_t n0, int64_t n) {
            // kt x n of B from (k0, n0): a transposed B (N x K as stored) is
            // n rows of kt elements.
            if (op.b_transposed)
                return copy2d(src, src_addr + (src == Space::DDR ? uint64_t((n0 * op.K + k0) * e) : 0),
                              src == Space::DDR ? uint64_t(op.K * e) : src_stride, dst, dst_addr, uint64_t(kt * e), n,
                              kt * e);
            return copy2d(src, src_addr + (src == Space::DDR ? uint64_t((k0 * op.N + n0) * e) : 0),
                          src == Space::DDR ? uint64_t(op.N * e) : src_stride, dst, dst_addr, uint64_t(n * e), kt,
                          n * e);
        };

        // Cluster DMA engines, in one order that is valid for a single queue
        // (every wait refers to something earlier in it): per step the
        // stationary folds (first chunk of a k fold), the streamed chunk,
        // the previous step's stores, this step's partial sums.
        int64_t wb_done = 0, p_loads = 0;
        auto store = [&](int64_t s) {
            if (s < 0 || !goes_out(s)) return;
            const bool partial = s / J < kfolds - 1;
            for (const CubeUnit& w : work) {
                const Tile t = out_tile(w, s);
                const uint64_t l1 = plan.l1_out + uint64_t(w.index * 2 + wb_done % 2) * plan.l1_acc_bytes;
                arch::Command cmd = partial ? dma_command(copy2d(Space::L1, l1, uint64_t(t.cols * 4), Space::DDR,
                                                                 scratch + uint64_t((t.row0 * op.N + t.col0) * 4),
                                                                 uint64_t(op.N * 4), t.rows, t.cols * 4),
                                                          tag_p_ddr)
                                            : dma_command(copy2d(Space::L1, l1, uint64_t(t.cols * eo), Space::DDR,
                                                                 op.c_addr + uint64_t((t.row0 * op.N + t.col0) * eo),
                                                                 uint64_t(op.N * eo), t.rows, t.cols * eo),
                                                          tag_c_ddr);
                cmd.waits.push_back(w.c_in_l1);
                cmd.sets.push_back(w.c_free);
                if (partial) cmd.sets.push_back(w.p_stored);
                block.stream(st).push_back(std::move(cmd));
            }
            ++wb_done;
        };
        for (int64_t s = 0; s < steps; ++s) {
            const int64_t f = s / J, j = s % J;
            if (j == 0 && stat_loads) {
                for (const CubeUnit& w : work) {
                    const auto [k, p] = stat_panel(w, f);
                    arch::Command cmd =
                        dma_command(ws ? b_copy(Space::DDR, op.b_addr, 0, Space::L1, p.l1, k.k0, k.kt, w.s0, w.su)
                                       : op.a->load_panel(p, t_stat),
                                    tag_w_l1);
                    if (f >= 2) cmd.waits.push_back(w.w_free);
                    cmd.sets.push_back(w.w_ready);
                    if (ld_w != ld_s && w.index == 0) cmd.issue_cycles = overhead;
                    block.stream(ld_w).push_back(std::move(cmd));
                }
            }
            if (stream_loads) {
                const GemmPanel p = stream_panel(s);
                const KFold k = fold_of(s);
                arch::Command cmd =
                    dma_command(ws ? op.a->load_panel(p, t_stream)
                                   : b_copy(Space::DDR, op.b_addr, 0, Space::L1, p.l1, k.k0, k.kt, p.row0, p.rows),
                                tag_s_l1);
                for (const CubeUnit& w : work) {
                    if (s >= 2) cmd.waits.push_back(w.s_free);
                    cmd.sets.push_back(w.s_ready);
                }
                cmd.issue_cycles = overhead;
                block.stream(ld_s).push_back(std::move(cmd));
            }
            // With two chunks or more, a step's partial sums come from a
            // store at least a step back: they load before the last step's
            // stores and overlap them.
            if (J < 2) store(s - 1);
            if (in_ddr && f > 0) {
                for (const CubeUnit& w : work) {
                    const Tile t = out_tile(w, s);
                    const uint64_t l1 = plan.l1_in + uint64_t(w.index * 2 + p_loads % 2) * plan.l1_acc_bytes;
                    arch::Command cmd =
                        dma_command(copy2d(Space::DDR, scratch + uint64_t((t.row0 * op.N + t.col0) * 4),
                                           uint64_t(op.N * 4), Space::L1, l1, uint64_t(t.cols * 4), t.rows, t.cols * 4),
                                    tag_p_l1);
                    cmd.waits.push_back(w.p_stored);
                    if (p_loads >= 2) cmd.waits.push_back(w.p_free);
                    cmd.sets.push_back(w.p_ready);
                    block.stream(ld_w).push_back(std::move(cmd));
                }
                ++p_loads;
            }
            if (J >= 2) store(s - 1);
        }
        store(steps - 1);

        // Each cube's DMA engine and MAC array.
        for (const CubeUnit& w : work) {
            const EngineId dma{EngineKind::CubeDma, w.index}, mac{EngineKind::Cube, w.index};
            auto& moves = block.stream(dma);
            auto& macs = block.stream(mac);
            int64_t wbs = 0, ps = 0;
            // Partial sums kept in L1: chunk j of this cube's unit.
            auto home = [&](int64_t s) { return plan.l1_home + uint64_t(w.index * J + s % J) * plan.l1_acc_bytes; };
            auto write_back = [&](int64_t s) {
                if (s < 0 || !has_wb(s)) return;
                const bool partial = s / J < kfolds - 1, out = goes_out(s);
                const Tile t = out_tile(w, s);
                const uint64_t l1 = out ? plan.l1_out + uint64_t(w.index * 2 + wbs % 2) * plan.l1_acc_bytes : home(s);
                arch::DmaArgs d = copy2d(Space::L0, acc_addr(s), uint64_t(t.cols * 4), Space::L1, l1,
                                         uint64_t(t.cols * (partial ? 4 : eo)), t.rows, t.cols * (partial ? 4 : eo));
                d.convert_f32_to_f16 = !partial && arch::dtype_bytes(op.out) == 2;
                if (d.convert_f32_to_f16) d.narrow_to = op.out;
                arch::Command cmd = dma_command(d, partial ? tag_p_l1 : tag_c_l1);
                cmd.waits.push_back(w.mm_done);
                if (out && wbs >= 2) cmd.waits.push_back(w.c_free);
                if (out) cmd.sets.push_back(w.c_in_l1);
                if (!in_l0) cmd.sets.push_back(w.acc_free);
                moves.push_back(std::move(cmd));
                wbs += out;
            };
            for (int64_t s = 0; s < steps; ++s) {
                const int64_t f = s / J, j = s % J;
                const KFold k = fold_of(s);
                int64_t t0 = 0, tj = 0;
                chunk_of(s, t0, tj);
                std::vector<arch::Command> loads;
                if (j == 0) {
                    const auto [kf, p] = stat_panel(w, f);
                    const uint64_t l0 = plan.l0_stat[f % 2];
                    arch::Command cmd =
                        dma_command(ws ? b_copy(Space::L1, p.l1, uint64_t(op.b_transposed ? kf.kt * e : w.su * e),
                                                Space::L0, l0, kf.k0, kf.kt, w.s0, w.su)
                                       : op.a->load_tile(a_loads ? p : GemmPanel{w.s0, w.su, kf.kal, kf.kb, 0}, t_stat,
                                                         0, w.su, kf.k0 - kf.kal, kf.kt, l0),
                                    tag_w_l0);
                    if (stat_loads) cmd.waits.push_back(w.w_ready);
                    if (f >= 2) cmd.waits.push_back(w.l0w_free);
                    if (stat_loads) cmd.sets.push_back(w.w_free);
                    loads.push_back(std::move(cmd));
                }
                {
                    const GemmPanel p = stream_panel(s);
                    const uint64_t l0 = plan.l0_stream[s % 2];
                    arch::Command cmd =
                        dma_command(ws ? op.a->load_tile(p, t_stream, 0, tj, k.k0 - k.kal, k.kt, l0)
                                       : b_copy(Space::L1, p.l1, uint64_t(op.b_transposed ? k.kt * e : tj * e),
                                                Space::L0, l0, k.k0, k.kt, t0, tj),
                                    tag_s_l0);
                    if (stream_loads) cmd.waits.push_back(w.s_ready);
                    if (s >= 2) cmd.waits.push_back(w.l0s_free);
                    if (stream_loads) cmd.sets.push_back(w.s_free);
                    loads.push_back(std::move(cmd));
                }
                loads.front().issue_cycles = overhead;
                // The step's loads, its partial sums and the previous step's
                // write-back (its MATMUL runs meanwhile); with one chunk the
                // partial sums come from that write-back, so after it.
                for (size_t i = 0; i + 1 < loads.size(); ++i) moves.push_back(std::move(loads[i]));
                arch::Command last_load = std::move(loads.back());
                const bool p_tile = !in_l0 && f > 0;
                if (!p_tile) last_load.sets.push_back(w.l0_ready);
                moves.push_back(std::move(last_load));
                if (J < 2) write_back(s - 1);
                if (p_tile) {
                    // From L1: written back by this engine, earlier in its
                    // queue; from DDR: through an L1 in buffer.
                    const Tile t = out_tile(w, s);
                    const uint64_t l1 =
                        in_ddr ? plan.l1_in + uint64_t(w.index * 2 + ps % 2) * plan.l1_acc_bytes : home(s);
                    arch::Command cmd = dma_command(copy2d(Space::L1, l1, uint64_t(t.cols * 4), Space::L0, acc_addr(s),
                                                           uint64_t(t.cols * 4), t.rows, t.cols * 4),
                                                    tag_p_l0);
                    if (in_ddr) cmd.waits.push_back(w.p_ready);
                    if (in_ddr) cmd.sets.push_back(w.p_free);
                    cmd.sets.push_back(w.l0_ready);
                    moves.push_back(std::move(cmd));
                    ++ps;
                }
                if (J >= 2) write_back(s - 1);

                arch::MatmulArgs mm;
                if (ws) mm.m = uint32_t(tj), mm.k = uint32_t(k.kt), mm.n = uint32_t(w.su);
                else mm.m = uint32_t(w.su), mm.k = uint32_t(k.kt), mm.n = uint32_t(tj);
                mm.dtype = op.in;
                mm.accumulate = f > 0;
                mm.b_transposed = op.b_transposed;
                mm.a_addr = ws ? plan.l0_stream[s % 2] : plan.l0_stat[f % 2];
                mm.b_addr = ws ? plan.l0_stat[f % 2] : plan.l0_stream[s % 2];
                mm.c_addr = acc_addr(s);
                // §7.2: every chunk after the first continues the fold; the
                // operation's last MATMUL ends its fold schedule.
                mm.fold_continues = j > 0;
                mm.schedule_continues = !(block_last && w.index == int(work.size()) - 1 && s == steps - 1);
                arch::Command cmd = matmul_command(mm, tag_mm);
                cmd.issue_cycles = overhead;
                cmd.waits.push_back(w.l0_ready);
                if (!in_l0 && s >= 2) cmd.waits.push_back(w.acc_free);
                cmd.sets.push_back(w.l0s_free);
                if (j == J - 1) cmd.sets.push_back(w.l0w_free);
                if (has_wb(s)) cmd.sets.push_back(w.mm_done);
                macs.push_back(std::move(cmd));
            }
            write_back(steps - 1);
        }
        ctx.add_block(block);
    }
}

}  // namespace dsl
