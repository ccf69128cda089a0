#include "sim/trace/profile.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "sim/arch/ceil_div.h"
#include "sim/arch/varint.h"
#include "sim/trace/energy.h"
#include "sim/trace/energy_report.h"
#include "sim/trace/interval_union.h"
#include "sim/trace/op_stats.h"
#include "sim/trace/timed_commands.h"

namespace trace {

namespace {

using json = nlohmann::ordered_json;

// Records are spooled in pieces of about this size.
constexpr size_t kPieceBytes = size_t(1) << 20;

// The time axis: n buckets of `width` cycles, the last one holding what remains.
struct Buckets {
    uint64_t total = 0, width = 1, n = 0;
    uint64_t start(uint64_t b) const { return b * width; }
    uint64_t end(uint64_t b) const { return std::min(total, (b + 1) * width); }
    uint64_t size(uint64_t b) const { return end(b) - start(b); }
};

// Adds the cycles of [start, end) that fall in each bucket.
void add_interval(const Buckets& t, std::vector<uint64_t>& busy, uint64_t start, uint64_t end) {
    end = std::min(end, t.total);
    if (start >= end) return;
    for (uint64_t b = start / t.width; b < t.n && t.start(b) < end; ++b)
        busy[b] += std::min(end, t.end(b)) - std::max(start, t.start(b));
}

// `bytes` spread evenly over the cycles [start, end) (clipped to the run),
// each bucket taking its share of the cycles: the cumulative share is
// rounded down at each bucket's end, so the shares sum to `bytes` exactly.
// A command of no cycles puts its bytes in the bucket of its start.
void spread_bytes(const Buckets& t, std::vector<uint64_t>& into, uint64_t bytes, uint64_t start, uint64_t end) {
    end = std::min(end, t.total);
    if (start >= end) {
        into[std::min(start, t.total - 1) / t.width] += bytes;
        return;
    }
    uint64_t given = 0;
    for (uint64_t b = start / t.width; b < t.n && t.start(b) < end; ++b) {
        const uint64_t upto = std::min(end, t.end(b));
        const uint64_t share = uint64_t((unsigned __int128)bytes * (upto - start) / (end - start)) - given;
        into[b] += share;
        given += share;
    }
}

json fractions(const Buckets& t, const std::vector<uint64_t>& v) {
    json row = json::array();
    for (uint64_t b = 0; b < t.n; ++b) row.push_back(double(v[b]) / double(t.size(b)));
    return row;
}

json op_row(const OpStats& op, const arch::Config& c) {
    json e = {{"name", op.name}, {"kind", op.kind}, {"task", op.task}};
    e["start"] = op.ran() ? json(op.start) : json(nullptr);
    e["end"] = op.ran() ? json(op.end) : json(nullptr);
    e["cycles"] = op.ran() ? json(op.end - op.start) : json(nullptr);
    e["commands"] = op.commands;
    e["cube_cycles"] = op.cube_cycles;
    e["dma_cycles"] = op.dma_cycles;
    e["vector_cycles"] = op.vector_cycles;
    e["macs"] = op.macs;
    e["dma_bytes"] = op.dma_bytes;
    e["energy_femtojoules"] = op_femtojoules(op, c);
    return e;
}

}  // namespace

ProfileRecorder::ProfileRecorder(const arch::Program& p) : program_(p), op_kinds_(p.ops.size(), 0) {}

void ProfileRecorder::on_command(const CommandRecord& r, const arch::Command& c) { add(r, &c); }

void ProfileRecorder::add(const CommandRecord& r, const arch::Command* c) {
    // Time buckets are known only at the end: keep what they need, on disk.
    arch::VarintWriter w(pending_);
    w.u(r.cluster);
    w.u(uint64_t(r.engine.kind));
    w.s(r.engine.index);
    w.u(r.start);
    w.u(r.end - r.start);
    w.u(c && c->op == arch::Opcode::Dma ? c->dma.bytes() + 1 : 0);  // 0: not a DMA command
    if (pending_.size() >= kPieceBytes) {
        records_.append(pending_);
        pending_.clear();
    }
    // The unit kinds each operation used (for its task).
    if (c && c->tag < program_.tags.size()) {
        const int32_t op = program_.tags[c->tag].op;
        if (op >= 0 && size_t(op) < op_kinds_.size()) op_kinds_[size_t(op)] |= uint8_t(1u << unsigned(r.engine.kind));
    }
}

std::string ProfileRecorder::format(const arch::Config& c, const RunStats& s) {
    const arch::Program& p = program_;
    Buckets t;
    t.total = s.total_cycles;
    t.width = std::max<uint64_t>(1, arch::ceil_div(t.total, kProfileBuckets));
    t.n = arch::ceil_div(t.total, t.width);

    std::unordered_map<std::string, size_t> unit_index;
    for (size_t i = 0; i < s.units.size(); ++i) unit_index.emplace(s.units[i].name, i);
    std::map<std::pair<uint32_t, std::pair<int, int64_t>>, size_t> unit_of;  // (cluster, engine order) -> row
    std::vector<std::vector<uint64_t>> busy(s.units.size(), std::vector<uint64_t>(t.n, 0));
    std::vector<IntervalUnion> unions(s.units.size(), IntervalUnion(IntervalUnion::Arrival::InStartOrder));

    // Links: the DDR port (cluster DMA; with an L2 the L2's ports, which
    // those commands reach instead) and each cluster's L1 port (cube DMA).
    size_t clusters = size_t(std::max<int64_t>(0, c.clusters));
    std::vector<std::string> link_names = {c.l2_present() ? "l2" : "ddr"};
    for (size_t k = 0; k < clusters; ++k) link_names.push_back("cluster" + std::to_string(k) + ".l1");
    std::vector<std::vector<uint64_t>> link_bytes(link_names.size(), std::vector<uint64_t>(t.n, 0));
    std::vector<uint64_t> link_total(link_names.size(), 0);

    // Tasks in order of first appearance (as task_stats), and the unit kinds each used.
    std::vector<OpStats> tasks = task_stats(s.ops);
    std::map<std::string, size_t> task_index;
    for (size_t i = 0; i < tasks.size(); ++i) task_index.emplace(tasks[i].name, i);
    std::vector<std::set<int>> task_kinds(tasks.size());
    for (size_t op = 0; op < op_kinds_.size() && op < s.ops.size(); ++op) {
        auto ti = task_index.find(s.ops[op].task);
        if (ti == task_index.end()) continue;
        for (int k = 0; k < 8; ++k)
            if (op_kinds_[op] & (1u << unsigned(k))) task_kinds[ti->second].insert(k);
    }
    if (!pending_.empty()) {
        records_.append(pending_);
        pending_.clear();
    }
    std::string piece;
    for (size_t i = 0; i < records_.pieces(); ++i) {
        records_.read(i, piece);
        arch::VarintReader in(piece.data(), piece.size());
        while (!in.at_end()) {
            CommandRecord r;
            r.cluster = uint32_t(in.u());
            r.engine.kind = arch::EngineKind(in.u());
            r.engine.index = int(in.s());
            r.start = in.u();
            r.end = r.start + in.u();
            const uint64_t dma = in.u();
            // The unit's row, looked up by name once per (cluster, engine).
            auto [cached, fresh] = unit_of.try_emplace({r.cluster, arch::engine_order(r.engine)}, s.units.size());
            if (fresh) {
                auto u = unit_index.find("cluster" + std::to_string(r.cluster) + "." + arch::engine_name(r.engine));
                if (u != unit_index.end()) cached->second = u->second;
            }
            if (cached->second < s.units.size()) {  // a DMA engine's overlapping commands count once (§9)
                const uint64_t added = unions[cached->second].add(r.start, r.end);
                add_interval(t, busy[cached->second], r.end - added, r.end);
            }
            if (dma == 0 || t.n == 0) continue;
            const bool ddr_side = arch::requests_ddr(r.engine.kind);
            size_t link = ddr_side                                                             ? 0
                          : r.engine.kind == arch::EngineKind::CubeDma && r.cluster < clusters ? 1 + r.cluster
                                                                                               : link_names.size();
            if (link < link_names.size()) {
                // Occupancy: the command's bytes spread over the cycles it
                // was in flight, not heaped where it completed.
                spread_bytes(t, link_bytes[link], dma - 1, r.start, r.end);
                link_total[link] += dma - 1;
            }
        }
    }
    json j;
    j["schema"] = "davinci-sim-profile/" + std::to_string(kProfileSchemaVersion);
    j["schema_version"] = kProfileSchemaVersion;
    j["program"] = p.source;
    j["clock_ghz"] = c.clock_ghz;
    j["total_cycles"] = t.total;
    j["bucket_cycles"] = t.width;
    j["buckets"] = t.n;
    json units = json::array(), heat = json::array();
    for (size_t i = 0; i < s.units.size(); ++i) {
        units.push_back(s.units[i].name);
        heat.push_back(fractions(t, busy[i]));
    }
    j["units"] = units;
    json kinds = json::array();
    for (const UnitStats& u : s.units) kinds.push_back(u.kind);
    j["unit_kinds"] = kinds;
    j["heatmap"] = heat;

    json links = json::array();
    for (size_t l = 0; l < link_names.size(); ++l) {
        // The L2's read and write ports, when it has both, together.
        uint64_t peak = 0;
        for (const LinkStats& ls : s.links)
            if (ls.name == link_names[l] || (l == 0 && (ls.name == "l2.read" || ls.name == "l2.write")))
                peak += ls.peak_bytes_per_cycle;
        json bw = json::array();
        for (uint64_t b = 0; b < t.n; ++b) bw.push_back(double(link_bytes[l][b]) / double(t.size(b)));
        links.push_back({{"name", link_names[l]},
                         {"kind", l == 0 ? (c.l2_present() ? "l2_l1" : "ddr_l1") : "l1_l0"},
                         {"peak_bytes_per_cycle", peak},
                         {"bytes", link_total[l]},
                         {"bandwidth", bw}});
    }
    j["links"] = links;

    // Energy (docs/timing-model.md §9): the run's parts, and its power in
    // bins of whole microseconds (sim/trace/power.h).
    const Energy energy = run_energy(s, c);
    json parts = json::array();
    for (const EnergyPart& part : energy.parts)
        parts.push_back({{"key", part.key}, {"label", part.label}, {"femtojoules", part.femtojoules}});
    j["energy"] = {{"femtojoules", energy.femtojoules},
                   {"dynamic_femtojoules", energy.dynamic_femtojoules},
                   {"static_femtojoules", energy.static_femtojoules},
                   {"parts", parts}};
    const PowerSeries shown = shown_power(s.power);
    j["power"] = {{"bin_cycles", shown.bin_cycles},
                  {"static_watts", double(static_nanowatts(c)) * 1e-9},
                  {"femtojoules", shown.femtojoules},
                  {"watts", bin_watts(shown, s.total_cycles, static_nanowatts(c), c.clock_ghz)},
                  {"average_watts", average_watts(energy, run_seconds(s.total_cycles, c))},
                  {"peak_watts", peak_watts(s.power, s.total_cycles, static_nanowatts(c), c.clock_ghz)},
                  {"peak_bin_cycles", s.power.bin_cycles}};

    json ops = json::array();
    for (const OpStats& op : s.ops) {
        json row = op_row(op, c);
        // The operations whose results it reads, by name: the graph.
        json inputs = json::array();
        for (int32_t in : op.inputs)
            if (in >= 0 && size_t(in) < s.ops.size()) inputs.push_back(s.ops[size_t(in)].name);
        row["inputs"] = inputs;
        ops.push_back(row);
    }
    j["ops"] = ops;

    json path = json::array();
    for (size_t i : critical_path(s.ops)) path.push_back(s.ops[i].name);
    j["critical_path"] = path;

    json task_list = json::array();
    for (size_t i = 0; i < tasks.size(); ++i) {
        const OpStats& tk = tasks[i];
        json e = {{"name", tk.name}};
        e["start"] = tk.ran() ? json(tk.start) : json(nullptr);
        e["end"] = tk.ran() ? json(tk.end) : json(nullptr);
        e["cycles"] = tk.ran() ? json(tk.end - tk.start) : json(nullptr);
        json used = json::array();
        for (int k : task_kinds[i]) used.push_back(arch::engine_kind_name(arch::EngineKind(k)));
        e["units"] = used;
        e["commands"] = tk.commands;
        e["cube_cycles"] = tk.cube_cycles;
        e["dma_cycles"] = tk.dma_cycles;
        e["vector_cycles"] = tk.vector_cycles;
        e["macs"] = tk.macs;
        e["dma_bytes"] = tk.dma_bytes;
        e["energy_femtojoules"] = op_femtojoules(tk, c);
        task_list.push_back(e);
    }
    j["tasks"] = task_list;

    // Task A -> task B when an operation of B reads the result of one of A.
    std::set<std::pair<size_t, size_t>> edges;
    for (const OpStats& op : s.ops) {
        size_t to = task_index.at(op.task);
        for (int32_t in : op.inputs) {
            if (in < 0 || size_t(in) >= s.ops.size()) continue;
            size_t from = task_index.at(s.ops[size_t(in)].task);
            if (from != to) edges.insert({from, to});
        }
    }
    json edge_list = json::array();
    for (const auto& [from, to] : edges) edge_list.push_back({{"from", tasks[from].name}, {"to", tasks[to].name}});
    j["task_edges"] = edge_list;
    return j.dump() + "\n";
}

std::string format_profile(const arch::Program& p, const arch::Config& c, const RunStats& s,
                           std::vector<CommandRecord> records) {
    ProfileRecorder profile(p);
    for (const TimedCommand& tc : timed_commands(p, std::move(records))) profile.add(tc.rec, tc.cmd);
    return profile.format(c, s);
}

}  // namespace trace
