#include "sim/trace/vcd_writer.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "sim/trace/bytes_in_flight.h"
#include "sim/trace/flag_tokens.h"
#include "sim/trace/occupancy.h"
#include "sim/trace/timed_commands.h"

namespace trace {

namespace {

struct Signal {
    std::string scope, name;
    int width;
    std::string id;
    StepSeries steps;
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

// One value line: "0!" / "1!" for a wire, "b101 !" for a vector.
void value_line(TextOut& out, int64_t v, const Signal& s) {
    if (s.width == 1) {
        out << (v ? '1' : '0') << s.id << '\n';
        return;
    }
    char bits[66];
    char* p = bits + sizeof bits;
    uint64_t u = uint64_t(v);
    do {
        *--p = char('0' + (u & 1));
        u >>= 1;
    } while (u);
    *--p = 'b';
    out << std::string_view(p, size_t(bits + sizeof bits - p)) << ' ' << s.id << '\n';
}

// A command's effect on one of its engine's signals, before folding.
struct Change {
    uint64_t time;
    int order;  // within a cycle: ends (0) before starts (1), so a back-to-back start wins
    int64_t value;
};

// Sorts one signal's changes by cycle (ends before starts) and keeps the
// last value of each cycle where it differs from the value before.
StepSeries fold(std::vector<Change>& changes) {
    auto before = [](const Change& a, const Change& b) {
        return std::tie(a.time, a.order) < std::tie(b.time, b.order);
    };
    if (!std::is_sorted(changes.begin(), changes.end(), before))
        std::stable_sort(changes.begin(), changes.end(), before);
    StepSeries out;
    int64_t value = 0;
    for (size_t i = 0; i < changes.size();) {
        uint64_t time = changes[i].time;
        int64_t v = value;
        for (; i < changes.size() && changes[i].time == time; ++i) v = changes[i].value;
        if (v == value) continue;
        value = v;
        out.push_back({time, v});
    }
    return out;
}

// A step of one signal, for ordering all of them by cycle.
struct StepRef {
    uint64_t cycle;
    uint32_t signal;
    uint32_t step;
};

// All signals' steps sorted by (cycle, signal): each signal's steps are
// already in cycle order, so a stable sort by cycle of the signals' lists
// laid end to end does it. An LSD radix sort, 11 bits per pass (a bucket
// table that stays in cache): a large run has millions of steps.
std::vector<StepRef> by_cycle(const std::vector<Signal>& sig) {
    size_t n = 0;
    uint64_t max_cycle = 0;
    for (const Signal& s : sig) {
        n += s.steps.size();
        if (!s.steps.empty()) max_cycle = std::max(max_cycle, s.steps.back().cycle);
    }
    std::vector<StepRef> a, b(n);
    a.reserve(n);
    for (size_t i = 0; i < sig.size(); ++i)
        for (size_t k = 0; k < sig[i].steps.size(); ++k) a.push_back({sig[i].steps[k].cycle, uint32_t(i), uint32_t(k)});
    constexpr unsigned kBits = 11;
    std::vector<size_t> count(size_t(1) << kBits);
    for (unsigned shift = 0; shift < 64 && (max_cycle >> shift) != 0; shift += kBits) {
        std::fill(count.begin(), count.end(), 0);
        for (const StepRef& s : a) ++count[(s.cycle >> shift) & (count.size() - 1)];
        size_t sum = 0;
        for (size_t& c : count) sum += std::exchange(c, sum);
        for (const StepRef& s : a) b[count[(s.cycle >> shift) & (count.size() - 1)]++] = s;
        a.swap(b);
    }
    return a;
}

}  // namespace

void write_vcd(TextOut& out, const arch::Program& p, const arch::Config& c, const std::vector<CommandRecord>& records,
               const std::vector<DdrTransferRecord>& ddr_transfers, const TraceFilter& filter,
               const BeforeWindow* before) {
    // `records` are those the filter kept (the run's TimingRecorder applies
    // it as commands end): here it only clips and chooses the tracks.
    std::vector<TimedCommand> cmds = timed_commands(p, records);
    std::vector<ClusterOccupancy> occupancy = memory_occupancy(c, p, cmds, filter.start);
    std::vector<FlagTokens> flags = filter.ops.empty() ? flag_tokens(cmds, before) : std::vector<FlagTokens>{};

    // Declarations: per cluster its engines (busy, cmd, queue), the
    // occupancy of its L1, its cubes' L0s and its vector units' UBs, its
    // flags; then the links.
    std::vector<Signal> sig;
    std::map<std::tuple<uint32_t, std::pair<int, int64_t>>, size_t> engine_base;  // (cluster, engine order) -> busy
    size_t next_flag = 0;
    for (int64_t cl = 0; cl < c.clusters; ++cl) {
        if (!filter.keeps_cluster(uint32_t(cl))) continue;
        std::string cluster = "cluster" + std::to_string(cl);
        for (arch::EngineId e : arch::cluster_engines(c)) {
            std::string scope = cluster + "." + scope_name(arch::engine_name(e));
            engine_base[{uint32_t(cl), arch::engine_order(e)}] = sig.size();
            sig.push_back({scope, "busy", 1, "", {}});
            sig.push_back({scope, "cmd", 32, "", {}});
            sig.push_back({scope, "queue", 32, "", {}});
        }
        ClusterOccupancy& o = occupancy[size_t(cl)];
        sig.push_back({cluster + ".occupancy", "l1", 64, "", std::move(o.l1)});
        for (size_t k = 0; k < o.l0.size(); ++k)
            sig.push_back({cluster + ".occupancy", "cube" + std::to_string(k) + "_l0", 64, "", std::move(o.l0[k])});
        for (size_t k = 0; k < o.ub.size(); ++k)
            sig.push_back({cluster + ".occupancy", "vector" + std::to_string(k) + "_ub", 64, "", std::move(o.ub[k])});
        for (; next_flag < flags.size() && flags[next_flag].cluster == uint64_t(cl); ++next_flag)
            sig.push_back({cluster + ".flags", "f" + std::to_string(flags[next_flag].flag), 32, "",
                           std::move(flags[next_flag].tokens)});
    }
    size_t ddr = sig.size();
    sig.push_back({c.l2_present() ? "links.l2" : "links.ddr", "bytes_in_flight", 64, "", {}});
    if (c.l2_present()) sig.push_back({"links.ddr", "bytes_in_flight", 64, "", {}});
    size_t l1 = sig.size();
    std::vector<uint32_t> link_clusters;  // of the L1 port links, in order
    for (int64_t cl = 0; cl < c.clusters; ++cl)
        if (filter.keeps_cluster(uint32_t(cl))) {
            link_clusters.push_back(uint32_t(cl));
            sig.push_back({"links.cluster" + std::to_string(cl) + "_l1", "bytes_in_flight", 64, "", {}});
        }
    for (size_t i = 0; i < sig.size(); ++i) sig[i].id = id_code(i);

    // Engine signals from each command's start and end; links from the
    // bytes of the DMA commands in flight. A DMA engine with several
    // commands in flight (timing model §5) stays busy until the last of
    // them ends, and `cmd` shows the newest: an end clears the signals only
    // if the engine's next command starts at or after it.
    std::vector<std::vector<Change>> changes(sig.size());
    std::vector<std::vector<const TimedCommand*>> by_engine(sig.size());
    for (const TimedCommand& t : cmds) {
        auto it = engine_base.find({t.rec.cluster, arch::engine_order(t.rec.engine)});
        if (it != engine_base.end()) by_engine[it->second].push_back(&t);
    }
    for (size_t base = 0; base < by_engine.size(); ++base) {
        std::vector<const TimedCommand*>& list = by_engine[base];
        std::stable_sort(list.begin(), list.end(),
                         [](const TimedCommand* a, const TimedCommand* b) { return a->rec.start < b->rec.start; });
        for (size_t k = 0; k < list.size(); ++k) {
            const CommandRecord& r = list[k]->rec;
            const arch::Stream* stream = nullptr;
            for (const arch::Stream& s : p.blocks[r.block].streams)
                if (s.engine == r.engine) stream = &s;
            int64_t length = stream ? int64_t(stream->commands.size()) : 0;
            const bool overlapped = k + 1 < list.size() && list[k + 1]->rec.start < r.end;
            changes[base].push_back({r.start, 1, 1});
            changes[base + 1].push_back({r.start, 1, int64_t(r.index) + 1});
            if (!overlapped) {
                changes[base].push_back({r.end, 0, 0});
                changes[base + 1].push_back({r.end, 0, 0});
            }
            if (r.index == 0) changes[base + 2].push_back({r.start, 1, length});
            changes[base + 2].push_back({r.end, 0, length - int64_t(r.index) - 1});
        }
        std::vector<const TimedCommand*>().swap(list);
    }
    // Through a window: a stream that had begun before it starts with the
    // commands it had not yet finished.
    if (before)
        for (const auto& [block, b] : before->blocks()) {
            if (block >= p.blocks.size()) continue;
            for (const auto& [order, done] : b.done) {
                auto it = engine_base.find({b.cluster, order});
                if (it == engine_base.end()) continue;
                for (const arch::Stream& st : p.blocks[block].streams)
                    if (arch::engine_order(st.engine) == order && done < st.commands.size())
                        changes[it->second + 2].push_back({before->start(), 0, int64_t(st.commands.size() - done)});
            }
        }
    for (size_t i = 0; i < sig.size(); ++i) {
        if (!changes[i].empty()) sig[i].steps = fold(changes[i]);
        std::vector<Change>().swap(changes[i]);
    }
    std::vector<StepSeries> in_flight = link_bytes_in_flight(c, cmds);
    sig[ddr].steps = std::move(in_flight[0]);
    if (c.l2_present()) sig[ddr + 1].steps = ddr_transfer_bytes_in_flight(ddr_transfers);
    for (size_t k = 0; k < link_clusters.size(); ++k) sig[l1 + k].steps = std::move(in_flight[1 + link_clusters[k]]);
    // Through a window, each signal's value at its start goes under
    // $dumpvars (the first time stamp), its later changes after it.
    std::vector<int64_t> initial(sig.size(), 0);
    if (filter.windowed())
        for (size_t i = 0; i < sig.size(); ++i) {
            sig[i].steps = filter.clip(sig[i].steps);
            if (!sig[i].steps.empty() && sig[i].steps.front().cycle == filter.start) {
                initial[i] = sig[i].steps.front().value;
                sig[i].steps.erase(sig[i].steps.begin());
            }
        }

    out << "$version davinci-sim $end\n$timescale 1 ns $end\n";
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
        for (size_t k = open.size(); k > common; --k) out << "$upscope $end\n";
        for (size_t k = common; k < want.size(); ++k) out << "$scope module " << want[k] << " $end\n";
        open = want;
        out << "$var " << (sg.width == 1 ? "wire" : "integer") << " " << sg.width << " " << sg.id << " " << sg.name
            << " $end\n";
    }
    for (size_t k = 0; k < open.size(); ++k) out << "$upscope $end\n";
    out << "$enddefinitions $end\n#" << filter.start << "\n$dumpvars\n";
    for (size_t i = 0; i < sig.size(); ++i) value_line(out, initial[i], sig[i]);
    out << "$end\n";

    // Every signal's steps ordered by (cycle, signal): one "#cycle" line,
    // then the signals that change in it, in declaration order.
    std::vector<StepRef> order = by_cycle(sig);
    uint64_t written = ~uint64_t{0};
    for (const StepRef& s : order) {
        if (s.cycle != written) {
            out << '#' << s.cycle << '\n';
            written = s.cycle;
        }
        value_line(out, sig[s.signal].steps[s.step].value, sig[s.signal]);
    }
}

}  // namespace trace
