// Random but valid programs and hardware, for comparing the oracle with the
// SystemC model beyond what the compiler emits: odd sizes, every engine kind,
// flags between any engines, issue cycles, block dependencies, blocks pinned
// to a cluster, max_parallel (also several blocks per cluster), several
// bursts per link cycle, DMA
// engines with several requests in flight,
// and configurations far from the default.
//
// Deadlock freedom by construction: commands are generated in one global
// order (each engine's stream is a subsequence of it), and a command may
// only wait on a flag whose next unconsumed set comes from an EARLIER
// command. Since the k-th wait consumes the k-th set, every wait is then
// satisfied by a command that can itself run: induction over the order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/arch/program_check.h"

namespace oracle_test {

// Deterministic on every platform (unlike std::uniform_int_distribution).
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull) {}
    uint64_t next() {  // splitmix64
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [lo, hi].
    uint64_t range(uint64_t lo, uint64_t hi) { return lo + next() % (hi - lo + 1); }
    bool chance(unsigned percent) { return range(0, 99) < percent; }
    template <typename T>
    T pick(const std::vector<T>& v) {
        return v[size_t(range(0, v.size() - 1))];
    }

private:
    uint64_t state_;
};

struct RandomCase {
    nlohmann::json config_json;  // overrides of the default, as a config file
    arch::Config config;
    arch::Program program;
};

inline nlohmann::json random_config(Rng& r) {
    using nlohmann::json;
    json j;
    j["chip"] = {{"clusters", r.range(1, 4)}, {"dispatch_cycles", r.range(1, 4)}};
    j["cluster"] = {{"cubes", r.range(1, 4)},
                    {"dma_engines", r.range(1, 2)},
                    {"vector_units", r.range(1, 2)},
                    {"l1_bytes_per_cycle", r.pick<uint64_t>({16, 32, 64, 100, 128, 256})},
                    {"l1_burst_bytes", r.pick<uint64_t>({32, 40, 64, 128, 256})},
                    {"l1_latency_cycles", r.range(0, 10)}};
    j["dma"] = {{"max_outstanding", r.pick<uint64_t>({1, 1, 2, 3, 4, 8})}};
    j["ddr"] = {{"bytes_per_cycle", r.pick<uint64_t>({8, 16, 24, 32, 48, 64, 100, 256, 1000})},
                {"burst_bytes", r.pick<uint64_t>({16, 32, 48, 64, 128, 200})},
                {"latency_cycles", r.range(0, 120)}};
    j["cube"] = {{"mac_rows", r.range(1, 8)},
                 {"mac_cols", r.range(1, 8)},
                 {"fp32_passes", r.range(1, 3)},
                 // §7.1's K depth per dtype: 1 (the documents'), odd, and 16 (Ascend's 32 bytes).
                 {"k_per_cycle", r.pick<uint64_t>({1, 1, 2, 3, 16})},
                 {"pipeline_cycles", r.range(0, 9)},
                 {"l0_bytes_per_cycle", r.pick<uint64_t>({8, 64, 100, 512})}};
    j["vector"] = {{"bytes_per_cycle", r.pick<uint64_t>({3, 16, 64, 100, 128, 129, 256})}};
    // §8: every op class its own head and rate; rates whole (the documents'
    // passes) or with two decimals (measured fits such as 2.11), whose
    // rounding up the oracle must repeat.
    // Each class computes in its dtype's elements or wider ones (§8: a
    // narrower dtype's repeats count the class's element bytes).
    for (const char* k : {"copy", "cast", "select", "relu", "add", "minmax", "mul", "transcendental", "sqrt", "divide",
                          "transpose", "reduce"}) {
        const double rate = r.chance(50) ? double(r.range(1, 6)) : double(r.range(1, 700)) / 100.0;
        j["vector"][k] = {{"head_cycles", r.range(0, 40)},
                          {"cycles_per_repeat", rate},
                          {"element_bytes", r.pick<uint64_t>({1, 1, 2, 4, 8})}};
    }
    j["sync"] = {{"flag_latency_cycles", r.range(0, 5)}};
    // §6.2: the clusters' read and write paths, each limited half the time,
    // below, near and above the shared link's rate.
    for (const char* k : {"ddr_read_bytes_per_cycle", "ddr_write_bytes_per_cycle"})
        j["cluster"][k] = r.chance(50) ? r.pick<uint64_t>({1, 3, 8, 16, 33, 64, 100, 2000}) : 0;
    // Vector units with their own Unified Buffers and DMA engines (§2) a
    // third of the time (large enough for the vector commands' regions
    // below), their own paths (§6.2) each limited half the time.
    if (r.chance(33)) {
        j["vector"]["buffer_kib"] = r.pick<uint64_t>({160, 192, 256});
        for (const char* k : {"ddr_read_bytes_per_cycle", "ddr_write_bytes_per_cycle"})
            j["vector"][k] = r.chance(50) ? r.pick<uint64_t>({1, 5, 16, 64, 128, 2000}) : 0;
        // Half of those take blocks apart from the cube core (§4).
        j["vector"]["separate_cores"] = r.chance(50);
    }
    return j;
}

// §6.2 on the L1 ports: each cube's read path (L1 -> L0), limited half the
// time, below, near and above the L1 port's rate. Drawn from a stream of
// its own, so that the configs and programs the other draws make stay the
// seeds' own (the tests that count what the seeds exercise depend on them).
inline void random_l1_paths(uint64_t seed, nlohmann::json& j) {
    Rng r(seed ^ 0x6C31ull);
    j["cube"]["l1_read_bytes_per_cycle"] = r.chance(50) ? r.pick<uint64_t>({1, 3, 16, 50, 128, 1000}) : 0;
}

inline arch::Command random_command(Rng& r, arch::EngineKind kind) {
    using arch::Space;
    arch::Command c;
    switch (kind) {
    case arch::EngineKind::ClusterDma:
    case arch::EngineKind::CubeDma:
    case arch::EngineKind::VectorLoad:
    case arch::EngineKind::VectorStore: {
        c.op = arch::Opcode::Dma;
        arch::DmaArgs& d = c.dma;
        bool far_to_near = kind == arch::EngineKind::VectorStore  ? false
                           : kind == arch::EngineKind::VectorLoad ? true
                                                                  : r.chance(50);
        Space far = kind == arch::EngineKind::CubeDma ? Space::L1 : Space::DDR;
        Space near = kind == arch::EngineKind::ClusterDma ? Space::L1
                     : kind == arch::EngineKind::CubeDma  ? Space::L0
                                                          : Space::UB;
        d.src = far_to_near ? far : near;
        d.dst = far_to_near ? near : far;
        d.rows = uint32_t(r.range(1, 4));
        d.row_bytes = uint32_t(r.chance(20) ? r.range(1, 16) : r.range(1, 700));
        d.convert_f32_to_f16 = d.src == Space::L0 && r.chance(30);
        uint64_t src_row = d.convert_f32_to_f16 ? 2 * uint64_t(d.row_bytes) : d.row_bytes;
        d.src_stride = src_row + r.range(0, 64);
        d.dst_stride = d.row_bytes + r.range(0, 64);
        // L0 (32 KiB), L1 and UB regions stay well inside their capacity.
        auto addr = [&](Space s) {
            return s == Space::DDR ? r.range(0, 1 << 20) : r.range(0, s == Space::L0 ? 8192 : 65536);
        };
        d.src_addr = addr(d.src);
        d.dst_addr = addr(d.dst);
        // A gather (an embedding's rows): the same bytes, timed with an L2
        // as misses past the cache (§6.1); its table is a few rows.
        if (kind == arch::EngineKind::ClusterDma && far_to_near && r.chance(15))
            d.gather = arch::Gather{r.range(0, 65536), uint32_t(r.range(1, 8))};
        break;
    }
    case arch::EngineKind::Cube: {
        c.op = arch::Opcode::Matmul;
        c.mm.m = uint32_t(r.range(1, 40));
        c.mm.k = uint32_t(r.range(1, 40));
        c.mm.n = uint32_t(r.range(1, 40));
        do c.mm.dtype = arch::DType(r.range(0, arch::kDTypeCount - 1));
        while (!arch::matmul_dtype_ok(c.mm.dtype));  // int8 among them
        c.mm.accumulate = r.chance(50);
        c.mm.a_addr = 0, c.mm.b_addr = 8192, c.mm.c_addr = 16384;  // 40x40 float32 is 6400 B
        break;
    }
    case arch::EngineKind::Vector: {
        c.op = arch::Opcode::Vector;
        arch::VectorArgs& v = c.vec;
        v.op = arch::VectorOp(r.range(0, arch::kVectorOpCount - 1));
        v.dtype = arch::DType(r.range(0, arch::kDTypeCount - 1));
        // A cast to any other dtype (the next one or the one after, cyclically).
        if (v.op == arch::VectorOp::Cast)
            v.cast_to = arch::DType((int(v.dtype) + int(r.range(1, arch::kDTypeCount - 1))) % arch::kDTypeCount);
        if (arch::dtype_is_int(v.dtype) && !arch::vector_op_takes_int(v.op)) v.dtype = arch::DType::Float16;
        v.rows = uint32_t(r.range(1, 32));
        v.cols = uint32_t(r.chance(30) ? r.range(1, 3) : r.range(1, 200));
        v.src0 = r.range(0, 1024);
        v.src1 = arch::vector_op_sources(v.op) >= 2 ? 65536 + r.range(0, 1024) : arch::kNoAddress;
        // select's condition, between src1's region and dst.
        if (arch::vector_op_sources(v.op) == 3) v.src2 = 98304 + r.range(0, 1024);
        v.dst = 131072 + r.range(0, 1024);  // 32 x 200 float32, even cast to float32: 25600 B
        // causal_mask's fill: a copy of the immediate -inf (a third of the
        // copies, chosen without a draw so the other commands stay as they
        // were), which the program crosses JSON as the string "-inf".
        if (v.op == arch::VectorOp::Copy && v.rows % 3 == 0) {
            arch::VectorSource fill;
            fill.kind = arch::VectorSource::Kind::Scalar, fill.scalar = -std::numeric_limits<double>::infinity();
            v.in0 = std::make_shared<const arch::VectorSource>(fill);
        }
        break;
    }
    }
    return c;
}

inline arch::Block random_block(Rng& r, const arch::Config& cfg, size_t index) {
    arch::Block b;
    b.name = "random" + std::to_string(index);
    for (uint32_t d = 0; d < index; ++d)
        if (r.chance(25)) b.deps.push_back(d);
    if (index > 0 && r.chance(10)) b.drain = uint32_t(r.range(1, index));
    std::vector<arch::EngineId> engines;
    auto maybe = [&](arch::EngineKind k, int64_t count) {
        for (int i = 0; i < count; ++i)
            if (r.chance(45)) engines.push_back({k, i});
    };
    // With separate vector cores a block uses one side of the cluster (§4).
    const bool cube_side = !cfg.vector_separate_cores || r.chance(50);
    const bool vector_side = !cfg.vector_separate_cores || !cube_side;
    if (cube_side) {
        maybe(arch::EngineKind::ClusterDma, cfg.dma_engines);
        maybe(arch::EngineKind::CubeDma, cfg.cubes_per_cluster);
        maybe(arch::EngineKind::Cube, cfg.cubes_per_cluster);
    }
    if (vector_side) {
        maybe(arch::EngineKind::Vector, cfg.vector_units);
        if (cfg.vector_buffer()) {
            maybe(arch::EngineKind::VectorLoad, cfg.vector_units);
            maybe(arch::EngineKind::VectorStore, cfg.vector_units);
        }
    }
    // Streams in a shuffled order: the listing order must not matter.
    for (size_t i = engines.size(); i > 1; --i) std::swap(engines[i - 1], engines[size_t(r.range(0, i - 1))]);
    for (const arch::EngineId& e : engines) b.streams.push_back({e, {}});
    if (engines.empty()) return b;

    b.num_flags = uint16_t(r.range(0, 5));
    std::vector<int> setter(b.num_flags, -1), waiter(b.num_flags, -1);
    std::vector<uint64_t> sets(b.num_flags, 0), waits(b.num_flags, 0);
    size_t commands = size_t(r.range(0, 14));
    for (size_t n = 0; n < commands; ++n) {
        int s = int(r.range(0, engines.size() - 1));
        arch::Command c = random_command(r, engines[size_t(s)].kind);
        c.tag = uint32_t(r.range(0, 2));
        // Loop control before some commands (§5), short and long against
        // the flag waits it overlaps.
        if (r.chance(35)) c.issue_cycles = uint32_t(r.chance(50) ? r.range(1, 12) : r.range(13, 400));
        // Waits: only on sets made by earlier commands, not yet consumed.
        for (int w = 0, tries = int(r.range(0, 2)); w < tries; ++w) {
            std::vector<arch::FlagId> ok;
            for (uint16_t f = 0; f < b.num_flags; ++f)
                if ((waiter[f] < 0 || waiter[f] == s) && waits[f] < sets[f]) ok.push_back(f);
            if (ok.empty()) break;
            arch::FlagId f = r.pick(ok);
            c.waits.push_back(f);
            waiter[f] = s;
            ++waits[f];
        }
        for (int k = 0, tries = int(r.range(0, 2)); k < tries; ++k) {
            std::vector<arch::FlagId> ok;
            for (uint16_t f = 0; f < b.num_flags; ++f)
                if (setter[f] < 0 || setter[f] == s) ok.push_back(f);
            if (ok.empty()) break;
            arch::FlagId f = r.pick(ok);
            c.sets.push_back(f);
            setter[f] = s;
            ++sets[f];
        }
        b.streams[size_t(s)].commands.push_back(std::move(c));
    }
    return b;
}

// `cube_patch` (a JSON merge patch, e.g. {"cube": {"dataflow": "ws"}}) is
// applied to the random configuration without drawing from the generator,
// so a seed makes the same program under every patch.
// `max_blocks`: the program has 1 to that many blocks.
inline RandomCase random_case(uint64_t seed, const nlohmann::json& cube_patch = nlohmann::json::object(),
                              uint64_t max_blocks = 7) {
    Rng r(seed);
    RandomCase rc;
    rc.config_json = random_config(r);
    random_l1_paths(seed, rc.config_json);
    rc.config_json.merge_patch(cube_patch);
    rc.config = arch::config_from_json(rc.config_json, "random config");
    arch::Program& p = rc.program;
    p.source = "random seed " + std::to_string(seed);
    p.tags = {{"", -1}, {"t1", -1}, {"t2, with a comma", -1}};
    // Up to three blocks per cluster at once (timing-model §4), which needs
    // a flag latency of at least one cycle.
    const uint64_t clusters = uint64_t(rc.config.clusters);
    p.max_parallel = r.chance(40) ? 0 : uint32_t(r.range(1, 3 * clusters));
    if (rc.config.flag_latency_cycles == 0) p.max_parallel = std::min<uint32_t>(p.max_parallel, uint32_t(clusters));
    size_t blocks = size_t(r.range(1, max_blocks));
    for (size_t i = 0; i < blocks; ++i) p.blocks.push_back(random_block(r, rc.config, i));
    // Some blocks pinned to a cluster that runs blocks (timing-model §4):
    // a pinned block waits for its cluster while later ones go elsewhere.
    // Drawn last, so that a seed's program is otherwise what it was.
    const uint64_t in_use = uint64_t(arch::clusters_in_use(p, rc.config));
    for (arch::Block& b : p.blocks)
        if (r.chance(30)) b.cluster = int32_t(r.range(0, in_use - 1));
    return rc;
}

}  // namespace oracle_test
