#include "sim/trace/report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <utility>

#include "sim/arch/cube_rate.h"
#include "sim/trace/area.h"
#include "sim/trace/bounds.h"
#include "sim/trace/energy.h"
#include "sim/trace/energy_report.h"
#include "sim/trace/memory_levels.h"

namespace trace {

std::string grouped(uint64_t v) {
    std::string s = std::to_string(v), out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (i && (s.size() - i) % 3 == 0) out += ',';
        out += s[i];
    }
    return out;
}

std::string formatted(const char* printf_format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, printf_format, v);
    return buf;
}

namespace {

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

std::string percent(double fraction) { return formatted("%5.1f %%", 100.0 * fraction); }

// A link kind's two ends: `upper` is the memory it serves (LinkStats).
// Bytes read from it go upper -> lower, bytes written lower -> upper; the
// L0 -> cube path and an L2's read port only read, its write port only
// writes (§6.1).
enum class Ways { Both, Reads, Writes };

struct LinkEnds {
    const char* upper;
    const char* lower;
    Ways ways;
};

LinkEnds link_ends(const std::string& kind) {
    // The L2's read and write ports (`l2_l1_read`, ...): its one port's
    // kind, one way.
    for (const auto& [suffix, ways] : {std::pair<std::string, Ways>{"_read", Ways::Reads}, {"_write", Ways::Writes}})
        if (kind.size() > suffix.size() && kind.compare(kind.size() - suffix.size(), suffix.size(), suffix) == 0) {
            LinkEnds port = link_ends(kind.substr(0, kind.size() - suffix.size()));
            port.ways = ways;
            return port;
        }
    if (kind == "ddr_l1") return {"DDR", "L1", Ways::Both};
    if (kind == "l2_l1") return {"L2", "L1", Ways::Both};
    // With Unified Buffers the DDR side also serves the vector units' DMA engines.
    if (kind == "ddr_l1_ub") return {"DDR", "L1/UB", Ways::Both};
    if (kind == "l2_l1_ub") return {"L2", "L1/UB", Ways::Both};
    if (kind == "ddr_l2") return {"DDR", "L2", Ways::Both};
    if (kind == "l1_l0") return {"L1", "L0", Ways::Both};
    if (kind == "l0_cube") return {"L0", "cube", Ways::Reads};
    return {"?", "?", Ways::Both};
}

// "DDR <-> L1": what the link's bytes count.
std::string link_label(const LinkEnds& e) {
    switch (e.ways) {
    case Ways::Reads: return std::string(e.upper) + " -> " + e.lower;
    case Ways::Writes: return std::string(e.lower) + " -> " + e.upper;
    case Ways::Both: break;
    }
    return std::string(e.upper) + " <-> " + e.lower;
}

// A link's bytes each way, as the text and the JSON report list them.
struct Direction {
    std::string from, to;
    uint64_t bytes;
};

std::vector<Direction> directions(const LinkEnds& e, uint64_t read, uint64_t written) {
    std::vector<Direction> d;
    if (e.ways != Ways::Writes) d.push_back({e.upper, e.lower, read});
    if (e.ways != Ways::Reads) d.push_back({e.lower, e.upper, written});
    return d;
}

nlohmann::json directions_json(const LinkEnds& e, uint64_t read, uint64_t written) {
    nlohmann::json j = nlohmann::json::array();
    for (const Direction& d : directions(e, read, written))
        j.push_back({{"from", d.from}, {"to", d.to}, {"bytes", d.bytes}});
    return j;
}

struct LinkGroup {
    std::string kind, label;
    LinkEnds ends;
    uint64_t instances = 0, bytes_read = 0, bytes_written = 0, busy = 0, peak_per_instance = 0;
    double max_instance = 0;
    std::vector<const LinkStats*> members;
    uint64_t bytes() const { return bytes_read + bytes_written; }
};

std::vector<LinkGroup> group_links(const RunStats& s) {
    std::vector<LinkGroup> groups;
    for (const LinkStats& l : s.links) {
        auto it = std::find_if(groups.begin(), groups.end(), [&](const LinkGroup& g) { return g.kind == l.kind; });
        if (it == groups.end()) {
            LinkGroup g;
            g.kind = l.kind;
            g.ends = link_ends(l.kind);
            g.label = link_label(g.ends);
            groups.push_back(g);
            it = groups.end() - 1;
        }
        it->instances++;
        it->bytes_read += l.bytes_read;
        it->bytes_written += l.bytes_written;
        it->busy += l.busy_cycles;
        it->peak_per_instance = l.peak_bytes_per_cycle;
        it->max_instance = std::max(it->max_instance,
                                    ratio(double(l.bytes()), double(l.peak_bytes_per_cycle) * double(s.total_cycles)));
        it->members.push_back(&l);
    }
    return groups;
}

struct Bounds {
    uint64_t macs = 0, float32_macs = 0, int8_macs = 0, compute = 0, ddr = 0;
};

Bounds bounds(const RunStats& s, const arch::Config& c) {
    Bounds b;
    for (const UnitStats& u : s.units) b.macs += u.macs, b.float32_macs += u.float32_macs, b.int8_macs += u.int8_macs;
    b.compute = compute_bound_cycles(b.macs, b.float32_macs, b.int8_macs, c);
    // The L2's flush at the end takes no cycles of the run (§6.1).
    b.ddr = ddr_bound_cycles(s.ddr_bytes_read + s.ddr_bytes_written - (s.l2 ? s.l2->flush_bytes : 0), c);
    return b;
}

double cube_utilization(const UnitStats& u, const RunStats& s, const arch::Config& c) {
    return ratio(double(u.macs), double(c.macs_per_cycle()) * double(s.total_cycles));
}

double average_cube_utilization(const RunStats& s, const arch::Config& c) {
    double sum = 0;
    int n = 0;
    for (const UnitStats& u : s.units)
        if (u.kind == "cube") sum += cube_utilization(u, s, c), ++n;
    return n ? sum / n : 0.0;
}

double busy_fraction(const UnitStats& u, const RunStats& s) {
    return ratio(double(u.busy_cycles), double(s.total_cycles));
}

// The busy share of the units of one kind, averaged over all of them. Vector
// units have no peak rate independent of the op mix (a transcendental takes
// several passes), so their figure is the time they were busy; a cube's
// busy time sits beside its MAC utilization (a cube can be busy at a low
// rate: a GEMV's thin MATMULs, float32, a narrow L0 path).
double average_busy(const RunStats& s, const std::string& kind) {
    double sum = 0;
    int n = 0;
    for (const UnitStats& u : s.units)
        if (u.kind == kind) sum += busy_fraction(u, s), ++n;
    return n ? sum / n : 0.0;
}

// "98.1 /  99.9 %": a cube's MAC utilization and busy share.
std::string utilization_and_busy(double utilization, double busy) {
    return formatted("%5.1f", 100.0 * utilization) + " /" + formatted("%6.1f", 100.0 * busy) + " %";
}

// The layout pass's conversions (dsl/passes/pass_layout.h), ran or not.
uint64_t format_conversions(const RunStats& s) {
    return uint64_t(
        std::count_if(s.ops.begin(), s.ops.end(), [](const OpStats& o) { return o.kind == "format_convert"; }));
}

// The fusion groups (dsl/passes/pass_fusion.h) that ran fused: each head (a
// cube operation, a vector chain's first operation, a row reduction) and
// the operations computed with it.
std::string format_fusion_groups(const RunStats& s) {
    std::map<int32_t, std::vector<size_t>> groups;
    for (size_t i = 0; i < s.ops.size(); ++i)
        if (s.ops[i].fused_into >= 0) groups[s.ops[i].fused_into].push_back(i);
    if (groups.empty()) return "";
    std::string o = "fusion groups      " + grouped(groups.size()) + "\n";
    for (const auto& [head, members] : groups) {
        o += "  " + s.ops[size_t(head)].name + " (" + s.ops[size_t(head)].kind;
        for (size_t k : members) o += " -> " + s.ops[k].kind;
        o += ")\n";
    }
    return o;
}

// "read 1,200 hits / 34 misses (97.2 % hits)": one kind of L2 lookup.
std::string hits_and_misses(uint64_t hits, uint64_t misses) {
    return grouped(hits) + " hits / " + grouped(misses) + " misses (" +
           formatted("%.1f", 100.0 * ratio(double(hits), double(hits + misses))) + " % hits)";
}

nlohmann::json l2_json(const L2Stats& l, const arch::Config& c) {
    return {{"kib", c.l2_kib},
            {"line_bytes", l.line_bytes},
            {"ways", c.l2_ways},
            {"read_hits", l.read_hits},
            {"read_misses", l.read_misses},
            {"write_hits", l.write_hits},
            {"write_misses", l.write_misses},
            {"writebacks", l.writebacks},
            {"flush_bytes", l.flush_bytes}};
}

// The cycle accounting (§9) of each kind of engine, summed over the chip's
// engines of that kind, as shares of their cycles (engines x total).
std::string format_cycle_accounting(const RunStats& s) {
    struct Kind {
        const char* kind;
        const char* label;
    };
    const Kind kinds[] = {
        {"dma", "DMA engines"}, {"cube_dma", "cube DMA engines"}, {"cube", "cubes"}, {"vector", "vector units"}};
    std::string o =
        "\ncycle accounting              busy  link wait  flag wait      issue       idle  (busy excludes link "
        "waits)\n";
    for (const Kind& k : kinds) {
        CycleSplit sum;
        uint64_t n = 0;
        for (const UnitStats& u : s.units) {
            if (u.kind != k.kind) continue;
            const CycleSplit x = u.split(s.total_cycles);
            sum.busy += x.busy, sum.link_wait += x.link_wait, sum.flag_wait += x.flag_wait;
            sum.issue += x.issue, sum.idle += x.idle;
            ++n;
        }
        if (!n) continue;
        const double all = double(n) * double(s.total_cycles);
        char line[200];
        std::snprintf(line, sizeof line, "  %-24s %s    %s    %s    %s    %s\n",
                      (std::string(k.label) + " (x" + std::to_string(n) + ")").c_str(),
                      percent(ratio(double(sum.busy), all)).c_str(), percent(ratio(double(sum.link_wait), all)).c_str(),
                      percent(ratio(double(sum.flag_wait), all)).c_str(),
                      percent(ratio(double(sum.issue), all)).c_str(), percent(ratio(double(sum.idle), all)).c_str());
        o += line;
    }
    return o;
}

// Operations that ran, longest first when there are too many to list.
constexpr size_t kOpsListed = 30;

std::string op_row(const OpStats& op, const arch::Config& c, const char* label_width_fmt) {
    char line[320];
    std::string name = op.name.empty() ? "(top level)" : op.name;
    std::snprintf(line, sizeof line, label_width_fmt, name.c_str(), op.kind.c_str(), op.task.c_str(),
                  grouped(op.start).c_str(), grouped(op.end).c_str(), grouped(op.cycles()).c_str(),
                  grouped(op.cube_cycles).c_str(), grouped(op.dma_cycles).c_str(), grouped(op.vector_cycles).c_str(),
                  joules_text(double(op_femtojoules(op, c)) * 1e-15).c_str());
    return line;
}

std::string format_operations(const RunStats& s, const arch::Config& c) {
    std::vector<const OpStats*> ran;
    for (const OpStats& op : s.ops)
        if (op.ran()) ran.push_back(&op);
    if (ran.empty()) return "";
    size_t kind_width = 10;
    for (const OpStats* op : ran) kind_width = std::max(kind_width, op->kind.size());
    const std::string fmt_text =
        "  %-18s %-" + std::to_string(kind_width) + "s %-16s %12s %12s %12s %12s %12s %12s %12s\n";
    const char* fmt = fmt_text.c_str();
    char head[320];
    std::snprintf(head, sizeof head, fmt, "name", "kind", "task", "start", "end", "cycles", "cube busy", "DMA busy",
                  "vector busy", "energy");
    std::string o = "\noperations\n" + std::string(head);
    std::vector<const OpStats*> shown = ran;
    if (shown.size() > kOpsListed) {
        std::stable_sort(shown.begin(), shown.end(),
                         [](const OpStats* a, const OpStats* b) { return a->cycles() > b->cycles(); });
        shown.resize(kOpsListed);
    }
    for (const OpStats* op : shown) o += op_row(*op, c, fmt);
    if (shown.size() < ran.size())
        o += "  (the " + std::to_string(kOpsListed) + " longest of " + std::to_string(ran.size()) +
             " operations; --report-json lists all)\n";
    std::vector<size_t> path = critical_path(s.ops);
    if (!path.empty()) {
        o += "\ncritical path  ";
        for (size_t k = 0; k < path.size(); ++k) o += (k ? " -> " : "") + s.ops[path[k]].name;
        o += "\n";
    }
    std::vector<OpStats> tasks = task_stats(s.ops);
    bool any_task = std::any_of(tasks.begin(), tasks.end(), [](const OpStats& t) { return !t.name.empty(); });
    if (any_task) {
        std::snprintf(head, sizeof head, fmt, "task", "", "", "start", "end", "cycles", "cube busy", "DMA busy",
                      "vector busy", "energy");
        o += "\ntasks\n" + std::string(head);
        for (const OpStats& t : tasks)
            if (t.ran()) o += op_row(t, c, fmt);
    }
    return o;
}

nlohmann::json op_json(const OpStats& op, const arch::Config& c) {
    nlohmann::json e = {{"name", op.name},
                        {"kind", op.kind},
                        {"task", op.task},
                        {"commands", op.commands},
                        {"cube_cycles", op.cube_cycles},
                        {"dma_cycles", op.dma_cycles},
                        {"vector_cycles", op.vector_cycles},
                        {"macs", op.macs},
                        {"dma_bytes", op.dma_bytes},
                        {"energy_femtojoules", op_femtojoules(op, c)}};
    if (op.ran()) {
        e["start"] = op.start;
        e["end"] = op.end;
        e["cycles"] = op.cycles();
    }
    return e;
}

// "4x4 MAC" for the documents' cube, "16x16x16 MAC" for a fractal cube with
// a K depth, "32x32 MAC ws systolic" for a systolic array.
std::string cube_shape(const arch::Config& c) {
    std::string shape = std::to_string(c.mac_rows) + "x" + std::to_string(c.mac_cols);
    if (c.systolic()) return shape + " MAC " + arch::dataflow_name(c.cube_dataflow) + " systolic";
    if (c.cube_k_per_cycle > 1) shape += "x" + std::to_string(c.cube_k_per_cycle);
    return shape + " MAC";
}

}  // namespace

std::string format_report(const RunStats& s, const arch::Config& c, const RunInfo& info) {
    std::string o;
    double seconds = double(s.total_cycles) / (c.clock_ghz * 1e9);
    Bounds b = bounds(s, c);
    o += "davinci-sim: " + info.program + " on " + info.config + "\n";
    for (size_t k = 0; k < info.params.size(); ++k)
        o += (k ? ", " : "params: ") + info.params[k].name + "=" + info.params[k].repr +
             (k + 1 == info.params.size() ? "\n" : "");
    o += "hardware: " + std::to_string(c.clusters) + " clusters x " + std::to_string(c.cubes_per_cluster) + " cubes, " +
         cube_shape(c) + " each, " + formatted("%g", c.clock_ghz) + " GHz\n\n";
    std::string when = seconds < 1e-3  ? formatted("%.3f us", seconds * 1e6)
                       : seconds < 1.0 ? formatted("%.3f ms", seconds * 1e3)
                                       : formatted("%.3f s", seconds);
    o += "total cycles       " + grouped(s.total_cycles) + "  (" + when + " at " + formatted("%g", c.clock_ghz) +
         " GHz, " + grouped(s.blocks) + " blocks)\n";
    const int64_t peak = c.macs_per_cycle() * c.cubes_total();
    o += "compute bound      " + grouped(b.compute) + "  (" + grouped(b.macs) + " MACs at " + std::to_string(peak) +
         " MAC/cycle";
    if (b.float32_macs)
        o += ", " + grouped(b.float32_macs) + " of them float32 at " +
             std::to_string(arch::cube_peak(c, arch::DType::Float32).num /
                            arch::cube_peak(c, arch::DType::Float32).den) +
             " MAC/cycle";
    if (b.int8_macs)
        o += ", " + grouped(b.int8_macs) + " of them int8 at " +
             std::to_string(arch::cube_peak(c, arch::DType::Int8).num / arch::cube_peak(c, arch::DType::Int8).den) +
             " MAC/cycle";
    o += ")\n";
    o += "DDR bound          " + grouped(b.ddr) + "  (DDR bytes at " +
         std::to_string(ddr_effective_bytes_per_cycle(c)) + " B/cycle)\n";
    o += "DDR bytes          read " + grouped(s.ddr_bytes_read) + ", written " + grouped(s.ddr_bytes_written);
    if (s.l2) o += " (" + grouped(s.l2->flush_bytes) + " of them the L2's flush at the end)";
    o += "\n";
    if (s.l2) {
        o += "L2 cache           " + grouped(uint64_t(c.l2_kib)) + " KiB, " + grouped(s.l2->line_bytes) + " B lines, " +
             std::to_string(c.l2_ways) + " ways: " + grouped(s.l2->writebacks) + " write-backs\n";
        o += "  read lookups     " + hits_and_misses(s.l2->read_hits, s.l2->read_misses) + "\n";
        o += "  write lookups    " + hits_and_misses(s.l2->write_hits, s.l2->write_misses) + "\n";
    }
    o += "format conversions " + grouped(format_conversions(s)) + "\n";
    o += format_fusion_groups(s);
    o += "promotions         " + grouped(info.promotions) + "\n\n";

    o += "cube MAC utilization / busy  average " +
         utilization_and_busy(average_cube_utilization(s, c), average_busy(s, "cube")) + "\n";
    for (int64_t cl = 0; cl < c.clusters; ++cl) {
        o += "  cluster" + std::to_string(cl) + " ";
        for (const UnitStats& u : s.units)
            if (u.kind == "cube" && u.cluster == uint32_t(cl))
                o += "  " + utilization_and_busy(cube_utilization(u, s, c), busy_fraction(u, s));
        o += "\n";
    }
    o += "vector unit busy             average " + percent(average_busy(s, "vector")) + "\n";
    for (int64_t cl = 0; cl < c.clusters; ++cl) {
        o += "  cluster" + std::to_string(cl) + " ";
        for (const UnitStats& u : s.units)
            if (u.kind == "vector" && u.cluster == uint32_t(cl)) o += " " + percent(busy_fraction(u, s));
        o += "\n";
    }

    o += "\nlinks              bytes             achieved      peak          % of peak  busiest\n";
    for (const LinkGroup& g : group_links(s)) {
        uint64_t peak = g.peak_per_instance * g.instances;
        std::string name = g.label + (g.instances > 1 ? " (x" + std::to_string(g.instances) + ")" : "");
        char line[200];
        std::snprintf(line, sizeof line, "  %-16s %-17s %6.2f B/cyc  %5llu B/cyc   %s   %s\n", name.c_str(),
                      grouped(g.bytes()).c_str(), ratio(double(g.bytes()), double(s.total_cycles)),
                      static_cast<unsigned long long>(peak),
                      percent(ratio(double(g.bytes()), double(peak) * double(s.total_cycles))).c_str(),
                      percent(g.max_instance).c_str());
        o += line;
        if (g.ends.ways != Ways::Both) continue;
        for (const Direction& d : directions(g.ends, g.bytes_read, g.bytes_written)) {
            std::snprintf(line, sizeof line, "    %-14s %-17s %6.2f B/cyc\n", (d.from + " -> " + d.to).c_str(),
                          grouped(d.bytes).c_str(), ratio(double(d.bytes), double(s.total_cycles)));
            o += line;
        }
    }

    o += "\nmemory             bytes read        bytes written\n";
    for (const Level& l : memory_levels(s)) {
        char line[200];
        std::snprintf(line, sizeof line, "  %-16s %-17s %s\n", l.label, grouped(l.traffic.read).c_str(),
                      grouped(l.traffic.written).c_str());
        o += line;
    }
    o += format_energy(run_energy(s, c), s, c, info.tokens);
    o += format_area(chip_area(c));

    o += "\nDMA engines           busy      commands  bytes\n";
    for (const UnitStats& u : s.units) {
        if (u.kind == "cube" || u.kind == "vector") continue;
        char line[200];
        std::snprintf(line, sizeof line, "  %-20s %s  %8llu  %s\n", u.name.c_str(),
                      percent(ratio(double(u.busy_cycles), double(s.total_cycles))).c_str(),
                      static_cast<unsigned long long>(u.commands), grouped(u.bytes).c_str());
        o += line;
    }
    o += format_cycle_accounting(s);
    o += format_operations(s, c);
    o += format_messages(info.messages, s.ops);
    if (!info.notes.empty()) {
        o += "\nnotes\n";
        for (const std::string& n : info.notes) o += "  " + n + "\n";
    }
    return o;
}

nlohmann::json report_json(const RunStats& s, const arch::Config& c, const RunInfo& info) {
    using nlohmann::json;
    Bounds b = bounds(s, c);
    json j;
    j["program"] = info.program;
    j["config"] = info.config;
    // Only when the program declares one, so other reports are unchanged.
    if (!info.params.empty()) {
        nlohmann::json params = nlohmann::json::object();
        for (const RunInfo::Param& p : info.params) params[p.name] = p.value;
        j["params"] = params;
    }
    j["schema_version"] = kReportSchemaVersion;
    j["total_cycles"] = s.total_cycles;
    j["clock_ghz"] = c.clock_ghz;
    j["seconds"] = double(s.total_cycles) / (c.clock_ghz * 1e9);
    j["blocks"] = s.blocks;
    j["cube_utilization"] = average_cube_utilization(s, c);
    j["cube_busy"] = average_busy(s, "cube");
    j["vector_busy"] = average_busy(s, "vector");
    j["macs"] = b.macs;
    j["compute_bound_cycles"] = b.compute;
    j["ddr_bound_cycles"] = b.ddr;
    j["ddr_bytes_read"] = s.ddr_bytes_read;
    j["ddr_bytes_written"] = s.ddr_bytes_written;
    j["format_conversions"] = format_conversions(s);
    {
        std::set<int32_t> heads;
        for (const OpStats& op : s.ops)
            if (op.fused_into >= 0) heads.insert(op.fused_into);
        j["fusion_groups"] = heads.size();
    }
    j["promotions"] = info.promotions;
    j["notes"] = info.notes;
    // Only when the program has messages, so other reports are unchanged.
    if (!info.messages.empty()) j["messages"] = messages_json(info.messages, s.ops);
    if (s.l2) j["l2"] = l2_json(*s.l2, c);
    json memory = json::object();
    for (const Level& l : memory_levels(s)) memory[l.key] = {{"read", l.traffic.read}, {"written", l.traffic.written}};
    j["memory"] = memory;
    j["energy"] = energy_json(run_energy(s, c), s, c, info.tokens);
    j["area"] = area_json(chip_area(c));
    json units = json::array();
    for (const UnitStats& u : s.units) {
        const CycleSplit split = u.split(s.total_cycles);
        json e = {{"name", u.name},
                  {"kind", u.kind},
                  {"cluster", u.cluster},
                  {"busy_cycles", u.busy_cycles},
                  {"busy", ratio(double(u.busy_cycles), double(s.total_cycles))},
                  {"link_wait_cycles", split.link_wait},
                  {"flag_wait_cycles", split.flag_wait},
                  {"issue_cycles", split.issue},
                  {"idle_cycles", split.idle},
                  {"commands", u.commands}};
        if (u.kind == "cube") {
            e["macs"] = u.macs;
            e["mac_utilization"] = cube_utilization(u, s, c);
        } else if (u.kind == "vector") {
            e["elements"] = u.elements;
        } else {
            e["bytes"] = u.bytes;
        }
        units.push_back(e);
    }
    j["units"] = units;
    json links = json::array();
    for (const LinkGroup& g : group_links(s)) {
        uint64_t peak = g.peak_per_instance * g.instances;
        json inst = json::array();
        for (const LinkStats* l : g.members)
            inst.push_back(
                {{"name", l->name},
                 {"bytes", l->bytes()},
                 {"directions", directions_json(g.ends, l->bytes_read, l->bytes_written)},
                 {"busy_cycles", l->busy_cycles},
                 {"utilization", ratio(double(l->bytes()), double(l->peak_bytes_per_cycle) * double(s.total_cycles))}});
        links.push_back({{"name", g.kind},
                         {"label", g.label},
                         {"instances", g.instances},
                         {"bytes", g.bytes()},
                         {"directions", directions_json(g.ends, g.bytes_read, g.bytes_written)},
                         {"peak_bytes_per_cycle", peak},
                         {"utilization", ratio(double(g.bytes()), double(peak) * double(s.total_cycles))},
                         {"max_instance_utilization", g.max_instance},
                         {"per_instance", inst}});
    }
    j["links"] = links;
    nlohmann::json ops = nlohmann::json::array(), tasks = nlohmann::json::array();
    for (const OpStats& op : s.ops) ops.push_back(op_json(op, c));
    for (const OpStats& t : task_stats(s.ops)) {
        nlohmann::json e = op_json(t, c);
        e.erase("kind");
        e.erase("task");
        tasks.push_back(e);
    }
    j["ops"] = ops;
    nlohmann::json path = nlohmann::json::array();
    for (size_t i : critical_path(s.ops)) path.push_back(s.ops[i].name);
    j["critical_path"] = path;
    j["tasks"] = tasks;
    return j;
}

}  // namespace trace
