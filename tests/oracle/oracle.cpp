// The reference oracle: docs/timing-model.md stepped one cycle at a time.
//
// Written from the specification text only (not from sim/hw/). Section
// numbers (§) refer to docs/timing-model.md.
//
// Within-cycle ordering. For each cycle `now` = 0, 1, 2, ...:
//
//   1. Block starts: every block whose start cycle (decision + dispatch_cycles)
//      is `now` becomes active; its engines are ready from `now` (§4).
//   2. Link arbitration at `now` (§6): on each link (the DDR side's first,
//      the L2's read port before its write port when it has two: §6.1),
//      while its next free byte slot lies in cycle `now` (or earlier: the
//      link was idle), grant
//      one burst of up to S bytes to the first eligible requester
//      (eligible_at <= now) after the last one granted; the burst takes the
//      next b byte slots, W of which make a cycle. This comes before the
//      starts of step 3 because granting a request's last burst releases its
//      DMA engine, which may start its next command at `now` (§5); it does
//      not depend on step 3, since requests made at `now` are only eligible
//      from now + 1, and a grant at `now` ends nothing at `now` (the data
//      arrives after the cycle of its last byte).
//   3. Ends and starts, repeated until nothing changes (a fixpoint):
//        - every engine whose command ends at `now` records the end, sets its
//          flags at `now` and becomes free for its next command;
//        - every free engine whose next command (of one of the blocks on its
//          cluster, tried in round-robin order of their slots after the slot
//          it served last) may start at `now` starts it:
//          r = max(the block's start, the cycle the engine's last command
//          ended (MATMUL, VECTOR) or had its last burst granted (DMA), the
//          end of its command dma.max_outstanding places back (DMA)) and
//          r + the command's issue_cycles <= now, and for each flag waited
//          on, the next unconsumed set exists and happened at t with
//          t + flag_latency <= now (§5). A MATMUL's or VECTOR's end is
//          computed at once (§7, §8: neither touches a shared link); a DMA
//          registers its request, eligible from now + 1 (§6), and its end is
//          known once its last burst is granted.
//      Why a fixpoint: the start rule s = max(ready + issue, flag times) only depends
//      on facts that are final by the end of the cycle (ends at <= now, sets
//      at <= now). Iterating until stable makes every command start in the
//      first cycle its conditions hold, whatever order engines are visited
//      in: a command ending at e lets its engine's next command start at e; a
//      flag set at e with latency 0 lets its waiter start at e; even a
//      zero-length MATMUL (pipeline_cycles = 0 cannot give one, since m, k,
//      n >= 1, but the loop does not rely on that) would chain correctly.
//   3b. Cycle accounting (§9): every engine's cycle `now` is busy (a command
//      of it in flight, started at <= now and ending after now), waiting on
//      the link (in flight, and its request, eligible with bytes left at the
//      start of the cycle, got no byte slot of the cycle: found in step 2),
//      or else, for the command it starts next, waiting on a flag (its
//      flags do not allow it at `now`) or issuing (its issue cycles have not
//      passed); any other cycle is idle. Which command starts next is known
//      only when it starts, so each resident stream counts its own head's
//      flag and issue cycles and the engine takes the counts of the stream
//      whose command it starts (dropping the others': those cycles were
//      idle for the command that came next).
//   4. Block ends: a block whose streams have all finished ends at the
//      largest end of its commands (all <= now, the last one exactly now),
//      or at its start if it has none (§4). Its slot is then free at now.
//   5. Dispatch decisions at d = now (§4), after step 4 so that a block
//      ending at now frees its cluster and satisfies its dependents for the
//      decision at now. Decisions put starts at now + dispatch_cycles > now,
//      so nothing in this cycle depends on them. (The dispatcher is only
//      consulted at cycle 0 and at cycles where some block ended: free
//      clusters and ready blocks change only then, and after a decision loop
//      ends nothing more could be assigned until they do.)
//
// A slot that has been given a block is not free until that block ends,
// even before the block starts (dispatch_cycles > 1).
//
// Several blocks per cluster (P > chip.clusters, §4): each cluster has
// S = ceil(P / clusters) slots; a block's flags are its own; an engine is
// shared by the blocks in its cluster's slots and runs one command at a time.
//
// Separate vector cores (vector.separate_cores, §4): each cluster has S
// slots on each of its two sides, the cube core (DMA engines, cubes and
// their DMA engines) and the vector cores (vector units and their load and
// store engines); a block goes to the side of its first engine with
// commands, and P bounds each side's blocks in flight on its own.
//
// Deadlock: if in some cycle nothing happened and nothing is pending (no
// command in flight, no request on a link, no block waiting to start, no
// engine merely waiting out a flag's latency or its next command's issue
// cycles), nothing can ever happen again.
#include "tests/oracle/oracle.h"

#include <algorithm>
#include <memory>
#include <string>

namespace oracle {

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

[[noreturn]] void fail(const std::string& msg) { throw std::runtime_error("oracle: " + msg); }

struct EngineRun;

struct ActiveBlock;

// A DMA command's request on a link: at most one per requester.
struct Request {
    bool active = false;
    uint64_t eligible_at = 0;
    uint64_t remaining = 0;     // bytes not yet granted
    uint64_t bytes = 0;         // the request's size
    uint64_t ready = 0;         // with an L2: the latest data-ready cycle of its bursts (§6.1)
    uint64_t path_leaves = 0;   // the cycle it leaves its read or write path (§6.2; 0: none)
    bool eligible_now = false;  // eligible with bytes left at the start of this cycle's arbitration
    uint64_t waited = 0;        // cycles it waited for the link (§9)
    EngineRun* owner = nullptr;
    ActiveBlock* block = nullptr;
    size_t index = 0;  // the command's position in its stream
};

// §6: bandwidth W, burst S, latency Lat, round-robin over numbered requesters.
struct Link {
    uint64_t W = 1, S = 1, Lat = 0;
    uint64_t next_slot = 0;  // the first byte slot not yet granted (cycle c has slots [cW, (c+1)W))
    size_t last = 0;         // the requester granted last
    std::vector<Request> requests;
    std::vector<uint64_t> slots_end;  // per requester: the slot after the last one granted to it

    Link(uint64_t w, uint64_t s, uint64_t lat, size_t requesters)
        : W(w), S(s), Lat(lat), last(requesters - 1), requests(requesters), slots_end(requesters, 0) {}
};

// §6.1: the L2 cache, each set a list of its lines from the most recently
// used to the least, and the DDR channel behind it serving the L2's
// transfers one after another.
struct L2 {
    struct Line {
        uint64_t index = 0;
        bool dirty = false;
        uint64_t ready = 0;  // when its data is there
    };
    uint64_t L = 0, sets = 0, ways = 0, Wd = 1, ddr_latency = 0;
    std::vector<std::vector<Line>> lru;  // per set, most recently used first
    uint64_t ddr_next_slot = 0;
    L2Counts counts;

    // A DDR transfer queued at cycle g: the cycle it leaves the channel.
    uint64_t ddr_transfer(uint64_t g, uint64_t bytes) {
        uint64_t p = std::max(ddr_next_slot, (g + 1) * Wd);
        ddr_next_slot = p + bytes;
        return (ddr_next_slot + Wd - 1) / Wd;
    }

    // One lookup at cycle g; returns the line's ready cycle.
    uint64_t look_up(uint64_t index, bool write, uint64_t g) {
        std::vector<Line>& set = lru[index % sets];
        for (size_t i = 0; i < set.size(); ++i) {
            if (set[i].index != index) continue;
            Line hit = set[i];
            hit.dirty = hit.dirty || write;
            set.erase(set.begin() + long(i));
            set.insert(set.begin(), hit);
            ++(write ? counts.write_hits : counts.read_hits);
            return hit.ready;
        }
        ++(write ? counts.write_misses : counts.read_misses);
        Line fresh{index, write, g};
        if (set.size() == ways) {
            if (set.back().dirty) {
                ++counts.writebacks;
                fresh.ready = ddr_transfer(g, L);  // the old line goes out first
            }
            set.pop_back();
        }
        if (!write) {
            ++counts.fills;
            fresh.ready = ddr_transfer(g, L) + ddr_latency;
        }
        set.insert(set.begin(), fresh);
        return fresh.ready;
    }
};

// §6.1: the DDR-side region of a DDR<->L1 command, rows of bytes.
struct Rows {
    uint64_t addr = 0, rows = 0, row_bytes = 0, stride = 0;
};
Rows ddr_rows(const arch::DmaArgs& d) {
    const bool shuffle = d.rearrange && d.rearrange->kind == arch::Rearrange::Kind::PixelShuffle;
    const bool transpose = d.rearrange && d.rearrange->kind == arch::Rearrange::Kind::Transpose;
    if (d.src == arch::Space::DDR)
        return shuffle ? Rows{d.src_addr, 1, d.bytes(), 0} : Rows{d.src_addr, d.rows, d.row_bytes, d.src_stride};
    if (transpose) {
        uint64_t e = d.rearrange->element_bytes;
        return {d.dst_addr, d.row_bytes / e, d.rows * e, d.dst_stride};
    }
    return {d.dst_addr, d.rows, d.row_bytes, d.dst_stride};
}

// One engine of one cluster, whichever block it is running a command of.
struct EngineState {
    bool busy = false;           // a MATMUL or VECTOR runs on it, or its DMA request is on the link
    uint64_t released_at = 0;    // its last command ended (MATMUL, VECTOR) or had its last burst granted (DMA)
    std::vector<uint64_t> ends;  // end cycles of its DMA commands, in start order, once known
    uint32_t last_slot = 0;      // the slot it served last
    // Cycle accounting (step 3b).
    size_t in_flight = 0;                    // commands started and not ended
    uint64_t link_waited_at = ~uint64_t{0};  // the last cycle it waited for the link
    uint64_t busy_cycles = 0, link_wait = 0, flag_wait = 0, issue = 0;
};

// A command started and not yet ended, whose end is known.
struct Timed {
    ActiveBlock* block = nullptr;
    EngineRun* run = nullptr;
    size_t index = 0;
    uint64_t end = 0;
};

// One engine running one block's stream.
struct EngineRun {
    const arch::Stream* stream = nullptr;
    EngineState* engine = nullptr;
    size_t first_timing = 0;  // Result::commands index of its command 0
    size_t next = 0;          // commands [0, next) have started
    uint64_t block_start = 0;
    size_t unfinished = 0;  // commands started and not ended
    Link* link = nullptr;   // DMA engines: the link its commands cross
    size_t requester = 0;
    uint64_t head_flag = 0, head_issue = 0;  // step 3b: cycles its next command waited on flags, on issue

    bool done() const { return unfinished == 0 && next == stream->commands.size(); }
};

struct ActiveBlock {
    uint32_t id = 0;
    uint32_t cluster = 0, slot = 0;
    uint64_t start = 0;
    bool started = false;
    std::vector<EngineRun> engines;
    std::vector<std::vector<uint64_t>> sets;  // per flag: cycles of its sets, in order
    std::vector<size_t> consumed;             // per flag: sets consumed by waits
    uint64_t last_end = 0;
};

struct Sim {
    const arch::Program& prog;
    const arch::Config& cfg;
    Result res;
    std::vector<std::vector<size_t>> timing_base;  // [block][stream] -> Result index

    Link ddr;  // the DDR channel, or the L2's port when there is an L2 (§6.1)
    std::unique_ptr<L2> l2;
    std::unique_ptr<Link> l2_write;  // the L2's write port, if it has one of its own (§6.1)
    std::vector<Link> l1;            // per cluster
    // §6.2: the DDR side's requesters of one cluster, its DMA engines then
    // per vector unit (with Unified Buffers) its load and store engines;
    // its path pairs, the cluster's then one per vector unit; per cluster,
    // pair and direction ((cl * pairs + pair) * 2 + write): the last
    // request's exit.
    size_t ddr_per_cluster = size_t(cfg.dma_engines) + (cfg.vector_buffer_kib > 0 ? 2 * size_t(cfg.vector_units) : 0);
    size_t pairs = 1 + (cfg.vector_buffer_kib > 0 ? size_t(cfg.vector_units) : 0);
    std::vector<uint64_t> path_free = std::vector<uint64_t>(size_t(cfg.clusters) * pairs * 2, 0);
    // §6.2 on the L1 ports: per cluster and cube (cl * cubes + cube), the
    // last L1 -> L0 request's exit from the cube's read path.
    std::vector<uint64_t> l1_path_free = std::vector<uint64_t>(size_t(cfg.clusters * cfg.cubes_per_cluster), 0);
    uint64_t P = 0;      // blocks in flight at most
    uint32_t used = 0;   // clusters in use: min(P, clusters)
    uint32_t S = 1;      // slots per cluster and side: ceil(P / clusters)
    uint32_t sides = 1;  // 2 with separate vector cores: the cube side 0, the vector side 1
    uint32_t engines_per_cluster = 0;
    // Per cluster, side and slot ((cl * sides + side) * S + k): its block, if any.
    std::vector<std::unique_ptr<ActiveBlock>> running;
    std::vector<EngineState> engine_states;  // per cluster and engine (cl * engines_per_cluster + engine_slot)
    std::vector<Timed> timed;                // every command in flight whose end is known
    std::vector<bool> assigned, ended;
    size_t blocks_ended = 0;
    bool dispatch_dirty = true;
    bool activity = false;  // something happened this cycle

    Sim(const arch::Program& p, const arch::Config& c)
        : prog(p),
          cfg(c),
          ddr(uint64_t(c.l2_kib ? c.l2_bytes_per_cycle : c.ddr_bytes_per_cycle), uint64_t(c.ddr_burst_bytes),
              uint64_t(c.l2_kib ? c.l2_hit_latency_cycles : c.ddr_latency_cycles),
              size_t(c.clusters) *
                  (size_t(c.dma_engines) + (c.vector_buffer_kib > 0 ? 2 * size_t(c.vector_units) : 0))) {
        if (c.l2_kib) {
            l2 = std::make_unique<L2>();
            l2->L = uint64_t(c.l2_line_bytes);
            l2->ways = uint64_t(c.l2_ways);
            l2->sets = uint64_t(c.l2_kib) * 1024 / (l2->L * l2->ways);
            if (l2->sets == 0 || l2->sets * l2->L * l2->ways != uint64_t(c.l2_kib) * 1024)
                fail("l2.kib is not a whole number of sets");
            l2->lru.resize(l2->sets);
            l2->Wd = uint64_t(c.ddr_bytes_per_cycle);
            l2->ddr_latency = uint64_t(c.ddr_latency_cycles);
            if (c.l2_write_bytes_per_cycle > 0)
                l2_write = std::make_unique<Link>(uint64_t(c.l2_write_bytes_per_cycle), uint64_t(c.ddr_burst_bytes),
                                                  uint64_t(c.l2_hit_latency_cycles), ddr.requests.size());
        }
        for (int64_t i = 0; i < c.clusters; ++i)
            l1.emplace_back(uint64_t(c.l1_bytes_per_cycle), uint64_t(c.l1_burst_bytes), uint64_t(c.l1_latency_cycles),
                            size_t(c.cubes_per_cluster));
        P = p.max_parallel == 0 ? uint64_t(c.clusters) : p.max_parallel;
        used = uint32_t(std::min<uint64_t>(P, uint64_t(c.clusters)));
        S = uint32_t(ceil_div(P, uint64_t(c.clusters)));
        if (S > 1 && c.flag_latency_cycles < 1) fail("several blocks per cluster need flag_latency_cycles >= 1");
        sides = c.vector_separate_cores ? 2 : 1;
        running.resize(size_t(used) * sides * S);
        engines_per_cluster = uint32_t(c.dma_engines + 2 * c.cubes_per_cluster + 3 * c.vector_units);
        engine_states.resize(size_t(used) * engines_per_cluster);
        for (EngineState& e : engine_states) e.last_slot = S - 1;
        assigned.assign(p.blocks.size(), false);
        ended.assign(p.blocks.size(), false);
        res.blocks.resize(p.blocks.size());
        validate_and_lay_out();
    }

    void validate_and_lay_out() {
        timing_base.resize(prog.blocks.size());
        for (size_t b = 0; b < prog.blocks.size(); ++b) {
            const arch::Block& blk = prog.blocks[b];
            std::string where = "block " + std::to_string(b);
            for (uint32_t d : blk.deps)
                if (d >= b) fail(where + " depends on block " + std::to_string(d) + ", not an earlier one");
            for (size_t si = 0; si < blk.streams.size(); ++si) {
                const arch::Stream& s = blk.streams[si];
                std::string w = where + ", " + arch::engine_name(s.engine);
                int64_t limit =
                    s.engine.kind == arch::EngineKind::ClusterDma ? cfg.dma_engines
                    : s.engine.kind == arch::EngineKind::Vector   ? cfg.vector_units
                    : s.engine.kind == arch::EngineKind::VectorLoad || s.engine.kind == arch::EngineKind::VectorStore
                        ? (cfg.vector_buffer_kib > 0 ? cfg.vector_units : 0)
                        : cfg.cubes_per_cluster;
                if (s.engine.index < 0 || s.engine.index >= limit) fail(w + ": no such engine");
                for (size_t sj = 0; sj < si; ++sj)
                    if (blk.streams[sj].engine == s.engine) fail(w + ": two streams for one engine");
                timing_base[b].push_back(res.commands.size());
                for (size_t i = 0; i < s.commands.size(); ++i) {
                    const arch::Command& c = s.commands[i];
                    std::string wc = w + " command " + std::to_string(i);
                    for (arch::FlagId f : c.waits)
                        if (f >= blk.num_flags) fail(wc + ": waits on an undeclared flag");
                    for (arch::FlagId f : c.sets)
                        if (f >= blk.num_flags) fail(wc + ": sets an undeclared flag");
                    if (c.op == arch::Opcode::Dma) {
                        bool ddr_l1 = (c.dma.src == arch::Space::DDR && c.dma.dst == arch::Space::L1) ||
                                      (c.dma.src == arch::Space::L1 && c.dma.dst == arch::Space::DDR);
                        bool l1_l0 = (c.dma.src == arch::Space::L1 && c.dma.dst == arch::Space::L0) ||
                                     (c.dma.src == arch::Space::L0 && c.dma.dst == arch::Space::L1);
                        bool ddr_ub = c.dma.src == arch::Space::DDR && c.dma.dst == arch::Space::UB;
                        bool ub_ddr = c.dma.src == arch::Space::UB && c.dma.dst == arch::Space::DDR;
                        if (s.engine.kind == arch::EngineKind::ClusterDma    ? !ddr_l1
                            : s.engine.kind == arch::EngineKind::CubeDma     ? !l1_l0
                            : s.engine.kind == arch::EngineKind::VectorLoad  ? !ddr_ub
                            : s.engine.kind == arch::EngineKind::VectorStore ? !ub_ddr
                                                                             : true)
                            fail(wc + ": DMA not allowed on this engine");
                        if (c.dma.bytes() == 0) fail(wc + ": empty DMA");
                    } else if (c.op == arch::Opcode::Vector) {
                        if (s.engine.kind != arch::EngineKind::Vector) fail(wc + ": VECTOR not on a vector unit");
                        if (c.vec.rows == 0 || c.vec.cols == 0) fail(wc + ": empty VECTOR");
                    } else {
                        if (s.engine.kind != arch::EngineKind::Cube) fail(wc + ": MATMUL not on a cube");
                        if (c.mm.m == 0 || c.mm.k == 0 || c.mm.n == 0) fail(wc + ": empty MATMUL");
                    }
                    Timing t;
                    t.block = uint32_t(b);
                    t.engine = s.engine;
                    t.index = uint32_t(i);
                    res.commands.push_back(t);
                }
            }
        }
    }

    // §7.
    uint64_t matmul_cycles(const arch::MatmulArgs& mm) const {
        uint64_t m = mm.m, k = mm.k, n = mm.n;
        uint64_t passes = mm.dtype == arch::DType::Float32 ? uint64_t(cfg.fp32_passes) : 1;
        uint64_t eb = uint64_t(arch::dtype_bytes(mm.dtype));
        uint64_t R = uint64_t(cfg.mac_rows);
        if (cfg.cube_dataflow == arch::Dataflow::Fractal) {
            uint64_t Q = uint64_t(cfg.mac_cols);
            uint64_t blocks = ceil_div(m, R) * ceil_div(n, Q);
            // §7.1: the MAC takes 2 * k_per_cycle bytes of K a step, in
            // whole elements of the operand dtype, at least one.
            uint64_t depth = std::max<uint64_t>(1, 2 * uint64_t(cfg.cube_k_per_cycle) / eb);
            uint64_t mac_cycles = blocks * ceil_div(k, depth) * passes;
            uint64_t operand_bytes = k * (m * ceil_div(n, Q) + n * ceil_div(m, R)) * eb;
            uint64_t link_cycles = ceil_div(operand_bytes, uint64_t(cfg.l0_bytes_per_cycle));
            return uint64_t(cfg.cube_pipeline_cycles) + std::max(mac_cycles, link_cycles);
        }
        // Systolic (§7.2): walk the folds one by one; each streams the T
        // temporal steps and, unless the command continues the fold before
        // it, first pays the fill and drain. The command that ends its
        // operation's fold schedule is one cycle shorter (SCALE-Sim reports
        // the index of a layer's last cycle).
        uint64_t C = uint64_t(cfg.mac_cols);
        bool os = cfg.cube_dataflow == arch::Dataflow::OS;
        bool ws = cfg.cube_dataflow == arch::Dataflow::WS;
        uint64_t Sr = os ? m : k;
        uint64_t Sc = os ? n : ws ? n : m;
        uint64_t T = os ? k : ws ? m : n;
        uint64_t fill_drain = os ? R + C - 2 : 2 * R + C - 2;
        uint64_t cycles = 0;
        for (uint64_t row = 0; row < Sr; row += R)
            for (uint64_t col = 0; col < Sc; col += C) cycles += T + (mm.fold_continues ? 0 : fill_drain);
        if (!mm.schedule_continues) cycles -= 1;
        uint64_t mac_cycles = cycles * passes;
        // Operands from L0: os streams A's rows and B's columns for every
        // fold; ws/is load the stationary matrix once and stream the other
        // once per column fold.
        uint64_t elements = 0;
        if (os) elements = ceil_div(n, C) * m * k + ceil_div(m, R) * n * k;
        else if (ws) elements = k * n + ceil_div(n, C) * m * k;
        else elements = m * k + ceil_div(m, C) * n * k;
        uint64_t link_cycles = ceil_div(elements * eb, uint64_t(cfg.l0_bytes_per_cycle));
        return std::max(mac_cycles, link_cycles);
    }

    // §8, from the spec's formulas: the op class's head, its rate (in
    // hundredths of a cycle) times the ceil(N*e/W) repeats, rounded up, plus,
    // for the row reductions, a combining tree per row.
    uint64_t vector_cycles(const arch::VectorArgs& v) const {
        using Op = arch::VectorOp;
        uint64_t W = uint64_t(cfg.vector_bytes_per_cycle);
        uint64_t e = uint64_t(arch::dtype_bytes(v.dtype));  // the source's type, also for a cast
        uint64_t N = uint64_t(v.rows) * uint64_t(v.cols);
        int64_t head = 0, width = 1;  // width: the class's narrowest element
        arch::Hundredths rate;
#define ORACLE_CLASS(key) \
    head = cfg.vector_##key##_head, rate = cfg.vector_##key##_rate, width = cfg.vector_##key##_element_bytes
        switch (v.op) {
        case Op::Copy: ORACLE_CLASS(copy); break;
        case Op::Cast: ORACLE_CLASS(cast); break;
        case Op::Select: ORACLE_CLASS(select); break;
        case Op::Relu: ORACLE_CLASS(relu); break;
        case Op::Add:
        case Op::Sub: ORACLE_CLASS(add); break;
        case Op::Maximum:
        case Op::Minimum: ORACLE_CLASS(minmax); break;
        case Op::Mul: ORACLE_CLASS(mul); break;
        case Op::Sqrt: ORACLE_CLASS(sqrt); break;
        case Op::Exp:
        case Op::Sigmoid:
        case Op::Tanh:
        case Op::Gelu: ORACLE_CLASS(transcendental); break;
        case Op::Div: ORACLE_CLASS(divide); break;
        case Op::Transpose: ORACLE_CLASS(transpose); break;
        case Op::ReduceSum:
        case Op::ReduceMax:
        case Op::Argmax: ORACLE_CLASS(reduce); break;
        }
#undef ORACLE_CLASS
        if (uint64_t(width) > e) e = uint64_t(width);  // §8: counted at the class's element width
        uint64_t repeats = ceil_div(N * e, W);
        uint64_t cycles = uint64_t(head) + ceil_div(repeats * uint64_t(rate.value), uint64_t{100});
        if (v.op == Op::ReduceSum || v.op == Op::ReduceMax || v.op == Op::Argmax) {
            uint64_t lanes = std::max<uint64_t>(1, W / e);
            uint64_t width = std::min<uint64_t>(v.cols, lanes);
            uint64_t levels = 0;  // ceil(log2(width)): halve (rounding up) until one value is left
            for (uint64_t x = width; x > 1; x = (x + 1) / 2) ++levels;
            cycles += uint64_t(v.rows) * levels;
        }
        return cycles;
    }

    // §5: the engine's ready time for its next command (of the block `e`
    // runs): the block's start, its last command's end or, for a DMA engine,
    // its last request's final grant, and the end of its command
    // dma.max_outstanding places back (so at most that many are in flight).
    uint64_t ready_at(const EngineRun& e) const {
        uint64_t r = std::max(e.engine->released_at, e.block_start);
        const std::vector<uint64_t>& ends = e.engine->ends;
        size_t K = size_t(cfg.dma_max_outstanding);
        if (e.link && ends.size() >= K) r = std::max(r, ends[ends.size() - K]);
        return r;
    }

    // §5: have the command's issue cycles passed by `now`? They are counted
    // from the engine's ready time and run while flags are awaited.
    bool issued(const EngineRun& e, const arch::Command& c, uint64_t now) const {
        return ready_at(e) + uint64_t(c.issue_cycles) <= now;
    }

    // §5: may the command start at `now` as far as its flags go? (The engine
    // is free, so its ready time has passed.) Consumes nothing.
    bool flags_allow(const ActiveBlock& b, const arch::Command& c, uint64_t now) const {
        for (size_t i = 0; i < c.waits.size(); ++i) {
            arch::FlagId f = c.waits[i];
            size_t k = b.consumed[f];
            for (size_t j = 0; j < i; ++j)
                if (c.waits[j] == f) ++k;  // a command waiting twice on f takes two sets
            if (k >= b.sets[f].size()) return false;
            if (b.sets[f][k] + uint64_t(cfg.flag_latency_cycles) > now) return false;
        }
        return true;
    }

    // §6.1: the link a DMA command crosses: its engine's, but a command
    // writing DDR crosses the L2's write port when it has one.
    Link& link_for(const EngineRun& e, const arch::Command& c) {
        if (e.link == &ddr && l2_write && c.dma.dst == arch::Space::DDR) return *l2_write;
        return *e.link;
    }

    // §6.1: the L2's other port, when it has two and `L` is one of them.
    Link* other_port(const Link& L) {
        if (!l2_write) return nullptr;
        return &L == &ddr ? l2_write.get() : &L == l2_write.get() ? &ddr : nullptr;
    }

    void start_command(ActiveBlock& b, EngineRun& e, uint64_t now) {
        const arch::Command& c = e.stream->commands[e.next];
        for (arch::FlagId f : c.waits) ++b.consumed[f];
        res.commands[e.first_timing + e.next].start = now;
        const size_t index = e.next++;
        ++e.unfinished;
        e.engine->busy = true;
        e.engine->last_slot = b.slot;
        // Step 3b: the waits before this command were its own; the other
        // streams' heads' counts go (their cycles were idle for this one).
        e.engine->flag_wait += e.head_flag;
        e.engine->issue += e.head_issue;
        for (uint32_t k = 0; k < sides * S; ++k)
            if (auto& slot = running[size_t(b.cluster) * sides * S + k])
                for (EngineRun& other : slot->engines)
                    if (other.engine == e.engine) other.head_flag = other.head_issue = 0;
        ++e.engine->in_flight;
        if (c.op == arch::Opcode::Matmul) {
            timed.push_back({&b, &e, index, now + matmul_cycles(c.mm)});
        } else if (c.op == arch::Opcode::Vector) {
            timed.push_back({&b, &e, index, now + vector_cycles(c.vec)});
        } else {
            Link& L = link_for(e, c);
            Request& r = L.requests[e.requester];
            const Link* other = other_port(L);  // one request at a time, on either port
            if (r.active || (other && other->requests[e.requester].active)) fail("requester already has a request");
            r.active = true;
            r.eligible_at = now + 1;  // registered
            r.remaining = c.dma.bytes();
            r.bytes = r.remaining;
            r.ready = 0;
            r.path_leaves = 0;
            r.waited = 0;
            r.owner = &e;
            r.block = &b;
            r.index = index;
        }
    }

    void end_command(const Timed& t, uint64_t now) {
        ActiveBlock& b = *t.block;
        EngineRun& e = *t.run;
        const arch::Command& c = e.stream->commands[t.index];
        res.commands[e.first_timing + t.index].end = now;
        for (arch::FlagId f : c.sets) b.sets[f].push_back(now);
        b.last_end = std::max(b.last_end, now);
        --e.unfinished;
        --e.engine->in_flight;
        if (!e.link) {  // a MATMUL or VECTOR: the engine is free again
            e.engine->busy = false;
            e.engine->released_at = now;
        }
    }

    void start_block(size_t slot, uint64_t now) {
        ActiveBlock& b = *running[slot];
        b.started = true;
        res.blocks[b.id].start = now;
        activity = true;
    }

    // Step 2: ends and starts until nothing changes.
    void ends_and_starts(uint64_t now) {
        bool changed = true;
        while (changed) {
            changed = false;
            for (size_t i = 0; i < timed.size();) {
                if (timed[i].end < now) fail("internal: missed an end");
                if (timed[i].end == now) {
                    end_command(timed[i], now);
                    timed.erase(timed.begin() + long(i));
                    changed = true;
                } else {
                    ++i;
                }
            }
            for (uint32_t cl = 0; cl < used; ++cl) {
                for (uint32_t x = 0; x < engines_per_cluster; ++x) {
                    EngineState& es = engine_states[size_t(cl) * engines_per_cluster + x];
                    if (es.busy) continue;
                    // Round-robin over the slots of its side, after the one
                    // served last.
                    const size_t lanes = (size_t(cl) * sides + (sides == 2 ? engine_is_vector_side(x) : 0)) * S;
                    for (uint32_t i = 1; i <= S && !es.busy; ++i) {
                        uint32_t k = (es.last_slot + i) % S;
                        auto& slot = running[lanes + k];
                        if (!slot || !slot->started) continue;
                        for (EngineRun& e : slot->engines) {
                            if (e.engine != &es || e.next == e.stream->commands.size()) continue;
                            const arch::Command& c = e.stream->commands[e.next];
                            if (issued(e, c, now) && flags_allow(*slot, c, now)) {
                                start_command(*slot, e, now);
                                changed = true;
                            }
                        }
                    }
                }
            }
            activity = activity || changed;
        }
    }

    // Step 4.
    void block_ends() {
        for (auto& slot : running) {
            if (!slot || !slot->started) continue;
            ActiveBlock& b = *slot;
            bool all_done = true;
            for (const EngineRun& e : b.engines) all_done = all_done && e.done();
            if (!all_done) continue;
            res.blocks[b.id].end = std::max(b.start, b.last_end);
            ended[b.id] = true;
            ++blocks_ended;
            slot.reset();
            dispatch_dirty = true;
            activity = true;
        }
    }

    // §6.1: the lines bytes [offset, offset + b) of the request's DDR-side
    // rows touch, looked up in order at cycle g; the latest ready cycle.
    uint64_t look_up_burst(const Request& q, uint64_t offset, uint64_t b, uint64_t g) {
        const arch::DmaArgs& d = q.owner->stream->commands[q.index].dma;
        const Rows rows = ddr_rows(d);
        const bool write = d.dst == arch::Space::DDR;
        uint64_t ready = 0;
        for (uint64_t k = offset; k < offset + b;) {
            uint64_t row = k / rows.row_bytes, col = k % rows.row_bytes;
            uint64_t n = std::min(rows.row_bytes - col, offset + b - k);  // this row's part of the burst
            uint64_t a = rows.addr + row * rows.stride + col;
            if (d.gather) {
                // §6.1: a gathered row's part, a read of its n bytes past the cache.
                l2->counts.gathered_bytes += n;
                ready = std::max(ready, l2->ddr_transfer(g, n) + l2->ddr_latency);
                k += n;
                continue;
            }
            for (uint64_t line = a / l2->L; line * l2->L < a + n; ++line)
                ready = std::max(ready, l2->look_up(line, write, g));
            k += n;
        }
        return ready;
    }

    // Step 2, §6.2: the DDR requests that become eligible at `now` take
    // their places on their read and write paths, in requester order
    // (which, within a cluster, is engine order): a cluster DMA engine's
    // are its cluster's, a vector unit's load and store engines' the unit's.
    void place_on_paths(uint64_t now) {
        for (size_t r = 0; r < ddr.requests.size(); ++r) {
            // A requester has one request at a time, on one of the L2's ports.
            Request& q = l2_write && l2_write->requests[r].active ? l2_write->requests[r] : ddr.requests[r];
            if (!q.active || q.eligible_at != now) continue;
            const bool write = q.owner->stream->commands[q.index].dma.dst == arch::Space::DDR;
            const size_t cluster = r / ddr_per_cluster, within = r % ddr_per_cluster;
            const bool vector = within >= size_t(cfg.dma_engines);
            const size_t pair = vector ? 1 + (within - size_t(cfg.dma_engines)) / 2 : 0;
            const int64_t rate_key =
                vector ? (write ? cfg.vector_ddr_write_bytes_per_cycle : cfg.vector_ddr_read_bytes_per_cycle)
                       : (write ? cfg.ddr_write_bytes_per_cycle : cfg.ddr_read_bytes_per_cycle);
            const uint64_t rate = uint64_t(rate_key);
            if (rate == 0) continue;
            uint64_t& free = path_free[(cluster * pairs + pair) * 2 + (write ? 1 : 0)];
            free = std::max(free, now) + ceil_div(q.bytes, rate);
            q.path_leaves = free;
        }
    }

    // Step 2, §6.2 on the L1 ports: each cube's L1 -> L0 requests (its DMA
    // engine is the port's requester `cube`) take their places on its read
    // path; its L0 -> L1 writes have none.
    void place_on_l1_paths(uint64_t now) {
        const uint64_t rate = uint64_t(cfg.cube_l1_read_bytes_per_cycle);
        if (rate == 0) return;
        for (size_t cl = 0; cl < l1.size(); ++cl)
            for (size_t cube = 0; cube < l1[cl].requests.size(); ++cube) {
                Request& q = l1[cl].requests[cube];
                if (!q.active || q.eligible_at != now) continue;
                if (q.owner->stream->commands[q.index].dma.dst != arch::Space::L0) continue;
                uint64_t& free = l1_path_free[cl * size_t(cfg.cubes_per_cluster) + cube];
                free = std::max(free, now) + ceil_div(q.bytes, rate);
                q.path_leaves = free;
            }
    }

    // Step 2: every grant whose byte slot falls in cycle `now`.
    void arbitrate(Link& L, uint64_t now) {
        size_t n = L.requests.size();
        for (Request& q : L.requests) q.eligible_now = q.active && q.eligible_at <= now;
        arbitrate_slots(L, now);
        // Step 3b's link waits: eligible with bytes left, and no slot of this
        // cycle, on this link nor (§9) on the L2's other port.
        const Link* other = other_port(L);
        for (size_t r = 0; r < n; ++r) {
            Request& q = L.requests[r];
            if (!q.eligible_now || !q.active || L.slots_end[r] > now * L.W) continue;
            if (other && other->slots_end[r] > now * other->W) continue;
            ++q.waited;
            ++q.owner->engine->link_wait;
            q.owner->engine->link_waited_at = now;
        }
    }

    void arbitrate_slots(Link& L, uint64_t now) {
        size_t n = L.requests.size();
        for (;;) {
            uint64_t at = std::max(L.next_slot, now * L.W);  // an idle link's slots of past cycles are lost
            if (at >= (now + 1) * L.W) return;               // this cycle's slots are all granted
            bool granted = false;
            for (size_t k = 1; k <= n && !granted; ++k) {
                size_t r = (L.last + k) % n;
                Request& q = L.requests[r];
                if (!q.active || q.eligible_at > now) continue;
                uint64_t b = std::min(L.S, q.remaining);  // bursts of S bytes, the last one the rest
                if ((&L == &ddr || &L == l2_write.get()) && l2)
                    q.ready = std::max(q.ready, look_up_burst(q, q.bytes - q.remaining, b, now));
                L.next_slot = at + b;
                L.slots_end[r] = at + b;
                L.last = r;
                q.remaining -= b;
                granted = true;
                if (q.remaining == 0) {
                    res.commands[q.owner->first_timing + q.index].link_wait = q.waited;
                    // The data arrives after the cycle of its last byte, plus the latency;
                    // the engine may issue its next request now.
                    q.active = false;
                    uint64_t end = std::max((at + b - 1) / L.W + 1 + L.Lat, q.ready);
                    if (q.path_leaves) end = std::max(end, q.path_leaves + L.Lat);  // §6.2
                    EngineState& es = *q.owner->engine;
                    if (!es.ends.empty()) end = std::max(end, es.ends.back());  // §5: ends in start order
                    es.busy = false;
                    es.released_at = now;
                    es.ends.push_back(end);
                    timed.push_back({q.block, q.owner, q.index, end});
                }
            }
            if (!granted) return;
            activity = true;
        }
    }

    // Step 3b: classify cycle `now` of every engine (link waits were found in step 2).
    void account(uint64_t now) {
        for (EngineState& es : engine_states)
            if (es.in_flight && es.link_waited_at != now) ++es.busy_cycles;
        for (auto& slot : running) {
            if (!slot || !slot->started) continue;
            for (EngineRun& e : slot->engines) {
                if (e.engine->in_flight || e.next == e.stream->commands.size()) continue;
                const arch::Command& c = e.stream->commands[e.next];
                if (!flags_allow(*slot, c, now)) ++e.head_flag;
                else if (!issued(e, c, now)) ++e.head_issue;
                else fail("internal: a command that may start did not");
            }
        }
    }

    // The accounting per engine of every cluster, once the run's total is known.
    void finish_accounting() {
        for (uint32_t cl = 0; cl < uint32_t(cfg.clusters); ++cl) {
            for (arch::EngineId id : arch::cluster_engines(cfg)) {
                EngineCycles c;
                c.cluster = cl;
                c.engine = id;
                if (cl < used) {
                    const EngineState& es = engine_states[size_t(cl) * engines_per_cluster + engine_slot(id)];
                    c.busy = es.busy_cycles, c.link_wait = es.link_wait, c.flag_wait = es.flag_wait, c.issue = es.issue;
                }
                const uint64_t counted = c.busy + c.link_wait + c.flag_wait + c.issue;
                if (counted > res.total_cycles) fail("internal: more cycles accounted than the run has");
                c.idle = res.total_cycles - counted;
                res.engines.push_back(c);
            }
        }
    }

    bool ready(uint32_t block) const {
        for (uint32_t d : prog.blocks[block].deps)
            if (!ended[d]) return false;  // every end so far is <= now
        for (uint32_t d = 0; d < prog.blocks[block].drain; ++d)
            if (!ended[d]) return false;
        return true;
    }

    // The engine's place among its cluster's engines: DMA engines, then per
    // cube its DMA engine and the cube, then per vector unit the unit, its
    // load and its store engine (any fixed order).
    uint32_t engine_slot(arch::EngineId id) const {
        const uint32_t vectors = uint32_t(cfg.dma_engines + 2 * cfg.cubes_per_cluster);
        switch (id.kind) {
        case arch::EngineKind::ClusterDma: return uint32_t(id.index);
        case arch::EngineKind::CubeDma: return uint32_t(cfg.dma_engines + 2 * id.index);
        case arch::EngineKind::Cube: return uint32_t(cfg.dma_engines + 2 * id.index + 1);
        case arch::EngineKind::VectorLoad: return vectors + 3 * uint32_t(id.index) + 1;
        case arch::EngineKind::VectorStore: return vectors + 3 * uint32_t(id.index) + 2;
        case arch::EngineKind::Vector: break;
        }
        return vectors + 3 * uint32_t(id.index);
    }

    // Engine slot x (engine_slot's numbering) is a vector unit or one of its
    // load and store engines: the vector side (§4).
    uint32_t engine_is_vector_side(uint32_t x) const {
        return x >= uint32_t(cfg.dma_engines + 2 * cfg.cubes_per_cluster) ? 1 : 0;
    }

    // The side block b runs on: that of its first stream with commands.
    uint32_t side_of(const arch::Block& b) const {
        if (sides == 1) return 0;
        for (const arch::Stream& st : b.streams)
            if (!st.commands.empty()) return engine_is_vector_side(engine_slot(st.engine));
        return 0;
    }

    void make_active(uint32_t block, uint32_t cluster, uint32_t lane, uint64_t start) {
        const arch::Block& blk = prog.blocks[block];
        auto b = std::make_unique<ActiveBlock>();
        b->id = block;
        b->cluster = cluster;
        b->slot = lane % S;
        b->start = start;
        b->last_end = start;
        b->sets.resize(blk.num_flags);
        b->consumed.assign(blk.num_flags, 0);
        b->engines.resize(blk.streams.size());
        for (size_t si = 0; si < blk.streams.size(); ++si) {
            EngineRun& e = b->engines[si];
            e.stream = &blk.streams[si];
            e.first_timing = timing_base[block][si];
            e.block_start = start;
            e.engine = &engine_states[size_t(cluster) * engines_per_cluster + engine_slot(e.stream->engine)];
            if (e.stream->engine.kind == arch::EngineKind::ClusterDma) {
                e.link = &ddr;
                e.requester = size_t(cluster) * ddr_per_cluster + size_t(e.stream->engine.index);
            } else if (e.stream->engine.kind == arch::EngineKind::VectorLoad ||
                       e.stream->engine.kind == arch::EngineKind::VectorStore) {
                e.link = &ddr;
                e.requester = size_t(cluster) * ddr_per_cluster + size_t(cfg.dma_engines) +
                              2 * size_t(e.stream->engine.index) +
                              (e.stream->engine.kind == arch::EngineKind::VectorStore ? 1 : 0);
            } else if (e.stream->engine.kind == arch::EngineKind::CubeDma) {
                e.link = &l1[cluster];
                e.requester = size_t(e.stream->engine.index);
            }
            for (size_t i = 0; i < e.stream->commands.size(); ++i) res.commands[e.first_timing + i].cluster = cluster;
        }
        res.blocks[block].cluster = cluster;
        running[size_t(cluster) * sides * S + lane] = std::move(b);
    }

    // Step 5.
    void dispatch(uint64_t d) {
        if (!dispatch_dirty) return;
        dispatch_dirty = false;
        for (;;) {
            // At most P blocks in flight; the lowest-numbered ready block goes
            // to the cluster it may use (its pinned one, else any) that has a
            // free slot and holds the fewest blocks, lowest-numbered first,
            // into its lowest-numbered free slot. Free: no block given to it
            // that has not ended.
            // With two sides, each side of every cluster on its own.
            std::vector<size_t> in_flight(sides, 0);
            std::vector<uint32_t> held(size_t(used) * sides, 0);  // per cluster and side
            for (size_t i = 0; i < running.size(); ++i)
                if (running[i]) ++in_flight[(i / S) % sides], ++held[i / S];
            uint32_t cluster = used;
            size_t block = prog.blocks.size();
            uint32_t side = 0;
            for (size_t i = 0; i < prog.blocks.size() && block == prog.blocks.size(); ++i) {
                if (assigned[i] || !ready(uint32_t(i))) continue;
                side = side_of(prog.blocks[i]);
                if (in_flight[side] >= P) continue;
                const int32_t pin = prog.blocks[i].cluster;
                for (uint32_t c = 0; c < used; ++c) {
                    const uint32_t h = held[size_t(c) * sides + side];
                    if (h == S || (pin >= 0 && uint32_t(pin) != c)) continue;
                    if (cluster == used || h < held[size_t(cluster) * sides + side]) cluster = c;
                }
                if (cluster != used) block = i;
            }
            if (block == prog.blocks.size()) return;
            uint32_t slot = 0;
            while (running[(size_t(cluster) * sides + side) * S + slot]) ++slot;
            assigned[block] = true;
            make_active(uint32_t(block), cluster, side * S + slot, d + uint64_t(cfg.dispatch_cycles));
            activity = true;
        }
    }

    // Could anything still happen after `now` without a new event?
    bool pending(uint64_t now) const {
        for (const Request& q : ddr.requests)
            if (q.active) return true;
        if (l2_write)
            for (const Request& q : l2_write->requests)
                if (q.active) return true;
        for (const Link& L : l1)
            for (const Request& q : L.requests)
                if (q.active) return true;
        for (const auto& slot : running) {
            if (!slot) continue;
            const ActiveBlock& b = *slot;
            if (!b.started) return true;
            for (const EngineRun& e : b.engines) {
                if (e.unfinished) return true;
                if (e.next < e.stream->commands.size() && !issued(e, e.stream->commands[e.next], now))
                    return true;  // still issuing its next command
                if (e.next < e.stream->commands.size() &&
                    flags_allow(b, e.stream->commands[e.next], now + uint64_t(cfg.flag_latency_cycles) + 1))
                    return true;  // only waiting out a flag's latency
            }
        }
        return false;
    }

    Result go(uint64_t max_cycles) {
        if (prog.blocks.empty()) {
            finish_accounting();
            return res;
        }
        if (cfg.dispatch_cycles < 1) fail("dispatch_cycles must be >= 1");
        for (uint64_t now = 0;; ++now) {
            if (now > max_cycles) fail("cycle limit of " + std::to_string(max_cycles) + " exceeded");
            activity = false;
            for (size_t k = 0; k < running.size(); ++k)  // 1
                if (running[k] && !running[k]->started && running[k]->start == now) start_block(k, now);
            place_on_paths(now);  // 2, before the links: nothing else depends on them
            place_on_l1_paths(now);
            arbitrate(ddr, now);
            if (l2_write) arbitrate(*l2_write, now);  // after the read port: the L2 looks up in this order (§6.1)
            for (Link& L : l1) arbitrate(L, now);
            ends_and_starts(now);  // 3
            account(now);          // 3b
            block_ends();          // 4
            dispatch(now);         // 5
            if (blocks_ended == prog.blocks.size()) break;
            if (!activity && !pending(now))
                fail("deadlock at cycle " + std::to_string(now) + ": " +
                     std::to_string(prog.blocks.size() - blocks_ended) + " blocks never end");
        }
        for (const BlockTiming& b : res.blocks) res.total_cycles = std::max(res.total_cycles, b.end);
        if (l2) {
            res.l2 = l2->counts;
            for (const auto& set : l2->lru)
                for (const L2::Line& line : set) res.l2->flush_lines += line.dirty;
        }
        finish_accounting();
        return res;
    }
};

}  // namespace

Result run(const arch::Program& program, const arch::Config& config, uint64_t max_cycles) {
    if (config.clusters < 1 || config.dma_engines < 1 || config.cubes_per_cluster < 1 ||
        config.ddr_bytes_per_cycle < 1 || config.ddr_burst_bytes < 1 || config.l1_bytes_per_cycle < 1 ||
        config.l1_burst_bytes < 1 || config.l0_bytes_per_cycle < 1 || config.mac_rows < 1 || config.mac_cols < 1 ||
        config.cube_k_per_cycle < 1 || config.vector_units < 1 || config.vector_bytes_per_cycle < 1 ||
        config.dma_max_outstanding < 1 ||
        (config.l2_kib > 0 && (config.l2_line_bytes < 1 || config.l2_ways < 1 || config.l2_bytes_per_cycle < 1)))
        fail("configuration out of range");
    Sim sim(program, config);
    return sim.go(max_cycles);
}

}  // namespace oracle
