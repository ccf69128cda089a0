#include "sim/trace/chrome_trace.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "sim/trace/bytes_in_flight.h"
#include "sim/trace/energy.h"
#include "sim/trace/in_flight_lanes.h"
#include "sim/trace/occupancy.h"
#include "sim/trace/timed_commands.h"

namespace trace {

namespace {

using nlohmann::json;

// Microseconds with nanosecond resolution, trailing zeros trimmed: short,
// and the same bytes on every run and machine.
void micros(TextOut& out, uint64_t cycles, double clock_ghz) {
    if (clock_ghz == 1.0) {  // the default clock: one cycle is exactly 0.001 us, no floating point
        out << cycles / 1000;
        if (uint64_t frac = cycles % 1000) {
            char digits[4] = {'.', char('0' + frac / 100), char('0' + frac / 10 % 10), char('0' + frac % 10)};
            size_t n = 4;
            while (digits[n - 1] == '0') --n;
            out << std::string_view(digits, n);
        }
        return;
    }
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.6f", double(cycles) / (clock_ghz * 1000.0));
    std::string_view s = buf;
    while (s.back() == '0') s.remove_suffix(1);
    if (s.back() == '.') s.remove_suffix(1);
    out << s;
}

std::string quoted(const std::string& s) { return json(s).dump(); }

// Thread ids: 1.. in engine order; 0 is the cluster's "blocks" track.
// Lane k > 0 of an engine (in_flight_lanes) is thread thread_id + k * kLaneTidStride.
constexpr int kLaneTidStride = 10000;

int thread_id(const arch::Config& c, arch::EngineId e) { return int(1 + arch::engine_slot(c, 0, e)); }

void flags_text(TextOut& out, const arch::FlagList& f) {
    for (size_t i = 0; i < f.size(); ++i) out << (i ? ",f" : "f") << f[i];
}

// Events are written one per line, so the file greps and diffs well.
// Metadata goes through the JSON library (a few events); the millions of
// slices, counters and flows are written by hand below.
void event(TextOut& out, bool& first, const json& e) {
    out << (first ? "" : ",\n");
    first = false;
    out << e.dump();
}

json metadata(const char* what, int pid, int tid, const std::string& name) {
    return {{"name", what}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}

// A flag hand-off drawn as an arrow: the k-th set of a flag in a block feeds its k-th wait.
struct Flow {
    const TimedCommand* from;
    const TimedCommand* to;
    arch::FlagId flag;
};

}  // namespace

void write_chrome_trace(TextOut& out, const arch::Program& p, const arch::Config& c,
                        const std::vector<CommandRecord>& records, const std::vector<DdrTransferRecord>& ddr_transfers,
                        const PowerSeries& power, uint64_t total_cycles, const std::vector<Message>& messages,
                        const std::vector<OpStats>& ops, const TraceFilter& filter) {
    // `records` are those the filter kept (the run's TimingRecorder applies
    // it as commands end): here it only clips and chooses the tracks.
    std::vector<TimedCommand> cmds = timed_commands(p, records);
    out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"program\":" << quoted(p.source)
        << ",\"clock_ghz\":" << json(c.clock_ghz).dump()
        << ",\"time\":\"microseconds; args.cycles in clock cycles\"},\"traceEvents\":[\n";
    bool first_event = true;
    for (int64_t cl = 0; cl < c.clusters; ++cl) {
        if (!filter.keeps_cluster(uint32_t(cl))) continue;
        int pid = int(cl + 1);
        event(out, first_event, metadata("process_name", pid, 0, "cluster " + std::to_string(cl)));
        event(out, first_event,
              {{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid}, {"tid", 0}, {"args", {{"sort_index", cl}}}});
        event(out, first_event, metadata("thread_name", pid, 0, "blocks"));
        for (arch::EngineId e : arch::cluster_engines(c))
            event(out, first_event, metadata("thread_name", pid, thread_id(c, e), arch::engine_name(e)));
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
        out << ",\n{\"name\":" << quoted(p.blocks[b].name) << ",\"cat\":\"block\",\"ph\":\"X\",\"pid\":" << cluster + 1
            << ",\"tid\":0,\"ts\":";
        micros(out, filter.clip(start), c.clock_ghz);
        out << ",\"dur\":";
        micros(out, filter.clip(end) - filter.clip(start), c.clock_ghz);
        out << ",\"args\":{\"block\":" << b << ",\"cycles\":[" << start << "," << end << "]}}";
    }

    // Commands, and the flag hand-offs between them. cmds is sorted by
    // block, so the sets and waits of each flag are collected one block at
    // a time and paired when the block is done, in flag order.
    std::vector<Flow> flows;
    std::vector<std::vector<const TimedCommand*>> setters, waiters;  // by flag, current block
    auto pair_flags = [&] {
        for (size_t f = 0; f < setters.size(); ++f) {
            for (size_t k = 0; k < setters[f].size() && k < waiters[f].size(); ++k)
                flows.push_back({setters[f][k], waiters[f][k], arch::FlagId(f)});
            setters[f].clear();
            waiters[f].clear();
        }
    };
    std::vector<std::string> tag_names(p.tags.size()), tag_args(p.tags.size());
    for (size_t i = 0; i < p.tags.size(); ++i) {
        const arch::CommandTag& tag = p.tags[i];
        tag_names[i] = tag.label.empty() ? "" : quoted(tag.label);
        if (tag.op >= 0 && size_t(tag.op) < p.ops.size()) {
            tag_args[i] = ",\"op\":" + quoted(p.ops[size_t(tag.op)].name);
            if (!p.ops[size_t(tag.op)].task.empty()) tag_args[i] += ",\"task\":" + quoted(p.ops[size_t(tag.op)].task);
        }
    }
    // A DMA engine's overlapping commands go on extra tracks, one per lane.
    const std::vector<uint32_t> lanes = in_flight_lanes(cmds);
    std::set<std::tuple<uint32_t, int, std::string>> lane_threads;  // (pid, tid, name) of lanes above 0
    uint32_t current_block = ~0u;
    for (size_t ci = 0; ci < cmds.size(); ++ci) {
        const TimedCommand& t = cmds[ci];
        if (!t.cmd) continue;
        int tid = thread_id(c, t.rec.engine);
        if (lanes[ci] > 0) {
            tid += int(lanes[ci]) * kLaneTidStride;
            lane_threads.emplace(t.rec.cluster + 1, tid,
                                 arch::engine_name(t.rec.engine) + " in flight " + std::to_string(lanes[ci] + 1));
        }
        const arch::Command& cmd = *t.cmd;
        if (t.rec.block != current_block) {
            pair_flags();
            current_block = t.rec.block;
        }
        bool tagged = cmd.tag < p.tags.size() && !tag_names[cmd.tag].empty();
        out << ",\n{\"name\":";
        if (tagged) out << tag_names[cmd.tag];
        else out << "\"" << opcode_name(cmd.op) << "\"";
        out << ",\"cat\":\"" << opcode_name(cmd.op) << "\",\"ph\":\"X\",\"pid\":" << t.rec.cluster + 1
            << ",\"tid\":" << tid << ",\"ts\":";
        micros(out, filter.clip(t.rec.start), c.clock_ghz);
        out << ",\"dur\":";
        micros(out, filter.clip(t.rec.end) - filter.clip(t.rec.start), c.clock_ghz);
        out << ",\"args\":{\"cycles\":[" << t.rec.start << "," << t.rec.end << "],\"block\":" << t.rec.block
            << ",\"index\":" << t.rec.index;
        if (cmd.tag < p.tags.size()) out << tag_args[cmd.tag];
        if (cmd.op == arch::Opcode::Dma) out << ",\"bytes\":" << cmd.dma.bytes();
        if (cmd.op == arch::Opcode::Matmul) out << ",\"macs\":" << cmd.mm.macs();
        if (cmd.op == arch::Opcode::Vector) out << ",\"elements\":" << cmd.vec.elements();
        if (!cmd.waits.empty()) {
            out << ",\"waits\":\"";
            flags_text(out, cmd.waits);
            out << "\"";
        }
        if (!cmd.sets.empty()) {
            out << ",\"sets\":\"";
            flags_text(out, cmd.sets);
            out << "\"";
        }
        if (cmd.issue_cycles) out << ",\"issue_cycles\":" << cmd.issue_cycles;
        out << "}}";
        for (arch::FlagId f : cmd.sets) {
            if (f >= setters.size()) setters.resize(f + 1), waiters.resize(f + 1);
            setters[f].push_back(&t);
        }
        for (arch::FlagId f : cmd.waits) {
            if (f >= waiters.size()) setters.resize(f + 1), waiters.resize(f + 1);
            waiters[f].push_back(&t);
        }
    }
    pair_flags();
    for (const auto& [pid, tid, name] : lane_threads)
        event(out, first_event, metadata("thread_name", int(pid), tid, name));
    auto tid_of = [&](const TimedCommand& t) {
        return thread_id(c, t.rec.engine) + int(lanes[size_t(&t - cmds.data())]) * kLaneTidStride;
    };

    // Counters: bytes in flight on each link (the DMA commands crossing it
    // that have started and not ended), the DDR channel under a "chip"
    // process (pid 0), each L1 port under its cluster.
    event(out, first_event, metadata("process_name", 0, 0, "chip"));
    event(out, first_event,
          {{"name", "process_sort_index"}, {"ph", "M"}, {"pid", 0}, {"tid", 0}, {"args", {{"sort_index", -1}}}});
    const std::vector<StepSeries> in_flight = link_bytes_in_flight(c, cmds);
    for (size_t link = 0; link < in_flight.size(); ++link) {
        if (link > 0 && !filter.keeps_cluster(uint32_t(link - 1))) continue;
        for (const Step& s : filter.clip(in_flight[link])) {
            out << ",\n{\"name\":\""
                << (link != 0        ? "L1 port"
                    : c.l2_present() ? "L2 port"
                                     : "DDR")
                << " bytes in flight\",\"ph\":\"C\",\"pid\":" << link << ",\"tid\":0,\"ts\":";
            micros(out, s.cycle, c.clock_ghz);
            out << ",\"args\":{\"bytes\":" << uint64_t(s.value) << "}}";
        }
    }

    if (c.l2_present())
        for (const Step& s : filter.clip(ddr_transfer_bytes_in_flight(ddr_transfers))) {
            out << ",\n{\"name\":\"DDR bytes in flight\",\"ph\":\"C\",\"pid\":0,\"tid\":0,\"ts\":";
            micros(out, s.cycle, c.clock_ghz);
            out << ",\"args\":{\"bytes\":" << uint64_t(s.value) << "}}";
        }

    // Counter: the chip's power, each bin's from its start (sim/trace/power.h).
    const PowerSeries shown = shown_power(power);
    const std::vector<double> watts = bin_watts(shown, total_cycles, static_nanowatts(c), c.clock_ghz);
    for (size_t b = 0; b < watts.size(); ++b) {
        if (!filter.keeps_cycles(b * shown.bin_cycles, (b + 1) * shown.bin_cycles)) continue;
        out << ",\n{\"name\":\"power (W)\",\"ph\":\"C\",\"pid\":0,\"tid\":0,\"ts\":";
        micros(out, filter.clip(b * shown.bin_cycles), c.clock_ghz);
        char text[40];
        std::snprintf(text, sizeof text, "%.6g", watts[b]);
        out << ",\"args\":{\"watts\":" << text << "}}";
    }

    // The program's print and pypo.log messages: instant events on the
    // chip, at the cycle each executed (sim/trace/messages.h).
    for (const Message& m : messages) {
        const uint64_t cycle = message_cycle(m, ops);
        if (!filter.keeps_cycles(cycle, cycle)) continue;
        out << ",\n{\"name\":" << nlohmann::json(m.text).dump() << ",\"cat\":\"" << (m.print ? "print" : "log")
            << "\",\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0,\"ts\":";
        micros(out, cycle, c.clock_ghz);
        out << ",\"args\":{\"cycle\":" << cycle << ",\"where\":" << nlohmann::json(m.where).dump() << "}}";
    }

    // Counters: the live bytes in each cluster's L1 (sim/trace/occupancy.h).
    const std::vector<ClusterOccupancy> occupancy = memory_occupancy(c, p, cmds, filter.start);
    for (size_t cl = 0; cl < occupancy.size(); ++cl) {
        if (!filter.keeps_cluster(uint32_t(cl))) continue;
        for (const Step& s : filter.clip(occupancy[cl].l1)) {
            out << ",\n{\"name\":\"L1 live bytes\",\"ph\":\"C\",\"pid\":" << cl + 1 << ",\"tid\":0,\"ts\":";
            micros(out, s.cycle, c.clock_ghz);
            out << ",\"args\":{\"bytes\":" << uint64_t(s.value) << "}}";
        }
    }

    uint64_t flow_id = 0;
    for (const Flow& fl : flows) {
        const TimedCommand& from = *fl.from;
        const TimedCommand& to = *fl.to;
        if (from.rec.engine == to.rec.engine) continue;  // same track: no arrow needed
        // The arrow leaves the setting slice in its last cycle (the set
        // happens at its end) and binds to the start of the waiting one.
        uint64_t at = from.rec.end > from.rec.start ? from.rec.end - 1 : from.rec.start;
        if (!filter.keeps_cycles(at, at) || !filter.keeps_cycles(to.rec.start, to.rec.start)) continue;
        ++flow_id;
        out << ",\n{\"name\":\"f" << fl.flag << "\",\"cat\":\"flag\",\"id\":" << flow_id
            << ",\"ph\":\"s\",\"pid\":" << from.rec.cluster + 1 << ",\"tid\":" << tid_of(from) << ",\"ts\":";
        micros(out, at, c.clock_ghz);
        out << "}";
        out << ",\n{\"name\":\"f" << fl.flag << "\",\"cat\":\"flag\",\"id\":" << flow_id
            << ",\"ph\":\"f\",\"bp\":\"e\",\"pid\":" << to.rec.cluster + 1 << ",\"tid\":" << tid_of(to) << ",\"ts\":";
        micros(out, to.rec.start, c.clock_ghz);
        out << "}";
    }
    // After the events: Perfetto's JSON reader stops at a top-level key it
    // does not know, so before them it would drop every event.
    out << "\n],\"schema_version\":" << kChromeTraceSchemaVersion << "}\n";
}

}  // namespace trace
