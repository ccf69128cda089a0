#include "dsl/lower/vector/lower_vector_stream.h"

#include <algorithm>
#include <stdexcept>

#include "dsl/lower/block_builder.h"
#include "dsl/lower/placement_mismatch.h"
#include "dsl/support/diagnostics.h"
#include "sim/arch/ceil_div.h"
#include "sim/arch/program_check.h"

namespace dsl {

namespace {

using arch::EngineId;
using arch::EngineKind;
using arch::FlagId;

// Buffers start on 32-byte boundaries, the vector unit's natural alignment.
constexpr int64_t kL1Alignment = 32;

int64_t align_up(int64_t v) { return (v + kL1Alignment - 1) / kL1Alignment * kL1Alignment; }

// A Scratch buffer has a slot per vector unit the stream runs on
// (`units`): each unit runs its chunks in order.
int64_t slots(BufferKind k, int64_t depth, int64_t units) {
    return k == BufferKind::Streamed || k == BufferKind::Result ? depth : k == BufferKind::Scratch ? units : 1;
}

int64_t l1_bytes_needed(const std::vector<BufferSpec>& buffers, int64_t n, int64_t depth, int64_t units) {
    int64_t total = 0;
    for (const BufferSpec& b : buffers) total += slots(b.kind, depth, units) * align_up(b.per_unit * n + b.fixed);
    return total;
}

// The most units a chunk may hold in `capacity` bytes (L1, or a Unified Buffer).
int64_t max_chunk_units(int64_t capacity, const std::vector<BufferSpec>& buffers, int64_t depth, int64_t units) {
    if (l1_bytes_needed(buffers, 1, depth, units) > capacity) return 0;
    // Monotone in n: double, then bisect.
    int64_t lo = 1, hi = 2;
    while (l1_bytes_needed(buffers, hi, depth, units) <= capacity) {
        lo = hi;
        if (hi > (int64_t{1} << 40)) return hi;  // no per-unit bytes: any chunk fits
        hi *= 2;
    }
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        (l1_bytes_needed(buffers, mid, depth, units) <= capacity ? lo : hi) = mid;
    }
    return lo;
}

// The L1 address of every slot, for chunks of at most n units:
// addr[k][s] = buffer k, slot s.
std::vector<std::vector<uint64_t>> layout(const std::vector<BufferSpec>& buffers, int64_t n, int64_t depth,
                                          int64_t units) {
    std::vector<std::vector<uint64_t>> addr;
    int64_t next = 0;
    for (const BufferSpec& b : buffers) {
        std::vector<uint64_t> a;
        for (int64_t s = 0; s < slots(b.kind, depth, units); ++s) {
            a.push_back(uint64_t(next));
            next += align_up(b.per_unit * n + b.fixed);
        }
        addr.push_back(std::move(a));
    }
    return addr;
}

// `stored`: the chunk's ordinal among the block's storing chunks (its
// Result slot); `unit`: the vector unit it runs on (its Scratch slot).
BufferAddrs slot_addrs(const std::vector<BufferSpec>& buffers, const std::vector<std::vector<uint64_t>>& addr,
                       int64_t chunk, int64_t stored, int64_t unit = 0) {
    BufferAddrs a;
    for (size_t k = 0; k < addr.size(); ++k) {
        const BufferKind kind = buffers[k].kind;
        const int64_t i = kind == BufferKind::Result ? stored : kind == BufferKind::Scratch ? unit : chunk;
        a.push_back(addr[k][size_t(i % int64_t(addr[k].size()))]);
    }
    return a;
}

struct Range {
    int64_t first, count;
};

// The engines one sequence of a block's chunks runs on: the cluster's DMA
// engines and its vector units from `vector0` on (with the L1 the vector
// units compute on), or one vector unit with its own Unified Buffer, load
// and store engines (timing model §2).
struct Lane {
    EngineId load, store;
    int vector0 = 0;
    bool ub = false;
};

// Vector unit `u` with its own Unified Buffer, load and store engines.
Lane unit_lane(int u) {
    return Lane{EngineId{EngineKind::VectorLoad, u}, EngineId{EngineKind::VectorStore, u}, u, true};
}

// With Unified Buffers a chunk's buffers are in its unit's UB: the
// stream's DDR -> L1 loads become DDR -> UB, its L1 -> DDR stores UB -> DDR.
arch::DmaArgs on_lane(const Lane& lane, arch::DmaArgs d, const std::string& stream) {
    if (!lane.ub) return d;
    const bool load = d.src == arch::Space::DDR && d.dst == arch::Space::L1;
    const bool store = d.src == arch::Space::L1 && d.dst == arch::Space::DDR;
    if ((!load && !store) || d.rearrange || d.gather || d.im2col || d.convert_f32_to_f16)
        throw std::logic_error("vector stream transfer a vector unit's load or store engine cannot make: " + stream);
    (load ? d.dst : d.src) = arch::Space::UB;
    return d;
}

// A load's label on `lane`: the lowerings name a load's destination L1
// ("x -> L1"); on a Unified Buffer lane it lands in the UB.
std::string lane_label(const Lane& lane, const std::string& label) {
    static const std::string l1 = " -> L1";
    if (!lane.ub || label.size() < l1.size() || label.compare(label.size() - l1.size(), l1.size(), l1) != 0)
        return label;
    return label.substr(0, label.size() - l1.size()) + " -> UB";
}

// The commands of one block's chunks `ranges` (each a Range of units) on
// `lane`, with `units_v` vector units taking turns, chunk i on unit i % V:
// loads, computes and stores double-buffered (depth B) and synchronised by
// flags.
void emit_chunks(LowerContext& ctx, BlockBuilder& block, const VectorStream& s, const std::vector<Range>& ranges,
                 int64_t first, int64_t end, const std::vector<std::vector<uint64_t>>& addr, int64_t depth,
                 int64_t units_v, const Lane& lane) {
    const int64_t m = int64_t(ranges.size());
    const EngineId load = lane.load, store = lane.store;
    const bool shared = load == store;
    ChunkCommands prologue;
    if (s.prologue) prologue = s.prologue(first, end - first, slot_addrs(s.buffers, addr, 0, 0));
    const int64_t V = prologue.compute.empty() ? std::min(units_v, m) : 1;
    auto unit_of = [V](int64_t i) { return i % V; };
    // Counting semaphores, one token per chunk, one of each per vector
    // unit (a flag is waited on by one engine): inputs in L1 (dma ->
    // vector), input slot free again (vector -> dma), result in L1
    // (vector -> store), result slot free again (store -> vector; not
    // needed when stores and loads share dma0, whose queue already
    // orders store i before load i + B and so before chunk i + B's
    // compute, which waits for that load; with no loads (on-chip
    // inputs) nothing would, and the flag is needed once a slot is used
    // twice).
    auto stores_at = [&](int64_t i) { return !s.stores || s.stores(ranges[size_t(i)].first); };
    std::vector<int64_t> storing_chunks;  // the storing chunks' indices, in order
    for (int64_t i = 0; i < m; ++i)
        if (stores_at(i)) storing_chunks.push_back(i);
    const int64_t storing = int64_t(storing_chunks.size());
    const bool chunk_loads =
        !s.chunk(ranges.front().first, ranges.front().count, slot_addrs(s.buffers, addr, 0, 0)).loads.empty();
    const bool guard_out = !shared || (!chunk_loads && storing > depth);
    std::vector<FlagId> in_ready, in_free, out_ready, out_free;
    for (int64_t u = 0; u < V; ++u) {
        in_ready.push_back(block.new_flag());
        in_free.push_back(block.new_flag());
        out_ready.push_back(block.new_flag());
        out_free.push_back(guard_out ? block.new_flag() : 0);
    }
    auto& loads = block.stream(load);

    for (const DmaStep& d : prologue.loads)
        loads.push_back(dma_command(on_lane(lane, d.dma, s.name), ctx.tag(lane_label(lane, d.label), d.op)));
    const size_t last_prologue_load = prologue.loads.empty() ? 0 : loads.size();  // + 1; 0 = none
    // The storing chunks (`storing`, above): the k-th takes Result slot
    // k % B, waits for the store of the (k - B)-th and its own store
    // frees the slot for the (k + B)-th (every chunk, when s.stores is
    // null).
    // On a shared queue, stores wait in the load queue (chunk index, commands).
    std::vector<std::pair<int64_t, std::vector<arch::Command>>> pending;
    size_t flushed = 0;
    auto flush_to = [&](int64_t last_chunk) {
        for (; flushed < pending.size() && pending[flushed].first <= last_chunk; ++flushed)
            for (arch::Command& st : pending[flushed].second) loads.push_back(std::move(st));
    };
    int64_t k = 0;  // storing chunks so far
    for (int64_t i = 0; i < m; ++i) {
        const int64_t u = unit_of(i);
        auto& computes = block.stream(EngineId{EngineKind::Vector, lane.vector0 + int(u)});
        const bool will_store = stores_at(i);
        ChunkCommands cc =
            s.chunk(ranges[size_t(i)].first, ranges[size_t(i)].count, slot_addrs(s.buffers, addr, i, k, u));
        // On-chip inputs need no loads, an on-chip output no stores
        // (dsl/lower/buffer_plan.h); then their flags are left out.
        if (cc.compute.empty()) throw std::logic_error("vector stream chunk without compute: " + s.name);
        if (!will_store && !cc.stores.empty())
            throw std::logic_error("vector stream chunk stores where s.stores says not: " + s.name);
        const bool loads_in = !cc.loads.empty(), stores_out = !cc.stores.empty();
        // Without chunk loads the first chunk of each unit still waits
        // for the prologue's (a broadcast operand next to an on-chip
        // input).
        const bool waits_prologue = i < V && !loads_in && last_prologue_load > 0;
        if (waits_prologue) loads[last_prologue_load - 1].sets.push_back(in_ready[size_t(u)]);
        // On a shared queue, the stores of chunks up to i - B go before
        // the load of chunk i: the load waits for the vector unit to
        // finish chunk i - B, as those stores do, and the vector unit
        // needs both before it can run chunk i.
        if (shared && i >= depth) flush_to(i - depth);

        for (size_t j = 0; j < cc.loads.size(); ++j) {
            arch::Command d = dma_command(on_lane(lane, cc.loads[j].dma, s.name),
                                          ctx.tag(lane_label(lane, cc.loads[j].label), cc.loads[j].op));
            // Chunk i - B's unit frees the slot.
            if (j == 0 && i >= depth) d.waits.push_back(in_free[size_t(unit_of(i - depth))]);
            if (j + 1 == cc.loads.size()) d.sets.push_back(in_ready[size_t(u)]);
            loads.push_back(std::move(d));
        }

        std::vector<VectorStep> steps = i == 0 ? std::move(prologue.compute) : std::vector<VectorStep>{};
        steps.insert(steps.end(), cc.compute.begin(), cc.compute.end());
        for (size_t j = 0; j < steps.size(); ++j) {
            arch::Command v = vector_command(steps[j].vec, ctx.tag(steps[j].label, steps[j].op));
            if (j == 0) {
                if (loads_in || waits_prologue) v.waits.push_back(in_ready[size_t(u)]);
                if (stores_out && guard_out && k >= depth) v.waits.push_back(out_free[size_t(u)]);
            }
            if (j + 1 == steps.size()) {
                if (loads_in && i + depth < m) v.sets.push_back(in_free[size_t(u)]);
                if (stores_out) v.sets.push_back(out_ready[size_t(u)]);
            }
            computes.push_back(std::move(v));
        }

        std::vector<arch::Command> st;
        for (size_t j = 0; j < cc.stores.size(); ++j) {
            arch::Command d =
                dma_command(on_lane(lane, cc.stores[j].dma, s.name), ctx.tag(cc.stores[j].label, cc.stores[j].op));
            if (j == 0) d.waits.push_back(out_ready[size_t(u)]);
            // The store frees its Result slot for the (k + B)-th storing
            // chunk, on that chunk's unit.
            if (guard_out && j + 1 == cc.stores.size() && k + depth < storing)
                d.sets.push_back(out_free[size_t(unit_of(storing_chunks[size_t(k + depth)]))]);
            st.push_back(std::move(d));
        }
        if (will_store) ++k;
        if (shared) pending.emplace_back(i, std::move(st));
        else
            for (arch::Command& d : st) block.stream(store).push_back(std::move(d));
    }
    if (shared) flush_to(m);
}

// A stream over tensors kept in the Unified Buffers (LowerContext::
// ub_rows): its units are their rows, taken in the units' bands
// (dsl/lower/buffer_plan.h UbBands) whatever the stream's own chunks, so a
// row is read and written in the UB that holds it: one block per cluster
// holding rows, on that cluster, and in it each unit's band in chunks of
// at most `n_max` rows, a pipeline on that unit.
void lower_over_ub_bands(LowerContext& ctx, const VectorStream& s, int64_t n_max, int64_t depth) {
    const BufferPlan& plan = ctx.plan;
    if (s.units != ctx.ub_rows || s.group != 1)
        throw PlacementMismatch{ctx.ub_tensors.front(),
                                "a stream of '" + s.name + "' takes " + std::to_string(s.units) +
                                    (s.group != 1 ? " units in groups" : " units") + ", not its " +
                                    std::to_string(ctx.ub_rows) + " rows one by one"};
    const UbBands bands = plan.ub_of(ctx.ub_tensors.front()).bands;
    std::vector<std::vector<std::vector<Range>>> chunks;  // [cluster][unit]
    int64_t largest = 0;
    for (int64_t c = 0; c * bands.cluster_rows < s.units; ++c) {
        const int64_t c0 = c * bands.cluster_rows, c1 = std::min(s.units, c0 + bands.cluster_rows);
        chunks.emplace_back();
        for (int64_t u0 = c0; u0 < c1; u0 += bands.unit_rows) {
            const int64_t u1 = std::min(c1, u0 + bands.unit_rows), rows = u1 - u0;
            const int64_t m = arch::ceil_div(rows, n_max);
            chunks.back().emplace_back();
            for (int64_t j = 0; j < m; ++j) {
                const int64_t f = u0 + j * rows / m, e = u0 + (j + 1) * rows / m;
                chunks.back().back().push_back({f, e - f});
                largest = std::max(largest, e - f);
            }
        }
    }
    const auto addr = layout(s.buffers, largest, depth, 1);
    for (size_t c = 0; c < chunks.size(); ++c) {
        const int64_t first = chunks[c].front().front().first;
        const int64_t end = chunks[c].back().back().first + chunks[c].back().back().count;
        BlockBuilder block(s.name + "[" + std::to_string(first) + ":" + std::to_string(end) + "]");
        for (size_t u = 0; u < chunks[c].size(); ++u)
            emit_chunks(ctx, block, s, chunks[c][u], first, end, addr, depth, 1, unit_lane(int(u)));
        ctx.block_cluster = bands.first_cluster + int32_t(c);
        ctx.add_block(block);
        ctx.block_cluster = -1;
    }
}

}  // namespace

int64_t stream_depth(const LowerContext& ctx) { return ctx.buffering(2); }

int64_t vector_capacity(const arch::Config& c) { return c.vector_buffer() ? c.ub_bytes() : c.l1_bytes(); }

const char* vector_memory_name(const arch::Config& c) {
    return c.vector_buffer() ? "a vector unit's Unified Buffer" : "L1";
}

int64_t l1_bytes_needed(const std::vector<BufferSpec>& buffers, int64_t n, int64_t depth) {
    return l1_bytes_needed(buffers, n, depth, 1);
}

int64_t max_chunk_units(const LowerContext& ctx, const std::vector<BufferSpec>& buffers) {
    return max_chunk_units(ctx.config, buffers, stream_depth(ctx));
}

int64_t max_chunk_units(const arch::Config& c, const std::vector<BufferSpec>& buffers, int64_t depth) {
    // With Unified Buffers a chunk is held by its vector unit's UB.
    return max_chunk_units(vector_capacity(c), buffers, depth, 1);
}

arch::DmaArgs load_dma(uint64_t ddr, uint64_t l1, uint64_t bytes) {
    arch::DmaArgs d;
    d.src = arch::Space::DDR, d.dst = arch::Space::L1;
    d.src_addr = ddr, d.dst_addr = l1;
    d.rows = 1, d.row_bytes = uint32_t(bytes);
    d.src_stride = bytes, d.dst_stride = bytes;
    return d;
}

arch::DmaArgs store_dma(uint64_t l1, uint64_t ddr, uint64_t bytes) {
    arch::DmaArgs d = load_dma(l1, ddr, bytes);
    d.src = arch::Space::L1, d.dst = arch::Space::DDR;
    return d;
}

arch::VectorArgs vector_args(arch::VectorOp op, arch::DType t, int64_t rows, int64_t cols, uint64_t src0, uint64_t src1,
                             uint64_t dst) {
    if (op == arch::VectorOp::Cast) throw std::logic_error("vector_args: a cast names its target (cast_args)");
    arch::VectorArgs v;
    v.op = op, v.dtype = t;
    v.rows = uint32_t(rows), v.cols = uint32_t(cols);
    v.src0 = src0, v.src1 = src1, v.dst = dst;
    return v;
}

arch::VectorArgs cast_args(arch::DType from, arch::DType to, int64_t rows, int64_t cols, uint64_t src, uint64_t dst) {
    arch::VectorArgs v;
    v.op = from == to ? arch::VectorOp::Copy : arch::VectorOp::Cast, v.dtype = from;
    if (from != to) v.cast_to = to;
    v.rows = uint32_t(rows), v.cols = uint32_t(cols);
    v.src0 = src, v.src1 = arch::kNoAddress, v.dst = dst;
    return v;
}

int64_t parallel_clusters(const LowerContext& ctx) {
    if (ctx.pin >= 0) return 1;  // a stream over one part runs on the cluster that holds it
    return arch::blocks_in_flight(ctx.program, ctx.config);
}

int64_t unit_extent(const LowerContext& ctx, int64_t extent, int64_t groups, int64_t fit) {
    // `groups` independent rows of units (planes, outer indices) share the
    // clusters: each needs this many pieces of `extent`.
    const int64_t wanted = arch::ceil_div(parallel_clusters(ctx) * kChunksPerCluster, groups);
    const int64_t target = std::max<int64_t>(1, arch::ceil_div(extent, wanted));
    return std::max<int64_t>(1, std::min({extent, fit, target}));
}

int64_t band_stream(const LowerContext& ctx, VectorStream& s, const std::string& name, int64_t rows, int64_t planes,
                    const std::vector<BufferSpec>& per_row) {
    const int64_t nb = unit_extent(ctx, rows, planes, std::max<int64_t>(1, max_chunk_units(ctx, per_row)));
    s.name = name;
    s.units = planes * arch::ceil_div(rows, nb);
    s.max_chunk_units = 1;
    s.buffers.clear();
    for (const BufferSpec& b : per_row) s.buffers.push_back({b.kind, b.per_unit * nb + b.fixed, 0});
    return nb;
}

void lower_vector_stream(LowerContext& ctx, const OpNode& op, const VectorStream& s) {
    const arch::Config& c = ctx.config;
    if (s.units <= 0) throw std::logic_error("vector stream without units: " + s.name);
    // Depth B: Streamed buffers have B slots; chunk i uses slot i % B, and
    // its load (its result) waits for the vector unit (the store) to release
    // chunk i - B.
    const int64_t depth = stream_depth(ctx);
    const bool ub = c.vector_buffer();
    const int64_t capacity = vector_capacity(c);
    int64_t fit = max_chunk_units(capacity, s.buffers, depth, 1);
    if (fit == 0)
        throw CompileError(op.loc,
                           std::string(op_kind_name(op.kind)) + " does not fit the hardware: one chunk needs " +
                               std::to_string(l1_bytes_needed(s.buffers, 1, depth)) +
                               (ub ? " bytes of a vector unit's Unified Buffer" : " bytes of L1") +
                               (depth != 2 ? " with pypo.config.BUFFERS = " + std::to_string(depth) : std::string()) +
                               (ub ? ", which has " : ", a cluster has ") + std::to_string(capacity),
                           ub ? CompileError::Capacity::UB : CompileError::Capacity::L1);

    const int dmas = int(c.dma_engines);
    const EngineId load{EngineKind::ClusterDma, 0};
    // Stores get their own queue when there is one, so a store never waits
    // behind a load (and the other way round).
    const EngineId store{EngineKind::ClusterDma, dmas - 1};
    const bool shared = load == store;

    // Several vector units share a block's chunks, chunk i on unit i % V,
    // each with its own Scratch slot, when the stream allows it: its
    // groups are single units (a multi-pass row op carries a row's
    // statistics in Scratch from pass to pass, on one unit), its stores
    // have their own queue, and V Scratch slots still leave room for a
    // chunk. A block whose prologue computes (into Resident buffers, which
    // every chunk reads) keeps its chunks on vector0. With Unified
    // Buffers each unit has its own buffers and load and store engines:
    // the units take turns whenever the groups are single units.
    int64_t units_v = 1;
    if (ub) {
        if (s.group == 1) units_v = c.vector_units;
    } else if (c.vector_units > 1 && s.group == 1 && !shared) {
        const int64_t spread_fit = max_chunk_units(capacity, s.buffers, depth, c.vector_units);
        if (spread_fit > 0) units_v = c.vector_units, fit = spread_fit;
    }
    const int64_t n_max = std::min(fit, s.max_chunk_units);
    if (ctx.ub_rows > 0) return lower_over_ub_bands(ctx, s, n_max, depth);

    // One block per cluster that may run at once (more would only queue:
    // every chunk already overlaps its transfers with compute), the units
    // split evenly so the clusters finish together; fewer blocks when there
    // are fewer units. Chunks split each block's units evenly too.
    if (s.units % s.group != 0) throw std::logic_error("vector stream units not in whole groups: " + s.name);
    const int64_t groups = s.units / s.group;
    const int64_t blocks = std::min(parallel_clusters(ctx), groups);
    std::vector<std::vector<Range>> chunks(static_cast<size_t>(blocks));
    int64_t largest = 0;
    for (int64_t b = 0; b < blocks; ++b) {
        const int64_t first = b * groups / blocks * s.group, end = (b + 1) * groups / blocks * s.group;
        const int64_t units = end - first;
        int64_t m = arch::ceil_div(units, n_max);
        // Fewer chunks than units: split further where a chunk moves
        // nothing over DDR (its inputs and its result on chip), which
        // costs each extra chunk only its commands' heads; with Unified
        // Buffers always, as each unit moves its own chunks' data.
        auto moves_nothing = [&] {
            const ChunkCommands probe = s.chunk(first, units, BufferAddrs(s.buffers.size(), 0));
            return probe.loads.empty() && probe.stores.empty();
        };
        if (m < units_v && (ub || moves_nothing())) m = std::min(units, units_v);
        for (int64_t j = 0; j < m; ++j) {
            int64_t f = first + j * units / m, e = first + (j + 1) * units / m;
            chunks[size_t(b)].push_back({f, e - f});
            largest = std::max(largest, e - f);
        }
    }
    // With Unified Buffers every unit's UB has the same layout, one
    // Scratch slot each.
    const auto addr = layout(s.buffers, largest, depth, ub ? 1 : units_v);

    for (int64_t b = 0; b < blocks; ++b) {
        const std::vector<Range>& ranges = chunks[size_t(b)];
        const int64_t first = ranges.front().first, end = ranges.back().first + ranges.back().count;
        // Over a part of a partitioned tensor: the part's rows and columns.
        const LowerContext::Window& w = ctx.window;
        BlockBuilder block(w.active() ? s.name + "[" + std::to_string(w.r0 + first) + ":" + std::to_string(w.r0 + end) +
                                            ", " + std::to_string(w.c0) + ":" + std::to_string(w.c0 + w.cols) + "]"
                                      : s.name + "[" + std::to_string(first) + ":" + std::to_string(end) + "]");
        if (!ub) {
            emit_chunks(ctx, block, s, ranges, first, end, addr, depth, units_v, Lane{load, store, 0, false});
        } else {
            // Chunk i on unit i % V, each unit a pipeline of its own.
            const int64_t V = std::min<int64_t>(units_v, int64_t(ranges.size()));
            for (int64_t u = 0; u < V; ++u) {
                std::vector<Range> own;
                for (size_t i = size_t(u); i < ranges.size(); i += size_t(V)) own.push_back(ranges[i]);
                emit_chunks(ctx, block, s, own, first, end, addr, depth, 1, unit_lane(int(u)));
            }
        }
        ctx.add_block(block);
    }
}

}  // namespace dsl
