// embedding(table, ids) on the cluster DMA engines alone, as a lookup runs
// on a real accelerator's data movers (no arithmetic): per chunk of n ids,
//   dma0:  ids[first:first + n] -> L1             (n x 4 bytes)
//   dma0:  gather table rows ids[...] -> L1       (n x D x e bytes, §6 gather)
//   dmaL:  the rows -> y[first:first + n]         (the last DMA engine)
// The gather reads its ids when it starts, so it waits for their load
// (a flag, even on the same engine: with dma.max_outstanding above 1 the
// next command may start before the previous one ends). Chunks use
// pypo.config.BUFFERS slots (2 by default) of ids and rows, so a chunk's
// gather overlaps the previous chunk's store; the ids are split evenly
// over the clusters that run at once. The timed run does not see the ids:
// without an L2 a gather is timed as a strided read of its rows, with one
// as reads past the cache (docs/timing-model.md §6.1).
#include <algorithm>

#include "dsl/lower/block_builder.h"
#include "dsl/lower/lower_context.h"
#include "dsl/support/diagnostics.h"
#include "sim/arch/ceil_div.h"
#include "sim/arch/program_check.h"

namespace dsl {

namespace {

constexpr uint64_t kAlign = 32;  // the rows start on an aligned address after the ids

uint64_t align_up(uint64_t x) { return arch::ceil_div(x, kAlign) * kAlign; }

}  // namespace

void lower_embedding_op(LowerContext& ctx, const OpNode& op) {
    using arch::EngineId;
    using arch::EngineKind;
    const arch::Config& c = ctx.config;
    const TensorNode& table = ctx.tensor(op.inputs[0]);
    const TensorNode& y = ctx.tensor(op.output);
    const int64_t V = table.shape[0], D = table.shape[1];
    const uint64_t row = uint64_t(D * arch::dtype_bytes(table.dtype));
    int64_t N = 1;
    for (size_t k = 0; k + 1 < y.shape.size(); ++k) N *= y.shape[k];

    // The most ids a chunk takes: `depth` slots of its ids and rows in L1.
    const int64_t depth = ctx.buffering(2);
    const uint64_t slot = uint64_t(c.l1_bytes()) / uint64_t(depth) / kAlign * kAlign;
    const uint64_t need_one = align_up(4) + row;
    if (need_one > slot)
        throw CompileError(op.loc,
                           "embedding does not fit the hardware: one row and its id need " +
                               std::to_string(need_one * uint64_t(depth)) + " bytes of L1 (" + std::to_string(depth) +
                               " buffers), a cluster has " + std::to_string(c.l1_bytes()),
                           CompileError::Capacity::L1);
    int64_t fit = int64_t((slot - (kAlign - 4)) / (row + 4));
    while (fit > 1 && align_up(uint64_t(fit) * 4) + uint64_t(fit) * row > slot) --fit;

    // int32 ids reach rows below 2^31 only: a larger table (a gather's
    // table_rows is 32 bits) is described by the rows they can name.
    const uint32_t table_rows = uint32_t(std::min<int64_t>(V, int64_t(1) << 31));
    const uint64_t table_addr = ctx.ddr_addr(op.inputs[0]), ids_addr = ctx.ddr_addr(op.inputs[1]);
    const uint64_t y_addr = ctx.ddr_addr(op.output);
    const EngineId load{EngineKind::ClusterDma, 0}, store{EngineKind::ClusterDma, int(c.dma_engines - 1)};
    const uint32_t ids_tag = ctx.tag(ctx.tensor(op.inputs[1]).name + " -> L1");
    const uint32_t gather_tag = ctx.tag(table.name + " rows -> L1 (gather)");
    const uint32_t store_tag = ctx.tag(y.name + " -> DDR");

    // Every cluster that runs at once gets an even share of the ids, and
    // each share at least two chunks (when it has two ids) so that gathers
    // overlap stores.
    const int64_t blocks = std::min<int64_t>(arch::blocks_in_flight(ctx.program, c), N);
    for (int64_t b = 0; b < blocks; ++b) {
        const int64_t first = N * b / blocks, end = N * (b + 1) / blocks, units = end - first;
        const int64_t m = std::max(arch::ceil_div(units, fit), std::min<int64_t>(2, units));
        BlockBuilder block(y.name + "[" + std::to_string(first) + ":" + std::to_string(end) + "]");
        const arch::FlagId ids_ready = block.new_flag(), rows_ready = block.new_flag(), rows_free = block.new_flag();
        for (int64_t j = 0; j < m; ++j) {
            const int64_t f = first + j * units / m, n = first + (j + 1) * units / m - f;
            const uint64_t base = uint64_t(j % depth) * slot, ids_l1 = base, rows_l1 = base + align_up(uint64_t(n) * 4);

            arch::Command ids = dma_command(
                copy2d(arch::Space::DDR, ids_addr + uint64_t(f) * 4, 0, arch::Space::L1, ids_l1, 0, 1, n * 4), ids_tag);
            ids.sets.push_back(ids_ready);
            block.stream(load).push_back(std::move(ids));

            arch::DmaArgs g = copy2d(arch::Space::DDR, table_addr, row, arch::Space::L1, rows_l1, row, n, int64_t(row));
            g.gather = arch::Gather{ids_l1, table_rows};
            arch::Command gather = dma_command(g, gather_tag);
            gather.waits.push_back(ids_ready);
            if (j >= depth) gather.waits.push_back(rows_free);  // the slot's previous rows are stored
            gather.sets.push_back(rows_ready);
            block.stream(load).push_back(std::move(gather));

            arch::Command st = dma_command(copy2d(arch::Space::L1, rows_l1, row, arch::Space::DDR,
                                                  y_addr + uint64_t(f) * row, row, n, int64_t(row)),
                                           store_tag);
            st.waits.push_back(rows_ready);
            if (j + depth < m) st.sets.push_back(rows_free);
            block.stream(store).push_back(std::move(st));
        }
        ctx.add_block(block);
    }
}

}  // namespace dsl
