#include "sim/trace/vcd_writer.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "sim/trace/timed_commands.h"

namespace trace {

namespace {

struct Signal {
    std::string scope, name;
    int width;
    std::string id;
    int64_t value = 0;  // current, for suppressing unchanged values
};

// VCD identifier codes: printable characters '!'..'~', base 94.
std::string id_code(size_t n) {
    std::string s;
    do {
        s += char('!' + n % 94);
        n /= 94;
    } while (n);
    return s;
}

std::string scope_name(const std::string& engine) {
    std::string s = engine;
    std::replace(s.begin(), s.end(), '.', '_');
    return s;
}

std::string binary(int64_t v, int width) {
    if (width == 1) return v ? "1" : "0";
    std::string s;
    for (uint64_t u = uint64_t(v); u; u >>= 1) s += char('0' + (u & 1));
    if (s.empty()) s = "0";
    std::reverse(s.begin(), s.end());
    return "b" + s + " ";
}

struct Change {
    uint64_t time;
    size_t signal;
    int order;      // within a cycle: ends (0) before starts (1), so a back-to-back start wins
    int64_t value;  // absolute, or a delta for in-flight counters
    bool delta;
};

}  // namespace

std::string format_vcd(const arch::Program& p, const arch::Config& c, std::vector<CommandRecord> records) {
    std::vector<TimedCommand> cmds = timed_commands(p, std::move(records));
    std::vector<Signal> sig;
    std::map<std::tuple<uint32_t, std::pair<int, int64_t>>, size_t> engine_base;  // (cluster, engine order) -> busy
    auto engine_signals = [&](uint32_t cluster, arch::EngineId e) {
        auto key = std::make_tuple(cluster, arch::engine_order(e));
        auto it = engine_base.find(key);
        if (it != engine_base.end()) return it->second;
        std::string scope = "cluster" + std::to_string(cluster) + "." + scope_name(arch::engine_name(e));
        size_t base = sig.size();
        sig.push_back({scope, "busy", 1, ""});
        sig.push_back({scope, "cmd", 32, ""});
        sig.push_back({scope, "queue", 32, ""});
        engine_base[key] = base;
        return base;
    };
    // Declare every engine of every cluster, in order, whether it ran or not.
    for (int64_t cl = 0; cl < c.clusters; ++cl)
        for (arch::EngineId e : arch::cluster_engines(c)) engine_signals(uint32_t(cl), e);
    size_t ddr = sig.size();
    sig.push_back({"links.ddr", "bytes_in_flight", 64, ""});
    size_t l1 = sig.size();
    for (int64_t cl = 0; cl < c.clusters; ++cl)
        sig.push_back({"links.cluster" + std::to_string(cl) + "_l1", "bytes_in_flight", 64, ""});
    for (size_t i = 0; i < sig.size(); ++i) sig[i].id = id_code(i);

    std::vector<Change> changes;
    for (const TimedCommand& t : cmds) {
        const CommandRecord& r = t.rec;
        size_t base = engine_signals(r.cluster, r.engine);
        const arch::Stream* stream = nullptr;
        for (const arch::Stream& s : p.blocks[r.block].streams)
            if (s.engine == r.engine) stream = &s;
        int64_t length = stream ? int64_t(stream->commands.size()) : 0;
        changes.push_back({r.start, base, 1, 1, false});
        changes.push_back({r.end, base, 0, 0, false});
        changes.push_back({r.start, base + 1, 1, int64_t(r.index) + 1, false});
        changes.push_back({r.end, base + 1, 0, 0, false});
        if (r.index == 0) changes.push_back({r.start, base + 2, 1, length, false});
        changes.push_back({r.end, base + 2, 0, length - int64_t(r.index) - 1, false});
        if (t.cmd && t.cmd->op == arch::Opcode::Dma) {
            size_t link = r.engine.kind == arch::EngineKind::ClusterDma ? ddr : l1 + r.cluster;
            int64_t bytes = int64_t(t.cmd->dma.bytes());
            changes.push_back({r.start, link, 1, bytes, true});
            changes.push_back({r.end, link, 0, -bytes, true});
        }
    }
    std::stable_sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
        return std::tie(a.time, a.signal, a.order) < std::tie(b.time, b.signal, b.order);
    });

    std::string out = "$version davinci-sim $end\n$timescale 1 ns $end\n";
    // Scopes nest by the dotted path: leave only what differs, enter the rest.
    std::vector<std::string> open;
    for (const Signal& sg : sig) {
        std::vector<std::string> want;
        for (size_t start = 0;;) {
            size_t dot = sg.scope.find('.', start);
            want.push_back(sg.scope.substr(start, dot - start));
            if (dot == std::string::npos) break;
            start = dot + 1;
        }
        size_t common = 0;
        while (common < open.size() && common < want.size() && open[common] == want[common]) ++common;
        for (size_t k = open.size(); k > common; --k) out += "$upscope $end\n";
        for (size_t k = common; k < want.size(); ++k) out += "$scope module " + want[k] + " $end\n";
        open = want;
        out += std::string("$var ") + (sg.width == 1 ? "wire" : "integer") + " " + std::to_string(sg.width) + " " +
               sg.id + " " + sg.name + " $end\n";
    }
    for (size_t k = 0; k < open.size(); ++k) out += "$upscope $end\n";
    out += "$enddefinitions $end\n#0\n$dumpvars\n";
    for (const Signal& s : sig) out += binary(0, s.width) + s.id + "\n";
    out += "$end\n";

    // Changes are sorted by (time, signal): fold each signal's changes in a
    // cycle into its final value and write the ones that moved.
    size_t i = 0;
    std::string lines;
    while (i < changes.size()) {
        uint64_t time = changes[i].time;
        lines.clear();
        while (i < changes.size() && changes[i].time == time) {
            size_t s_index = changes[i].signal;
            int64_t v = sig[s_index].value;
            for (; i < changes.size() && changes[i].time == time && changes[i].signal == s_index; ++i)
                v = changes[i].delta ? v + changes[i].value : changes[i].value;
            if (v == sig[s_index].value) continue;
            sig[s_index].value = v;
            lines += binary(v, sig[s_index].width);
            lines += sig[s_index].id;
            lines += '\n';
        }
        if (!lines.empty()) {
            out += '#';
            out += std::to_string(time);
            out += '\n';
            out += lines;
        }
    }
    return out;
}

}  // namespace trace
