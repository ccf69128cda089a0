// --trace-window, --trace-clusters, --trace-ops and .gz traces: a filtered
// trace is the full trace seen through the filter (the same commands, their
// slices clipped to the window, the same counter values inside it but the
// live bytes, which count the data read in the window), a .gz
// trace decompresses to the same bytes, and a filter that keeps more than
// the machine's memory stops the run with exit status 2 and no output.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"
#include "vcd_checker.h"

using namespace clitest;

namespace {

// gemm_256 on the default machine: 71,421 cycles on 4 clusters.
constexpr uint64_t kStart = 20000, kEnd = 40000;

struct Slice {
    uint64_t ts_ns, dur_ns;  // as shown, at the default 1 GHz clock
};
using CommandKey = std::tuple<int, uint64_t, uint64_t, std::string>;  // pid, block, index, name

// The commands' slices of a Chrome trace by (process, block, index, name),
// and the counters' values by (process, name) as steps (ns, value).
struct Parsed {
    std::map<CommandKey, std::pair<Slice, std::pair<uint64_t, uint64_t>>> slices;  // shown, true cycles
    std::map<std::pair<int, std::string>, std::vector<std::pair<uint64_t, uint64_t>>> counters;
    std::set<int> pids;
    size_t flows = 0;
};

uint64_t ns(const nlohmann::json& us) { return uint64_t(us.get<double>() * 1000 + 0.5); }

Parsed parse(const std::string& text) {
    Parsed p;
    const nlohmann::json j = testjson::parse(text);
    EXPECT_EQ(j["schema_version"], 1);
    for (const auto& e : j["traceEvents"]) {
        const std::string ph = e["ph"];
        const int pid = e["pid"];
        p.pids.insert(pid);
        if (ph == "X" && e["cat"] != "block") {
            const uint64_t start = e["args"]["cycles"][0], end = e["args"]["cycles"][1];
            p.slices[{pid, e["args"]["block"], e["args"]["index"], e["name"]}] = {{ns(e["ts"]), ns(e["dur"])},
                                                                                  {start, end}};
        } else if (ph == "C" && e["args"].contains("bytes")) {
            p.counters[{pid, e["name"]}].push_back({ns(e["ts"]), e["args"]["bytes"]});
        } else if (ph == "s") {
            ++p.flows;
        }
    }
    return p;
}

// A step series' value at `t`.
uint64_t value_at(const std::vector<std::pair<uint64_t, uint64_t>>& steps, uint64_t t) {
    uint64_t v = 0;
    for (const auto& [at, value] : steps)
        if (at <= t) v = value;
    return v;
}

std::string trace_of(const std::string& name, const std::string& options) {
    const std::string path = (scratch() / name).string();
    const Outcome o = run("-q models/gemm_256.pto --trace " + path + " " + options);
    EXPECT_EQ(o.status, 0) << o.err;
    return slurp(path);
}

TEST(TraceFilter, WindowShowsTheFullTracesCommandsClippedAndItsCountersInside) {
    const Parsed full = parse(trace_of("full.json", ""));
    const Parsed window = parse(trace_of("window.json", "--trace-window 20000:40000"));
    // The commands that run during the window, each clipped to it.
    size_t inside = 0;
    for (const auto& [key, slice] : full.slices) {
        const auto [start, end] = slice.second;
        const bool runs = start < kEnd && end > kStart;
        inside += runs;
        auto it = window.slices.find(key);
        ASSERT_EQ(it != window.slices.end(), runs) << std::get<3>(key) << " " << start << "-" << end;
        if (!runs) continue;
        EXPECT_EQ(it->second.second, slice.second);  // args keep the true cycles
        const uint64_t from = std::max(start, kStart), to = std::min(end, kEnd);
        EXPECT_EQ(it->second.first.ts_ns, from);
        EXPECT_EQ(it->second.first.dur_ns, to - from);
    }
    EXPECT_EQ(window.slices.size(), inside);
    EXPECT_GT(inside, 100u);
    EXPECT_LT(inside, full.slices.size() / 2);
    // Counters: the same value at every cycle of the window, none outside;
    // the live bytes in L1 count the data read in the window (a value read
    // only after it is not counted), so never more than the full trace's.
    size_t live_below = 0;
    for (const auto& [key, steps] : window.counters) {
        ASSERT_TRUE(full.counters.count(key)) << key.second;
        const bool live = key.second == "L1 live bytes";
        std::set<uint64_t> times;
        for (const auto& [at, value] : steps) {
            EXPECT_GE(at, kStart);
            EXPECT_LT(at, kEnd);
            times.insert(at);
        }
        for (const auto& [at, value] : full.counters.at(key)) {
            if (at >= kStart && at < kEnd) times.insert(at);
        }
        for (uint64_t at : times) {
            const uint64_t shown = value_at(steps, at), truth = value_at(full.counters.at(key), at);
            if (!live) {
                ASSERT_EQ(shown, truth) << key.second << " at " << at;
            }
            ASSERT_LE(shown, truth) << key.second << " at " << at;
            live_below += shown < truth;
        }
    }
    EXPECT_GT(live_below, 0u);  // gemm_256's panels read after the window
    EXPECT_GT(window.flows, 0u);
    EXPECT_LT(window.flows, full.flows);
}

TEST(TraceFilter, ClustersAndOperationsChooseTheCommandsShown) {
    const Parsed full = parse(trace_of("full.json", ""));
    const Parsed one = parse(trace_of("one.json", "--trace-clusters 1,3"));
    std::set<int> pids;
    for (const auto& [key, slice] : one.slices) pids.insert(std::get<0>(key));
    EXPECT_EQ(pids, (std::set<int>{2, 4}));  // clusters 1 and 3
    size_t shown = 0;
    for (const auto& [key, slice] : full.slices) shown += std::get<0>(key) == 2 || std::get<0>(key) == 4;
    EXPECT_EQ(one.slices.size(), shown);
    EXPECT_EQ(one.pids, (std::set<int>{0, 2, 4}));  // and the chip's counters

    // gemm_256's one operation is `c`: a glob that matches it keeps all,
    // one that matches nothing keeps none.
    EXPECT_EQ(parse(trace_of("c.json", "--trace-ops 'x*,c'")).slices.size(), full.slices.size());
    EXPECT_EQ(parse(trace_of("none.json", "--trace-ops 'matmul_*'")).slices.size(), 0u);
}

TEST(TraceFilter, VcdThroughAWindowHasTheFullValuesInside) {
    const std::string full_path = (scratch() / "full.vcd").string(), window_path = (scratch() / "w.vcd").string();
    ASSERT_EQ(run("-q models/gemm_256.pto --vcd " + full_path).status, 0);
    const Outcome o = run("-q models/gemm_256.pto --vcd " + window_path + " --trace-window 20000:40000");
    ASSERT_EQ(o.status, 0) << o.err;
    Vcd full, window;
    ASSERT_NO_FATAL_FAILURE(check_vcd(slurp(full_path), &full));
    ASSERT_NO_FATAL_FAILURE(check_vcd(slurp(window_path), &window));
    // The same signals, but the flags no command of the window uses (and
    // none held through it), which are 0 there.
    std::set<std::string> shown(window.order.begin(), window.order.end());
    std::vector<std::string> full_shown;
    for (const std::string& name : full.order) {
        if (shown.count(name)) {
            full_shown.push_back(name);
            continue;
        }
        EXPECT_NE(name.find(".flags.f"), std::string::npos) << name;
        for (uint64_t t = kStart; t < kEnd; t += 97)
            ASSERT_EQ(value_at(full.changes[name], t), 0u) << name << " at " << t;
    }
    EXPECT_EQ(window.order, full_shown);
    for (const std::string& name : window.order) {
        const auto& w = window.changes[name];
        const auto& f = full.changes[name];
        ASSERT_FALSE(w.empty());
        EXPECT_EQ(w.front().first, kStart) << name;  // $dumpvars at the window's start
        for (const auto& [at, value] : w) EXPECT_LT(at, kEnd) << name;
        // As in the Chrome trace, the live bytes count the data read in the window.
        const bool live = name.find(".occupancy.") != std::string::npos;
        std::set<uint64_t> times = {kStart, kEnd - 1};
        for (const auto& [at, value] : f) {
            if (at > kStart && at < kEnd) times.insert(at);
        }
        for (const auto& [at, value] : w) times.insert(at);
        for (uint64_t t : times) {
            if (!live) {
                ASSERT_EQ(value_at(w, t), value_at(f, t)) << name << " at " << t;
            }
            ASSERT_LE(value_at(w, t), value_at(f, t)) << name << " at " << t;
        }
    }
}

TEST(TraceFilter, GzipTraceDecompressesToTheSameBytes) {
    const std::string plain = trace_of("plain.json", "--trace-window 1000:");
    const std::string gz = (scratch() / "t.json.gz").string();
    ASSERT_EQ(run("-q models/gemm_256.pto --trace " + gz + " --trace-window 1000:").status, 0);
    const std::string packed = slurp(gz);
    ASSERT_GE(packed.size(), 10u);
    EXPECT_EQ(packed.substr(0, 3), std::string("\x1f\x8b\x08", 3));  // gzip, deflate
    EXPECT_EQ(packed.substr(4, 4), std::string(4, '\0'));            // no time stamp: the same bytes every run
    EXPECT_LT(packed.size() * 5, plain.size());
    const std::string out = (scratch() / "t.json").string();
    ASSERT_EQ(std::system(("gzip -dc " + gz + " > " + out).c_str()), 0);
    EXPECT_EQ(slurp(out), plain);
    // And again: byte-identical.
    ASSERT_EQ(run("-q models/gemm_256.pto --trace " + gz + ".2.gz --trace-window 1000:").status, 0);
    EXPECT_EQ(slurp(gz + ".2.gz"), packed);
}

TEST(TraceFilter, BadFiltersAreRefused) {
    const std::string t = (scratch() / "bad.json").string();
    const std::pair<std::string, std::string> cases[] = {
        {"--trace-window 5", "--trace-window: expected START:END in cycles (either may be left out), got '5'"},
        {"--trace-window 9:9", "--trace-window: the window 9:9 is empty: END must be above START"},
        {"--trace-window -1:9", "--trace-window: expected START:END in cycles (either may be left out), got '-1:9'"},
        {"--trace-clusters 0,,1", "--trace-clusters: expected cluster numbers and ranges such as 0,2,5-7, got '0,,1'"},
        {"--trace-clusters 3-1", "--trace-clusters: expected cluster numbers and ranges such as 0,2,5-7, got '3-1'"},
        {"--trace-ops 'a,'",
         "--trace-ops: expected operation names or globs separated by commas, such as 'matmul_*,softmax_1', got "
         "'a,'"},
    };
    for (const auto& [option, message] : cases) {
        const Outcome o = run("-q models/gemm_256.pto --trace " + t + " " + option);
        EXPECT_EQ(o.status, 2) << option;
        // The usage follows, as after every command-line error.
        EXPECT_EQ(o.err.rfind("davinci-sim: error: " + message + "\nusage: davinci-sim", 0), 0u) << o.err;
    }
    const Outcome alone = run("-q models/gemm_256.pto --trace-window 0:10");
    EXPECT_EQ(alone.status, 2);
    EXPECT_EQ(
        alone.err.rfind(
            "davinci-sim: error: --trace-window chooses what --trace and --vcd show; neither is asked for\nusage:", 0),
        0u)
        << alone.err;
    const Outcome missing = run("-q models/gemm_256.pto --trace " + t + " --trace-clusters 2,4");
    EXPECT_EQ(missing.status, 2);
    EXPECT_EQ(
        missing.err,
        "davinci-sim: error: --trace-clusters: cluster 4 does not exist: built-in default has 4 clusters (0-3)\n");
    EXPECT_FALSE(std::filesystem::exists(t));
}

// A filter keeps at most the memory's worth of commands, about 1 KiB each
// (DAVINCI_SIM_MEMORY_BYTES stands for the machine): 102,400 bytes hold 100.
TEST(TraceFilter, AFilterThatKeepsMoreThanTheMemoryStopsTheRun) {
    const std::string t = (scratch() / "big.json").string();
    const std::string report = (scratch() / "big-report.json").string();
    ASSERT_EQ(::setenv("DAVINCI_SIM_MEMORY_BYTES", "102400", 1), 0);
    const Outcome wide = run("-q models/gemm_256.pto --trace " + t + " --report-json " + report + " --trace-window 1:");
    const Outcome narrow = run("-q models/gemm_256.pto --trace " + t + " --trace-window 20000:20400");
    ::unsetenv("DAVINCI_SIM_MEMORY_BYTES");
    EXPECT_EQ(wide.status, 2);
    EXPECT_EQ(wide.err,
              "davinci-sim: error: --trace kept more than 100 commands (about 0.1 MiB, the memory this machine has) "
              "through --trace-window, --trace-clusters and --trace-ops: narrow them; no report or traces written\n");
    EXPECT_FALSE(std::filesystem::exists(report));
    EXPECT_EQ(narrow.status, 0) << narrow.err;
    EXPECT_GT(parse(slurp(t)).slices.size(), 0u);
}

}  // namespace
