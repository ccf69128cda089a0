#include "dsl/lower/gemm/lower_matmul.h"

#include "dsl/lower/placement_mismatch.h"

#include <algorithm>

#include "dsl/lower/gemm/lower_fold_major.h"
#include "dsl/lower/gemm/lower_gemm.h"
#include "dsl/lower/lower_views.h"
#include "dsl/lower/row_bands.h"
#include "dsl/lower/tiling/gemm_cost.h"
#include "dsl/lower/weight_dequant.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

void apply_gemm_attrs(const OpNode& op, GemmShape& shape) {
    for (const auto& [key, value] : op.attrs) {
        if (key == "tile") {
            shape.tile = value.ints;
        } else if (key == "prefetch") {
            shape.buffers = value.b ? 3 : 2;
        } else if (key == "unroll") {
            shape.unroll = value.i;
        }
    }
}

int64_t gemm_unroll(const OpNode& op) {
    auto it = op.attrs.find("unroll");
    return it == op.attrs.end() ? 1 : it->second.i;  // ops_matmul.cpp checked it is >= 1
}

namespace {

CompileError::Capacity capacity_of(const TilingFailure& why) {
    return why.memory == arch::Space::L1 ? CompileError::Capacity::L1 : CompileError::Capacity::L0;
}

// --explain (dsl/lower/explain.h): the tiling taken for `shape`, its
// estimate, and the best tilings the search estimated and rejected.
void explain_gemm(const LowerContext& ctx, const GemmShape& shape, const MatmulTiling& t, int64_t prefetch_cycles) {
    if (!ctx.explaining) return;
    GemmExplanation x;
    x.chosen = t;
    x.cycles = estimate_gemm_cycles(ctx.config, shape, t);
    x.prefetch_cycles = prefetch_cycles;
    std::vector<TilingCandidate> considered;
    TilingFailure why;
    explore_matmul_tilings(ctx.config, shape, why, &considered);
    x.estimated = int64_t(considered.size());
    auto same = [&](const MatmulTiling& a) {
        return a.mt == t.mt && a.nt == t.nt && a.kt == t.kt && a.kb == t.kb && a.grid_rows == t.grid_rows &&
               a.buffers == t.buffers && a.l0_buffers == t.l0_buffers;
    };
    std::stable_sort(considered.begin(), considered.end(),
                     [](const TilingCandidate& a, const TilingCandidate& b) { return a.cycles < b.cycles; });
    for (const TilingCandidate& k : considered)
        if (!same(k.t) && x.rejected.size() < kExplainRejected) x.rejected.push_back(k);
    ctx.explaining->gemm = x;
}

}  // namespace

MatmulTiling gemm_tiling_or_fail(const LowerContext& ctx, const OpNode& op, const GemmShape& given) {
    const std::string kind = op_kind_name(op.kind);
    GemmShape shape = given;
    shape.max_parallel = ctx.graph.max_parallel;
    const auto& choose = ctx.options.gemm_tiling ? ctx.options.gemm_tiling : choose_matmul_tiling;
    if (ctx.graph.buffers > 0) {
        // pypo.config.BUFFERS: every L1 panel and L0 tile buffer at that
        // depth, the tiles and panels chosen so that they fit.
        GemmShape forced = shape;
        forced.buffers = forced.l0_buffers = ctx.graph.buffers;
        TilingFailure why;
        auto tiling = choose(ctx.config, forced, why);
        if (!tiling)
            throw CompileError(op.loc,
                               kind + (shape.tile.empty() ? " does not fit the hardware: " : ": ") + why.text +
                                   " (pypo.config.BUFFERS = " + std::to_string(ctx.graph.buffers) + ")",
                               capacity_of(why));
        explain_gemm(ctx, forced, *tiling, -1);
        return *tiling;
    }
    // The tiling is chosen as for double buffering; prefetch then tries a
    // third panel buffer, on that block with panels as deep as still fit,
    // and the best tiling searched with three buffers, and takes the one
    // estimated fastest only if it saves more than 1 % over double
    // buffering (the estimate's error on the GEMMs of
    // tests/dsl/lower/tiling/gemm_cost_test.cpp): a third buffer costs L1
    // that shallower panels pay for, and pays only where DDR latency is
    // not already hidden.
    GemmShape base = shape;
    base.buffers = 2;
    TilingFailure why;
    auto tiling = choose(ctx.config, base, why);
    if (!tiling) {
        // A tile= that does not fit: name the largest square one that does
        // (halving m and n, k as given), so the user can take it.
        std::string fits;
        if (!shape.tile.empty())
            for (int64_t t = std::max(shape.tile[0], shape.tile[1]) / 2; t >= 1 && fits.empty(); t /= 2) {
                GemmShape smaller = base;
                smaller.tile[0] = smaller.tile[1] = t;
                TilingFailure ignored;
                if (choose(ctx.config, smaller, ignored))
                    fits = "; the largest square tile that fits is tile=" +
                           (smaller.tile.size() > 2 ? "(" + std::to_string(t) + ", " + std::to_string(t) + ", " +
                                                          std::to_string(smaller.tile[2]) + ")"
                                                    : std::to_string(t));
            }
        throw CompileError(op.loc,
                           kind + (shape.tile.empty() ? " does not fit the hardware: " : ": ") + why.text + fits,
                           capacity_of(why));
    }
    MatmulTiling t = *tiling;
    if (shape.buffers != 2) {
        t.buffers = shape.buffers;
        t.kb = deepest_panel(ctx.config, shape, t);
        if (t.kb == 0) {
            MatmulTiling shallow = *tiling;
            shallow.buffers = shape.buffers;
            shallow.kb = shape.k_granule ? shape.k_granule : shallow.kt;
            throw CompileError(op.loc,
                               kind + ": prefetch=True needs " + std::to_string(l1_bytes_needed(shallow, shape)) +
                                   " bytes of L1 for three panel buffers (block " +
                                   std::to_string(shallow.block_rows()) + "x" + std::to_string(shallow.block_cols()) +
                                   ", panels " + std::to_string(shallow.kb) + " deep), the cluster has " +
                                   std::to_string(ctx.config.l1_bytes()),
                               CompileError::Capacity::L1);
        }
        const int64_t double_cycles = estimate_gemm_cycles(ctx.config, base, *tiling);
        int64_t extra_cycles = estimate_gemm_cycles(ctx.config, shape, t);
        TilingFailure unused;
        if (auto searched = choose(ctx.config, shape, unused)) {
            const int64_t searched_cycles = estimate_gemm_cycles(ctx.config, shape, *searched);
            if (searched_cycles < extra_cycles) t = *searched, extra_cycles = searched_cycles;
        }
        if (extra_cycles * 100 >= double_cycles * 99) {
            explain_gemm(ctx, base, *tiling, extra_cycles);
            return *tiling;
        }
        explain_gemm(ctx, shape, t, extra_cycles);
        return t;
    }
    explain_gemm(ctx, base, t, -1);
    return t;
}

namespace {

// Element offset of batch item `index` (a multi-index over the output's
// batch dims) in an operand whose batch dims `dims` broadcast against them.
// Elements from an operand's address to its matrix at batch `index` (of
// the result's batch axes; an operand's batch axes of size 1 broadcast), by
// its strides: row-major, or a slice's (dsl/lower/lower_views.h).
int64_t batch_offset(const std::vector<int64_t>& index, const StridedLayout& l) {
    const size_t dims = l.shape.size() - 2;
    int64_t offset = 0;
    for (size_t k = 0; k < dims; ++k) {
        const size_t d = dims - 1 - k, i = index.size() - 1 - k;
        if (l.shape[d] > 1) offset += index[i] * l.strides[d];
    }
    return offset;
}

// The strides of operand `k` in DDR; refuses what the panel loads cannot
// read (a step along its rows).
StridedLayout operand_layout(const LowerContext& ctx, const OpNode& op, size_t k, bool fold_major) {
    const DdrView v = ddr_view(ctx.graph, op.inputs[k]);
    const std::string what = "matmul of '" + ctx.tensor(op.inputs[k]).name + "', a strided slice,";
    if (!v.one_run() && fold_major)
        throw CompileError(op.loc, what +
                                       " is not lowered yet on a weight- or input-stationary array "
                                       "(cube.dataflow 'ws' or 'is'): slice whole rows of its tensor");
    if (!v.one_run() && v.layout.shape.back() > 1 && v.layout.strides.back() != 1)
        throw CompileError(op.loc, what + " is not lowered yet with a step along its last axis");
    return v.layout;
}

}  // namespace

GemmShape matmul_shape(const LowerContext& ctx, const OpNode& op) {
    const TensorNode& a = ctx.tensor(op.inputs[0]);
    const TensorNode& b = ctx.tensor(op.inputs[1]);
    const TensorNode& c = ctx.tensor(op.output);
    GemmShape shape;
    shape.M = a.shape[a.shape.size() - 2], shape.K = a.shape.back(), shape.N = b.shape.back();
    shape.in = a.dtype, shape.out = c.dtype;
    // On-chip operands (dsl/lower/buffer_plan.h) need no L1 panels, an on-chip C
    // no L1 staging.
    if (ctx.on_chip(op.inputs[0])) shape.a_panel_bytes = [](const MatmulTiling&) { return int64_t(0); };
    shape.a_on_chip = ctx.on_chip(op.inputs[0]);
    shape.b_on_chip = ctx.on_chip(op.inputs[1]);
    shape.c_on_chip = ctx.on_chip(op.output);
    apply_gemm_attrs(op, shape);
    shape.items = 1;
    for (size_t k = 0; k + 2 < c.shape.size(); ++k) shape.items *= c.shape[k];
    return shape;
}

void lower_matmul_op(LowerContext& ctx, const OpNode& op) {
    const TensorNode& a = ctx.tensor(op.inputs[0]);
    const TensorNode& b = ctx.tensor(op.inputs[1]);
    const TensorNode& c = ctx.tensor(op.output);
    GemmShape shape = matmul_shape(ctx, op);
    // matmul(x, dequantize(w, scale)) with an int8 w: B's panels dequantised in L1.
    const std::optional<WeightDequant> wd = weight_dequant(ctx, op);
    shape.b_int8 = wd.has_value();
    GemmOperands::DequantB dq;
    if (wd) {
        dq.scale_addr = ctx.ddr_addr(wd->scale), dq.per_column = wd->per_column, dq.op = wd->dequantize_op;
        dq.q_name = ctx.tensor(wd->q).name, dq.scale_name = ctx.tensor(wd->scale).name;
    }
    const bool a_on_chip = shape.a_on_chip;
    // An on-chip A in bands of rows: every block reads one band.
    if (a_on_chip && shape.tile.empty() && ctx.plan.of(op.inputs[0]).bands > 1) {
        GemmShape free = shape;
        free.max_parallel = ctx.graph.max_parallel;
        TilingFailure why;
        if (auto t = choose_matmul_tiling(ctx.config, free, why))
            shape.tile = band_tile(ctx.config, free, *t, ctx.plan.of(op.inputs[0]).bands, ctx.placement->clusters());
    }
    const std::vector<int64_t> batch(c.shape.begin(), c.shape.end() - 2);
    const int64_t items = shape.items;
    // A ws or is array streams each fold's whole temporal dimension
    // (dsl/lower/gemm/lower_fold_major.h); the others take the k-stepped schedule.
    const bool fold_major = fold_major_applies(ctx.config, shape);
    // The fusion group's epilogue runs on the k-stepped schedule's C tiles
    // in DDR (the pass fuses no on-chip result; the report notes a group
    // that ran unfused).
    int out = op.output;
    const std::string blocked = gemm_epilogue_blocked(ctx.config, fold_major, shape.c_on_chip);
    const GemmEpilogue epilogue = blocked.empty() ? build_epilogue(ctx, op, out) : GemmEpilogue{};
    if (!blocked.empty()) out = op.output;
    epilogue.describe(shape);
    ctx.epilogue_fused = !epilogue.empty();
    if (!op.epilogue.empty() && !ctx.epilogue_fused)
        ctx.epilogue_unfused = blocked.empty() ? kOnChipResultUnfused : blocked;
    const FoldPlan plan = fold_major ? plan_fold_major(ctx, op, shape) : FoldPlan{};
    if (fold_major && ctx.explaining) ctx.explaining->gemm = GemmExplanation{}, ctx.explaining->gemm->fold_major = true;
    const MatmulTiling t = fold_major ? MatmulTiling{} : gemm_tiling_or_fail(ctx, op, shape);
    const int64_t e = arch::dtype_bytes(shape.in);
    const StridedLayout a_layout = operand_layout(ctx, op, 0, fold_major);
    const StridedLayout b_layout = operand_layout(ctx, op, 1, fold_major);
    const size_t a_rank = a_layout.shape.size(), b_rank = b_layout.shape.size();
    const int64_t a_row = shape.M > 1 ? a_layout.strides[a_rank - 2] : shape.K;
    const int64_t b_row = shape.K > 1 ? b_layout.strides[b_rank - 2] : shape.N;
    std::vector<int64_t> index(batch.size(), 0);
    for (int64_t item = 0; item < items; ++item) {
        // index = item in row-major order over `batch`.
        for (int64_t rest = item, k = int64_t(batch.size()) - 1; k >= 0; --k) {
            index[size_t(k)] = rest % batch[size_t(k)];
            rest /= batch[size_t(k)];
        }
        const RowMajorA a_ddr(ctx.ddr_addr(op.inputs[0]) + uint64_t(batch_offset(index, a_layout) * e), shape.K,
                              shape.in, a_row);
        // Batched matmuls never use on-chip tensors (lower.cpp refuses them).
        const OnChipA a_l1(a_on_chip ? ctx.l1_addr(op.inputs[0]) : 0, shape.K, shape.in,
                           a_on_chip ? ctx.plan.of(op.inputs[0]).band_bytes : 0);
        GemmOperands g;
        g.M = shape.M, g.K = shape.K, g.N = shape.N, g.in = shape.in, g.out = shape.out;
        g.a = a_on_chip ? static_cast<const GemmA*>(&a_l1) : &a_ddr;
        g.b_on_chip = shape.b_on_chip, g.c_on_chip = shape.c_on_chip;
        g.b_addr = g.b_on_chip ? ctx.l1_addr(op.inputs[1])
                               : ctx.ddr_addr(op.inputs[1]) + uint64_t(batch_offset(index, b_layout) * e);
        g.b_row_elems = b_row;
        if (wd) g.b_addr = ctx.ddr_addr(wd->q), g.b_row_elems = shape.N, g.b_dequant = &dq;
        // The group's result, in its own dtype (a fused cast's).
        const int64_t eout = arch::dtype_bytes(ctx.tensor(out).dtype);
        g.c_addr = g.c_on_chip ? ctx.l1_addr(op.output) : ctx.ddr_addr(out) + uint64_t(item * shape.M * shape.N * eout);
        g.a_tensor = op.inputs[0], g.c_tensor = op.output;
        g.a_band_rows = a_on_chip ? ctx.plan.band_rows(op.inputs[0]) : 0;
        g.c_band_rows = g.c_on_chip ? ctx.plan.band_rows(op.output) : 0;
        g.c_band_bytes = g.c_on_chip ? ctx.plan.of(op.output).band_bytes : 0;
        // An on-chip B is read whole by every block: it cannot be in bands.
        if (g.b_on_chip && ctx.plan.band_rows(op.inputs[1]) > 0)
            throw PlacementMismatch{op.inputs[1], "matmul '" + ctx.tensor(op.output).name +
                                                      "' reads it as B, whole in every block, and it is kept in bands "
                                                      "of rows"};
        g.epilogue = &epilogue, g.epilogue_offset = uint64_t(item * shape.M * shape.N);
        g.a_name = a.name, g.b_name = b.name, g.c_name = ctx.tensor(out).name;
        g.unroll = gemm_unroll(op);
        if (!batch.empty()) {
            g.block_name = g.c_name + "[";
            for (size_t k = 0; k < index.size(); ++k) g.block_name += (k ? "," : "") + std::to_string(index[k]);
            g.block_name += "]";
        }
        g.last_item = item == items - 1;
        if (fold_major) lower_fold_major(ctx, plan, shape, g, item, g.last_item);
        else lower_gemm(ctx, t, g);
    }
}

}  // namespace dsl
