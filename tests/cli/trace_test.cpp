// --trace (Chrome/Perfetto JSON) and --vcd (GTKWave): structurally strict,
// consistent with the run, and byte-identical across runs.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"
#include "vcd_checker.h"

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

// What the VCD must say beyond its syntax: every engine, occupancy and
// link signal of the default hardware (4 clusters of 4 cubes) and some
// flags, no change that repeats a value, occupancy within the memory's
// capacity, and every counter back to 0 when the run is over.
void check_vcd_signals(const Vcd& vcd) {
    std::set<std::string> declared(vcd.order.begin(), vcd.order.end());
    size_t flags = 0;
    for (int cl = 0; cl < 4; ++cl) {
        std::string cluster = "cluster" + std::to_string(cl);
        for (const char* s : {".dma0.busy", ".dma0.cmd", ".dma0.queue", ".cube3_dma.busy", ".cube3.cmd",
                              ".vector0.queue", ".occupancy.l1", ".occupancy.cube0_l0", ".occupancy.cube3_l0"})
            EXPECT_TRUE(declared.count(cluster + s)) << cluster + s;
        for (const std::string& n : vcd.order) flags += n.rfind(cluster + ".flags.f", 0) == 0;
    }
    EXPECT_GT(flags, 0u);
    EXPECT_TRUE(declared.count("links.ddr.bytes_in_flight"));
    uint64_t peak_l1 = 0;
    for (const auto& [id, var] : vcd.vars) {
        const auto& ch = vcd.changes.at(var.name);
        for (size_t k = 1; k < ch.size(); ++k)
            ASSERT_NE(ch[k].second, ch[k - 1].second) << var.name << " repeats its value at " << ch[k].first;
        bool occupancy = var.name.find(".occupancy.") != std::string::npos;
        bool counter = occupancy || var.name.find(".flags.") != std::string::npos ||
                       var.name.find("bytes_in_flight") != std::string::npos;
        if (counter) {
            EXPECT_EQ(ch.back().second, 0u) << var.name << " at the end";
        }
        if (occupancy) {
            EXPECT_EQ(var.width, 64) << var.name;
            uint64_t capacity = var.name.find("_l0") != std::string::npos ? 32 * 1024 : 256 * 1024;
            for (const auto& [t, v] : ch) ASSERT_LE(v, capacity) << var.name << " at " << t;
            if (var.name.find(".l1") != std::string::npos)
                for (const auto& [t, v] : ch) peak_l1 = std::max(peak_l1, v);
        }
    }
    EXPECT_GT(peak_l1, 0u);
}

// Every slice has pid/tid/ts/dur; slices on one track never overlap; every
// flow has both ends; every process and track used is named. `whole_run`:
// the trace shows the whole run, so every L1 is empty again at its end.
void check_chrome_trace(const std::string& text, uint64_t total_cycles, bool whole_run = true) {
    nlohmann::json j = testjson::parse(text);
    ASSERT_TRUE(j["traceEvents"].is_array());
    EXPECT_EQ(j["schema_version"], 1);
    std::set<int> named_pids;
    std::set<std::pair<int, int>> named_tracks;
    std::map<std::pair<int, int>, std::vector<std::pair<uint64_t, uint64_t>>> slices;
    std::map<uint64_t, int> flow_ends;
    std::set<int> counter_pids;
    size_t counters = 0, power_points = 0;
    std::map<int, uint64_t> l1_live;  // per cluster process: the last L1 live-bytes value
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
        } else if (ph == "i") {
            // A print or pypo.log message, on the chip, at its cycle.
            ASSERT_EQ(pid, 0) << e.dump();
            ASSERT_TRUE(e["name"].is_string() && e["args"]["cycle"].is_number_unsigned()) << e.dump();
            ASSERT_LE(e["args"]["cycle"].get<uint64_t>(), total_cycles) << e.dump();
            ASSERT_TRUE(e["cat"] == "print" || e["cat"] == "log") << e.dump();
        } else if (ph == "s" || ph == "f") {
            flow_ends[e.at("id").get<uint64_t>()] += ph == "s" ? 1 : 2;
        } else if (ph == "C" && e["name"] == "power (W)") {
            // The chip's power (sim/trace/power.h): a bin's, never negative.
            ASSERT_TRUE(e["args"]["watts"].is_number()) << e.dump();
            ASSERT_GE(e["args"]["watts"].get<double>(), 0.0) << e.dump();
            ASSERT_EQ(pid, 0) << e.dump();
            ++power_points;
        } else if (ph == "C") {
            // Bytes in flight on a link, or live in L1: never negative, on a
            // named process; L1 within its capacity.
            ASSERT_TRUE(e["args"]["bytes"].is_number_unsigned()) << e.dump();
            counter_pids.insert(pid);
            ++counters;
            if (e["name"] == "L1 live bytes") {
                ASSERT_LE(e["args"]["bytes"].get<uint64_t>(), 256u * 1024) << e.dump();
                l1_live[pid] = e["args"]["bytes"].get<uint64_t>();
            }
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
    // A power point per microsecond bin of the run (at most 1,000 of them).
    EXPECT_GT(power_points, 0u);
    EXPECT_LE(power_points, 1000u);
    // Every cluster that ran something shows its L1, empty again at the end.
    EXPECT_FALSE(l1_live.empty());
    if (whole_run) {
        for (const auto& [pid, last] : l1_live) EXPECT_EQ(last, 0u) << "L1 of process " << pid;
    }
    for (int pid : counter_pids) EXPECT_TRUE(named_pids.count(pid)) << "counter on unnamed process " << pid;
    for (const auto& [id, ends] : flow_ends) EXPECT_EQ(ends, 3) << "flow " << id << " lacks an end";
}

TEST(Traces, Gemm256TracesAreWellFormedAndDeterministic) {
    Traces a = traces("a", "models/gemm_256.pto");
    Traces b = traces("b", "models/gemm_256.pto");
    EXPECT_EQ(a.json, b.json);
    EXPECT_EQ(a.vcd, b.vcd);
    Vcd vcd;
    ASSERT_NO_FATAL_FAILURE(check_vcd(a.vcd, &vcd));
    EXPECT_EQ(vcd.timescale, "1ns");
    EXPECT_EQ(vcd.last_time, 71421u);
    check_vcd_signals(vcd);
    check_chrome_trace(a.json, 71421);
    // Loop control shows on the commands that start a k-loop iteration.
    EXPECT_NE(a.json.find(",\"issue_cycles\":8}"), std::string::npos);
    // The last change in the VCD is the run's last command end.
    EXPECT_NE(a.vcd.find("\n#71421\n"), std::string::npos);
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
    uint64_t total = testjson::parse(slurp((scratch() / "chain.json").string()))["total_cycles"];
    Traces t = traces("chain", "'" + pto + "'");
    Vcd vcd;
    ASSERT_NO_FATAL_FAILURE(check_vcd(t.vcd, &vcd));
    check_vcd_signals(vcd);
    check_chrome_trace(t.json, total);
}

// A second model with every kind of unit: convolutions (im2col), vector ops.
TEST(Traces, ResnetBlockTracesAreWellFormedAndDeterministic) {
    Outcome o = run("-q --report-json '" + (scratch() / "resnet.json").string() + "' models/resnet_block.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    uint64_t total = testjson::parse(slurp((scratch() / "resnet.json").string()))["total_cycles"];
    Traces a = traces("ra", "models/resnet_block.pto");
    Traces b = traces("rb", "models/resnet_block.pto");
    EXPECT_EQ(a.json, b.json);
    EXPECT_EQ(a.vcd, b.vcd);
    Vcd vcd;
    ASSERT_NO_FATAL_FAILURE(check_vcd(a.vcd, &vcd));
    EXPECT_EQ(vcd.last_time, total);
    check_vcd_signals(vcd);
    check_chrome_trace(a.json, total);
}

// The structural checks hold through a window, gzip-compressed, on a model
// with every kind of unit (the slices clipped to the window do not overlap
// on a track either).
TEST(Traces, WindowedGzipTraceOfResnetBlockIsWellFormed) {
    Outcome o = run("-q --report-json '" + (scratch() / "rw.json").string() + "' models/resnet_block.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    uint64_t total = testjson::parse(slurp((scratch() / "rw.json").string()))["total_cycles"];
    const std::string gz = (scratch() / "rw.trace.json.gz").string(), json = (scratch() / "rw.trace.json").string();
    o = run("-q --trace '" + gz + "' --trace-window " + std::to_string(total / 3) + ":" + std::to_string(total / 2) +
            " models/resnet_block.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    ASSERT_EQ(std::system(("gzip -dc '" + gz + "' > '" + json + "'").c_str()), 0);
    check_chrome_trace(slurp(json), total, /*whole_run=*/false);
}

// The checker itself rejects what it should.
TEST(Traces, VcdCheckerRejectsMalformedDumps) {
    const std::string head =
        "$version x $end\n$timescale 1 ns $end\n$scope module top $end\n"
        "$var wire 1 ! a $end\n$var integer 8 \" b $end\n$upscope $end\n$enddefinitions $end\n";
    const std::string init = "#0\n$dumpvars\n0!\nb0 \"\n$end\n";
    auto fails = [](const std::string& text) {
        Vcd vcd;
        ::testing::TestPartResultArray results;
        {
            ::testing::ScopedFakeTestPartResultReporter reporter(
                ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
            check_vcd(text, &vcd);
        }
        return results.size() > 0;
    };
    EXPECT_FALSE(fails(head + init + "#5\n1!\nb101 \"\n#6\n0!\n"));
    EXPECT_TRUE(fails(
        "$scope module top $end\n$timescale 1 ns $end\n$var wire 1 ! a $end\n$upscope $end\n$enddefinitions $end\n" +
        init));
    EXPECT_TRUE(
        fails("$timescale 1 ns $end\n$version x $end\n$scope module top $end\n$var wire 1 ! a $end\n$upscope "
              "$end\n$enddefinitions $end\n#0\n$dumpvars\n0!\n$end\n"));
    EXPECT_TRUE(fails(
        "$timescale 1 ns $end\n$var wire 1 ! a $end\n$enddefinitions $end\n#0\n$dumpvars\n0!\n$end\n"));  // outside a
                                                                                                          // scope
    EXPECT_TRUE(
        fails("$timescale 3 ns $end\n$scope module top $end\n$var wire 1 ! a $end\n$upscope $end\n$enddefinitions "
              "$end\n#0\n$dumpvars\n0!\n$end\n"));
    EXPECT_TRUE(
        fails("$timescale 1 ns $end\n$scope module top $end\n$var wire 1 ! a $end\n$var wire 1 ! b $end\n$upscope "
              "$end\n$enddefinitions $end\n#0\n$dumpvars\n0!\n$end\n"));
    EXPECT_TRUE(
        fails("$timescale 1 ns $end\n$scope module top $end\n$var wire 1 ! a $end\n$enddefinitions "
              "$end\n#0\n$dumpvars\n0!\n$end\n"));            // unbalanced
    EXPECT_TRUE(fails(head + init + "#5\n1#\n"));             // undeclared
    EXPECT_TRUE(fails(head + init + "#5\n1!\n#5\n0!\n"));     // time does not increase
    EXPECT_TRUE(fails(head + init + "#5\nb101010101 \"\n"));  // 9 bits in 8
    EXPECT_TRUE(fails(head + init + "#5\nb1x1 \"\n"));
    EXPECT_TRUE(fails(head + init + "#5\n1\"\n"));           // a scalar change of a vector
    EXPECT_TRUE(fails(head + "#0\n$dumpvars\n0!\n$end\n"));  // b has no initial value
    EXPECT_TRUE(fails(head + "1!\n" + init));                // a value before any time
}

// GTKWave's converter (Debian gtkwave, installed by scripts/bootstrap.sh)
// reads both models' VCDs, and its FST holds the same changes: converted
// back with fst2vcd, every signal has the same values at the same times.
TEST(Traces, VcdConvertsToFst) {
    if (std::system("command -v vcd2fst >/dev/null 2>&1 && command -v fst2vcd >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "vcd2fst/fst2vcd not found: install the Debian package gtkwave (scripts/bootstrap.sh does)";
    for (const std::string model : {"gemm_256", "resnet_block"}) {
        std::string vcd = (scratch() / (model + ".vcd")).string(), fst = (scratch() / (model + ".fst")).string(),
                    back = (scratch() / (model + ".back.vcd")).string();
        Outcome o = run("-q --vcd '" + vcd + "' models/" + model + ".pto");
        ASSERT_EQ(o.status, 0) << o.err;
        ASSERT_EQ(std::system(("vcd2fst '" + vcd + "' '" + fst + "' >/dev/null 2>&1").c_str()), 0) << model;
        ASSERT_GT(std::filesystem::file_size(fst), 0u) << model;
        ASSERT_EQ(std::system(("fst2vcd '" + fst + "' >'" + back + "' 2>/dev/null").c_str()), 0) << model;
        Vcd ours, theirs;
        ASSERT_NO_FATAL_FAILURE(check_vcd(slurp(vcd), &ours));
        ASSERT_NO_FATAL_FAILURE(check_vcd(slurp(back), &theirs));
        EXPECT_EQ(theirs.order, ours.order) << model;
        // fst2vcd may restate a value; compare the values each signal takes.
        for (auto& [name, ch] : theirs.changes) {
            std::vector<std::pair<uint64_t, uint64_t>> folded;
            for (const auto& c : ch)
                if (folded.empty() || folded.back().second != c.second) folded.push_back(c);
            ch = folded;
        }
        EXPECT_TRUE(theirs.changes == ours.changes) << model << ": values differ after the round trip";
    }
}

}  // namespace
