// --trace (Chrome/Perfetto JSON) and --vcd (GTKWave): structurally strict,
// consistent with the run, and byte-identical across runs.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_util.h"

using namespace clitest;

namespace {

struct Traces {
    std::string json, vcd;
};

Traces traces(const std::string& name, const std::string& program) {
    std::string j = (scratch() / (name + ".json")).string(), v = (scratch() / (name + ".vcd")).string();
    Outcome o = run("-q --trace '" + j + "' --vcd '" + v + "' " + program);
    EXPECT_EQ(o.status, 0) << o.err;
    return {slurp(j), slurp(v)};
}

// A strict reader of the VCD subset we write: declarations first (scopes
// balanced, unique identifiers), initial values for every variable, then
// strictly increasing timestamps and value changes of declared widths.
void check_vcd(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    std::map<std::string, int> width;
    int depth = 0;
    bool definitions_done = false, in_dumpvars = false;
    std::set<std::string> initialised;
    long long last_time = -1;
    size_t changes = 0;
    while (std::getline(in, line)) {
        if (!definitions_done) {
            std::istringstream w(line);
            std::string kw;
            w >> kw;
            if (kw == "$scope") ++depth;
            else if (kw == "$upscope") ASSERT_GE(--depth, 0) << line;
            else if (kw == "$var") {
                std::string type, id, name, end;
                int bits = 0;
                w >> type >> bits >> id >> name >> end;
                ASSERT_TRUE(type == "wire" || type == "integer") << line;
                ASSERT_EQ(end, "$end") << line;
                ASSERT_TRUE(width.emplace(id, bits).second) << "duplicate identifier: " << line;
            } else if (kw == "$enddefinitions") {
                ASSERT_EQ(depth, 0);
                definitions_done = true;
            } else {
                ASSERT_TRUE(kw == "$version" || kw == "$timescale") << line;
            }
            continue;
        }
        ASSERT_FALSE(line.empty());
        if (line == "$dumpvars") { in_dumpvars = true; continue; }
        if (line == "$end") { in_dumpvars = false; continue; }
        if (line[0] == '#') {
            long long t = std::stoll(line.substr(1));
            ASSERT_GT(t, last_time) << "time must increase: " << line;
            last_time = t;
            continue;
        }
        std::string id, value;
        if (line[0] == 'b') {
            auto space = line.find(' ');
            ASSERT_NE(space, std::string::npos) << line;
            value = line.substr(1, space - 1);
            id = line.substr(space + 1);
            ASSERT_EQ(value.find_first_not_of("01"), std::string::npos) << line;
            ASSERT_TRUE(width.count(id)) << "undeclared: " << line;
            ASSERT_GT(width[id], 1) << line;
            ASSERT_LE(int(value.size()), width[id]) << line;
        } else {
            ASSERT_TRUE(line[0] == '0' || line[0] == '1') << line;
            id = line.substr(1);
            ASSERT_TRUE(width.count(id)) << "undeclared: " << line;
            ASSERT_EQ(width[id], 1) << line;
        }
        if (in_dumpvars) initialised.insert(id);
        else ++changes;
        ASSERT_GE(last_time, 0) << "value before the first timestamp";
    }
    ASSERT_TRUE(definitions_done);
    EXPECT_EQ(initialised.size(), width.size()) << "every variable needs an initial value";
    EXPECT_GT(changes, 0u);
}

// Every slice has pid/tid/ts/dur; slices on one track never overlap; every
// flow has both ends; every process and track used is named.
void check_chrome_trace(const std::string& text, uint64_t total_cycles) {
    nlohmann::json j = nlohmann::json::parse(text);
    ASSERT_TRUE(j["traceEvents"].is_array());
    std::set<int> named_pids;
    std::set<std::pair<int, int>> named_tracks;
    std::map<std::pair<int, int>, std::vector<std::pair<uint64_t, uint64_t>>> slices;
    std::map<uint64_t, int> flow_ends;
    std::set<int> counter_pids;
    size_t counters = 0;
    for (const auto& e : j["traceEvents"]) {
        std::string ph = e.at("ph");
        int pid = e.at("pid"), tid = e.at("tid");
        if (ph == "M") {
            if (e["name"] == "process_name") named_pids.insert(pid);
            if (e["name"] == "thread_name") named_tracks.insert({pid, tid});
        } else if (ph == "X") {
            ASSERT_TRUE(e.contains("ts") && e.contains("dur")) << e.dump();
            // Cycles are exact in args; ts/dur are the same in microseconds.
            uint64_t start = e["args"]["cycles"][0], end = e["args"]["cycles"][1];
            ASSERT_LE(start, end);
            ASSERT_LE(end, total_cycles);
            if (e["cat"] != "block") slices[{pid, tid}].push_back({start, end});
        } else if (ph == "s" || ph == "f") {
            flow_ends[e.at("id").get<uint64_t>()] += ph == "s" ? 1 : 2;
        } else if (ph == "C") {
            // Bytes in flight on a link: never negative, on a named process.
            ASSERT_TRUE(e["args"]["bytes"].is_number_unsigned()) << e.dump();
            counter_pids.insert(pid);
            ++counters;
        } else {
            FAIL() << "unexpected event " << e.dump();
        }
    }
    for (auto& [track, v] : slices) {
        EXPECT_TRUE(named_pids.count(track.first)) << track.first;
        EXPECT_TRUE(named_tracks.count(track)) << track.first << "/" << track.second;
        std::sort(v.begin(), v.end());
        for (size_t i = 1; i < v.size(); ++i)
            ASSERT_LE(v[i - 1].second, v[i].first) << "overlap on track " << track.first << "/" << track.second;
    }
    EXPECT_FALSE(flow_ends.empty());
    EXPECT_GT(counters, 0u);
    for (int pid : counter_pids) EXPECT_TRUE(named_pids.count(pid)) << "counter on unnamed process " << pid;
    for (const auto& [id, ends] : flow_ends) EXPECT_EQ(ends, 3) << "flow " << id << " lacks an end";
}

TEST(Traces, Gemm256TracesAreWellFormedAndDeterministic) {
    Traces a = traces("a", "models/gemm_256.pto");
    Traces b = traces("b", "models/gemm_256.pto");
    EXPECT_EQ(a.json, b.json);
    EXPECT_EQ(a.vcd, b.vcd);
    check_vcd(a.vcd);
    check_chrome_trace(a.json, 78913);
    // Loop control shows on the commands that start a k-loop iteration.
    EXPECT_NE(a.json.find(",\"issue_cycles\":8}"), std::string::npos);
    // The last change in the VCD is the run's last command end.
    EXPECT_NE(a.vcd.find("\n#78913\n"), std::string::npos);
}

// A 512x256x384 matmul: 4 x 3 blocks, so clusters run several blocks each.
TEST(Traces, MultiBlockRunIsWellFormed) {
    std::string pto = write_file("chain.pto",
                                 "import pypto as pypo\n"
                                 "a = pypo.input('a', shape=(512, 256))\n"
                                 "b = pypo.input('b', shape=(256, 384))\n"
                                 "c = pypo.op.matmul(a, b)\n"
                                 "pypo.output('c', c)\n");
    Outcome o = run("-q --report-json '" + (scratch() / "chain.json").string() + "' '" + pto + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    uint64_t total = nlohmann::json::parse(slurp((scratch() / "chain.json").string()))["total_cycles"];
    Traces t = traces("chain", "'" + pto + "'");
    check_vcd(t.vcd);
    check_chrome_trace(t.json, total);
}

}  // namespace
