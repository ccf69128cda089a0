#include "sim/trace/chrome_trace.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string_view>
#include <map>
#include <tuple>

#include <nlohmann/json.hpp>

#include "sim/trace/timed_commands.h"

namespace trace {

namespace {

using nlohmann::json;

// Microseconds with nanosecond resolution, trailing zeros trimmed: short,
// and the same bytes on every run and machine.
std::string micros(uint64_t cycles, double clock_ghz) {
    if (clock_ghz == 1.0) {  // the default clock: one cycle is exactly 0.001 us, no floating point
        std::string s = std::to_string(cycles / 1000);
        if (uint64_t frac = cycles % 1000) {
            char buf[8];
            std::snprintf(buf, sizeof buf, ".%03u", unsigned(frac));
            s += buf;
            while (s.back() == '0') s.pop_back();
        }
        return s;
    }
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.6f", double(cycles) / (clock_ghz * 1000.0));
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
}

std::string quoted(const std::string& s) { return json(s).dump(); }

// Appends without temporaries: a large run writes millions of fields.
class Out {
public:
    explicit Out(std::string& s) : s_(s) {}
    Out& operator<<(std::string_view v) {
        s_.append(v);
        return *this;
    }
    Out& operator<<(uint64_t v) {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        s_.append(buf, r.ptr);
        return *this;
    }
    Out& operator<<(int v) { return *this << uint64_t(v); }
    Out& operator<<(uint32_t v) { return *this << uint64_t(v); }

private:
    std::string& s_;
};

// Thread ids: 1.. in engine order; 0 is the cluster's "blocks" track.
int thread_id(const arch::Config& c, arch::EngineId e) {
    switch (e.kind) {
    case arch::EngineKind::ClusterDma: return 1 + e.index;
    case arch::EngineKind::CubeDma: return int(1 + c.dma_engines + 2 * e.index);
    case arch::EngineKind::Cube: return int(2 + c.dma_engines + 2 * e.index);
    case arch::EngineKind::Vector: break;
    }
    return int(1 + c.dma_engines + 2 * c.cubes_per_cluster + e.index);
}

std::string flags_text(const std::vector<arch::FlagId>& f) {
    std::string s;
    for (size_t i = 0; i < f.size(); ++i) s += (i ? "," : "") + std::string("f") + std::to_string(f[i]);
    return s;
}

// Events are written one per line, so the file greps and diffs well.
void event(std::string& out, bool& first, const json& e) {
    out += first ? "" : ",\n";
    first = false;
    out += e.dump();
}

json metadata(const char* what, int pid, int tid, const std::string& name) {
    return {{"name", what}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}

}  // namespace

std::string format_chrome_trace(const arch::Program& p, const arch::Config& c, std::vector<CommandRecord> records) {
    std::vector<TimedCommand> cmds = timed_commands(p, std::move(records));
    std::string ev = "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"program\":" + quoted(p.source) +
                     ",\"clock_ghz\":" + json(c.clock_ghz).dump() +
                     ",\"time\":\"microseconds; args.cycles in clock cycles\"},\"traceEvents\":[\n";
    ev.reserve(cmds.size() * 240);
    bool first_event = true;
    for (int64_t cl = 0; cl < c.clusters; ++cl) {
        int pid = int(cl + 1);
        event(ev, first_event, metadata("process_name", pid, 0, "cluster " + std::to_string(cl)));
        event(ev, first_event,
              {{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid}, {"tid", 0}, {"args", {{"sort_index", cl}}}});
        event(ev, first_event, metadata("thread_name", pid, 0, "blocks"));
        for (arch::EngineId e : arch::cluster_engines(c)) event(ev, first_event, metadata("thread_name", pid, thread_id(c, e), arch::engine_name(e)));
    }

    // Blocks: from the first command start to the last command end.
    std::map<uint32_t, std::tuple<uint32_t, uint64_t, uint64_t>> blocks;
    for (const TimedCommand& t : cmds) {
        auto [it, fresh] = blocks.emplace(t.rec.block, std::make_tuple(t.rec.cluster, t.rec.start, t.rec.end));
        if (!fresh) {
            std::get<1>(it->second) = std::min(std::get<1>(it->second), t.rec.start);
            std::get<2>(it->second) = std::max(std::get<2>(it->second), t.rec.end);
        }
    }
    for (const auto& [b, v] : blocks) {
        auto [cluster, start, end] = v;
        ev += ",\n{\"name\":" + quoted(p.blocks[b].name) + ",\"cat\":\"block\",\"ph\":\"X\",\"pid\":" +
              std::to_string(cluster + 1) + ",\"tid\":0,\"ts\":" + micros(start, c.clock_ghz) +
              ",\"dur\":" + micros(end - start, c.clock_ghz) + ",\"args\":{\"block\":" + std::to_string(b) +
              ",\"cycles\":[" + std::to_string(start) + "," + std::to_string(end) + "]}}";
    }

    // Commands, and the flag hand-offs between them: the k-th set of a flag
    // in a block feeds its k-th wait. Written by hand, not through a JSON
    // library: a large run has millions of events.
    std::map<std::pair<uint32_t, arch::FlagId>, std::vector<const TimedCommand*>> setters, waiters;
    std::vector<std::string> tag_names(p.tags.size()), tag_args(p.tags.size());
    for (size_t i = 0; i < p.tags.size(); ++i) {
        const arch::CommandTag& tag = p.tags[i];
        tag_names[i] = tag.label.empty() ? "" : quoted(tag.label);
        if (tag.op >= 0 && size_t(tag.op) < p.ops.size()) {
            tag_args[i] = ",\"op\":" + quoted(p.ops[size_t(tag.op)].name);
            if (!p.ops[size_t(tag.op)].task.empty()) tag_args[i] += ",\"task\":" + quoted(p.ops[size_t(tag.op)].task);
        }
    }
    Out out(ev);
    for (const TimedCommand& t : cmds) {
        if (!t.cmd) continue;
        const arch::Command& cmd = *t.cmd;
        bool tagged = cmd.tag < p.tags.size() && !tag_names[cmd.tag].empty();
        out << ",\n{\"name\":";
        if (tagged)
            out << tag_names[cmd.tag];
        else
            out << "\"" << opcode_name(cmd.op) << "\"";
        out << ",\"cat\":\"" << opcode_name(cmd.op) << "\",\"ph\":\"X\",\"pid\":" << t.rec.cluster + 1
            << ",\"tid\":" << thread_id(c, t.rec.engine) << ",\"ts\":" << micros(t.rec.start, c.clock_ghz)
            << ",\"dur\":" << micros(t.rec.end - t.rec.start, c.clock_ghz) << ",\"args\":{\"cycles\":[" << t.rec.start
            << "," << t.rec.end << "],\"block\":" << t.rec.block << ",\"index\":" << t.rec.index;
        if (cmd.tag < p.tags.size()) out << tag_args[cmd.tag];
        if (cmd.op == arch::Opcode::Dma) out << ",\"bytes\":" << cmd.dma.bytes();
        if (cmd.op == arch::Opcode::Matmul) out << ",\"macs\":" << cmd.mm.macs();
        if (cmd.op == arch::Opcode::Vector) out << ",\"elements\":" << cmd.vec.elements();
        if (!cmd.waits.empty()) out << ",\"waits\":\"" << flags_text(cmd.waits) << "\"";
        if (!cmd.sets.empty()) out << ",\"sets\":\"" << flags_text(cmd.sets) << "\"";
        if (cmd.issue_cycles) out << ",\"issue_cycles\":" << cmd.issue_cycles;
        out << "}}";
        for (arch::FlagId f : cmd.sets) setters[{t.rec.block, f}].push_back(&t);
        for (arch::FlagId f : cmd.waits) waiters[{t.rec.block, f}].push_back(&t);
    }
    // Counters: bytes in flight on each link (the DMA commands crossing it
    // that have started and not ended), the DDR channel under a "chip"
    // process (pid 0), each L1 port under its cluster.
    event(ev, first_event, metadata("process_name", 0, 0, "chip"));
    event(ev, first_event,
          {{"name", "process_sort_index"}, {"ph", "M"}, {"pid", 0}, {"tid", 0}, {"args", {{"sort_index", -1}}}});
    std::map<std::pair<uint32_t, uint64_t>, int64_t> deltas;  // (link, cycle): 0 = DDR, 1 + k = cluster k's L1
    for (const TimedCommand& t : cmds) {
        if (!t.cmd || t.cmd->op != arch::Opcode::Dma) continue;
        uint32_t link = t.rec.engine.kind == arch::EngineKind::ClusterDma ? 0 : 1 + t.rec.cluster;
        deltas[{link, t.rec.start}] += int64_t(t.cmd->dma.bytes());
        deltas[{link, t.rec.end}] -= int64_t(t.cmd->dma.bytes());
    }
    int64_t level = 0;
    uint32_t current = ~0u;
    for (const auto& [key, delta] : deltas) {
        if (key.first != current) current = key.first, level = 0;
        if (delta == 0) continue;
        level += delta;
        out << ",\n{\"name\":\"" << (current == 0 ? std::string("DDR") : std::string("L1 port")) +
                   " bytes in flight\",\"ph\":\"C\",\"pid\":"
            << current << ",\"tid\":0,\"ts\":" << micros(key.second, c.clock_ghz) << ",\"args\":{\"bytes\":"
            << uint64_t(level) << "}}";
    }

    uint64_t flow_id = 0;
    for (const auto& [key, sets] : setters) {
        auto w = waiters.find(key);
        if (w == waiters.end()) continue;
        for (size_t k = 0; k < sets.size() && k < w->second.size(); ++k) {
            const TimedCommand& from = *sets[k];
            const TimedCommand& to = *w->second[k];
            if (from.rec.engine == to.rec.engine) continue;  // same track: no arrow needed
            std::string head = ",\n{\"name\":\"f" + std::to_string(key.second) + "\",\"cat\":\"flag\",\"id\":" +
                               std::to_string(++flow_id);
            // The arrow leaves the setting slice in its last cycle (the set
            // happens at its end) and binds to the start of the waiting one.
            uint64_t at = from.rec.end > from.rec.start ? from.rec.end - 1 : from.rec.start;
            ev += head + ",\"ph\":\"s\",\"pid\":" + std::to_string(from.rec.cluster + 1) +
                  ",\"tid\":" + std::to_string(thread_id(c, from.rec.engine)) + ",\"ts\":" + micros(at, c.clock_ghz) + "}";
            ev += head + ",\"ph\":\"f\",\"bp\":\"e\",\"pid\":" + std::to_string(to.rec.cluster + 1) +
                  ",\"tid\":" + std::to_string(thread_id(c, to.rec.engine)) +
                  ",\"ts\":" + micros(to.rec.start, c.clock_ghz) + "}";
        }
    }
    ev += "\n]}\n";
    return ev;
}

}  // namespace trace
