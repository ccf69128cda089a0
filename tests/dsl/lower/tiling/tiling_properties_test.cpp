// Mapping quality as properties (issue 17 item 4), each over a few hundred
// random GEMM shapes and hardware configurations drawn from fixed seeds:
//  - the tiling chosen is never estimated slower than any tiling the
//    search estimated, beyond the 0.5 % within which it takes the fewest
//    commands (dsl/lower/tiling/matmul_tiling.h says why);
//  - a matmul with one row of cube tiles (a GEMV) uses every cube;
//  - the estimate is close to the simulation (dsl/lower/tiling/gemm_cost.h);
//  - prefetch=True never makes a matmul slower than without it;
//  - a larger L1 or L0 never makes the same program slower, and a print
//    drain never makes it faster, beyond 1 %.
// The simulated ones run the real davinci-sim (one process per run). A
// failure names its seed, shape and configuration, so that it replays.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "dsl/lower/tiling/gemm_cost.h"
#include "tests/cli/cli_util.h"
#include "tests/dsl/lower_test_util.h"
#include "tests/support/json_parse.h"

namespace {

using namespace lower_test;

struct Case {
    uint32_t seed = 0;
    int64_t M = 0, K = 0, N = 0;
    std::vector<std::pair<std::string, int64_t>> settings;  // --set KEY=VALUE
    std::string text() const {
        std::ostringstream s;
        s << "seed " << seed << ": " << M << "x" << K << "x" << N;
        for (const auto& [k, v] : settings) s << " " << k << "=" << v;
        return s.str();
    }
    arch::Config config() const {
        nlohmann::json j = nlohmann::json::object();
        for (const auto& [k, v] : settings) {
            const auto dot = k.find('.');
            j[k.substr(0, dot)][k.substr(dot + 1)] = v;
        }
        return lower_test::config(j.dump());
    }
    std::string set_args() const {
        std::string s;
        for (const auto& [k, v] : settings) s += " --set " + k + "=" + std::to_string(v);
        return s;
    }
};

int64_t pick(std::mt19937& rng, std::initializer_list<int64_t> v) {
    return *(v.begin() + std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng));
}

// Shapes from a GEMV to a square GEMM, some of them not multiples of the
// MAC array; hardware around the default's (DDR bandwidth and requests in
// flight, L1 and L0 capacity, clusters, the cubes' read paths from L1).
Case random_case(uint32_t seed, int64_t max_extent) {
    std::mt19937 rng(seed);
    Case k;
    k.seed = seed;
    auto extent = [&](int64_t lo) {
        const int64_t e = std::uniform_int_distribution<int64_t>(lo, max_extent)(rng);
        return std::uniform_int_distribution<int>(0, 1)(rng) ? (e + 15) / 16 * 16 : e;
    };
    const int kind = std::uniform_int_distribution<int>(0, 3)(rng);
    k.M = kind == 0 ? pick(rng, {1, 2, 4, 8}) : extent(16);
    k.K = extent(16);
    k.N = kind == 1 ? pick(rng, {1, 8, 16}) : extent(16);
    k.settings.push_back({"ddr.bytes_per_cycle", pick(rng, {16, 32, 64, 128, 256})});
    k.settings.push_back({"dma.max_outstanding", pick(rng, {1, 2, 8})});
    k.settings.push_back({"cluster.l1_kib", pick(rng, {128, 256, 512})});
    k.settings.push_back({"cube.l0_kib", pick(rng, {32, 64})});
    k.settings.push_back({"chip.clusters", pick(rng, {1, 2, 4})});
    // Each cube's read path from L1 (§6.2), half the time limited.
    k.settings.push_back({"cube.l1_read_bytes_per_cycle", pick(rng, {0, 0, 16, 64})});
    return k;
}

std::string matmul_source(const Case& k, const std::string& attrs = "") {
    std::ostringstream s;
    s << "import pypto as pypo\n"
      << "a = pypo.input(\"a\", shape=(" << k.M << ", " << k.K << "), dtype=\"float16\")\n"
      << "b = pypo.input(\"b\", shape=(" << k.K << ", " << k.N << "), dtype=\"float16\")\n"
      << "pypo.output(\"c\", pypo.op.matmul(a, b" << attrs << "))\n";
    return s.str();
}

// The matmul of `k` followed by a fused epilogue (dsl/passes/pass_fusion.h)
// of kind `kind` (0-5): relu; gelu; silu; a cast to float32 and relu; the
// add of a residual and sigmoid; mul by a number, silu and a cast to
// float32.
std::string epilogue_source(const Case& k, int kind) {
    std::ostringstream s;
    s << "import pypto as pypo\n"
      << "a = pypo.input(\"a\", shape=(" << k.M << ", " << k.K << "), dtype=\"float16\")\n"
      << "b = pypo.input(\"b\", shape=(" << k.K << ", " << k.N << "), dtype=\"float16\")\n"
      << "x = pypo.op.matmul(a, b)\n";
    if (kind == 4) s << "r = pypo.input(\"r\", shape=(" << k.M << ", " << k.N << "), dtype=\"float16\")\n";
    const char* chains[] = {"pypo.op.relu(x)",
                            "pypo.op.gelu(x)",
                            "pypo.op.silu(x)",
                            "pypo.op.relu(pypo.op.cast(x, \"float32\"))",
                            "pypo.op.sigmoid(pypo.op.add(x, r))",
                            "pypo.op.cast(pypo.op.silu(pypo.op.mul(x, 0.5)), \"float32\")"};
    s << "pypo.output(\"c\", " << chains[kind] << ")\n";
    return s.str();
}

// What the search did for the program's one GEMM.
struct Search {
    dsl::MatmulTiling chosen;
    int64_t estimate = 0;
    // The same tiling's estimate without the fused epilogue's vector time
    // and operand bytes (as the estimate was before it counted them).
    int64_t estimate_without_epilogue = 0;
    std::vector<dsl::TilingCandidate> considered;
    bool ok = false;
};

Search search(const std::string& source, const arch::Config& c) {
    Search r;
    dsl::LowerOptions o;
    o.gemm_tiling = [&](const arch::Config& cfg, const dsl::GemmShape& g, dsl::TilingFailure& why) {
        r.considered.clear();
        auto t = dsl::explore_matmul_tilings(cfg, g, why, &r.considered);
        if (t) r.chosen = *t, r.estimate = dsl::estimate_gemm_cycles(cfg, g, *t), r.ok = true;
        if (t) {
            dsl::GemmShape bare = g;
            bare.epilogue_vector.clear();
            bare.epilogue_streamed_bytes = bare.epilogue_column_bytes = 0;
            r.estimate_without_epilogue = dsl::estimate_gemm_cycles(cfg, bare, *t);
        }
        return t;
    };
    lower(source, c, o);
    return r;
}

int runs = 0;

// Total cycles of `source` simulated with the case's settings and `extra`.
uint64_t simulate(const Case& k, const std::string& source, const std::string& extra = "") {
    const std::string tag = "tiling_properties_" + std::to_string(runs++);
    const std::string pto = clitest::write_file(tag + ".pto", source);
    const std::string report = (clitest::scratch() / (tag + ".json")).string();
    const clitest::Outcome o =
        clitest::run("-q '" + pto + "'" + k.set_args() + extra + " --report-json '" + report + "'");
    EXPECT_EQ(o.status, 0) << k.text() << "\n" << o.err;
    if (o.status != 0) return 0;
    return testjson::parse(clitest::slurp(report))["total_cycles"].get<uint64_t>();
}

// Of everything the search estimated, nothing is more than 0.5 % cheaper
// than its choice;
// and where the M rows fit one row of MAC arrays, every cube of a block
// computes (the 2 x 2 grid left half of them idle, so a GEMV was bound to
// about half the cubes' peak: 534,440 cycles for 1 x 4096 x 4096 at every
// DDR bandwidth from 64 B/cycle up).
TEST(TilingProperties, ChoiceIsTheCheapestConsideredAndUsesEveryCube) {
    int checked = 0, gemvs = 0;
    for (uint32_t seed = 1; seed <= 400; ++seed) {
        const Case k = random_case(seed, 2048);
        const arch::Config c = k.config();
        Search s;
        try {
            s = search(matmul_source(k), c);
        } catch (const dsl::CompileError&) {
            continue;  // a shape the hardware cannot hold (tested elsewhere)
        }
        if (!s.ok) continue;
        ++checked;
        for (const dsl::TilingCandidate& other : s.considered)
            if (s.estimate * 1000 > other.cycles * 1005) {
                ADD_FAILURE() << k.text() << ": chose " << s.chosen.mt << "x" << s.chosen.nt << "x" << s.chosen.kt
                              << " kb " << s.chosen.kb << " over " << other.t.mt << "x" << other.t.nt << "x"
                              << other.t.kt << " kb " << other.t.kb << " (estimated " << s.estimate << " vs "
                              << other.cycles << ")";
                break;
            }
        // No row of the grid idle in a block where DDR is fast enough for
        // the cubes to matter (from 64 B/cycle): a GEMV's one row of tiles
        // takes a 1 x cubes grid. (Below, a DDR-bound GEMV is as fast on
        // half the cubes; and columns may be left idle by choice: an N that
        // is not a power-of-two multiple of the cubes' tiles can be faster
        // on fewer cubes than in more, narrower blocks.)
        if (c.ddr_bytes_per_cycle < 64) continue;
        const int64_t rows = std::min(k.M, s.chosen.block_rows());
        if (k.M <= c.mac_rows) ++gemvs;
        EXPECT_EQ((rows + s.chosen.mt - 1) / s.chosen.mt, s.chosen.grid_rows)
            << k.text() << ": grid " << s.chosen.grid_rows << "x" << s.chosen.grid_cols << ", tile " << s.chosen.mt
            << "x" << s.chosen.nt;
    }
    EXPECT_GT(checked, 300);
    EXPECT_GT(gemvs, 30);
}

// The chosen tiling's estimate against the simulation, without an L2
// (the estimate does not model the L2's hits: docs/timing-model.md §10).
// What holds (and is checked): 198 of the 200 within 5 %, 181 within 2 %,
// every one within 7.6 % (seed 1005: 106 x 68 x 336, one request in
// flight, 4 clusters, overestimated: edge blocks out of step).
// Before the estimate costed the first A tile's copy after its panel, the
// pace of K requests in flight from the command K places back, and an out
// of step block's DDR sharing from its own duty (the other's bytes meet it
// while it waits), 177 were within 5 %, 145 within 2 % and the worst 15 %
// off (seed 1177: 317 x 80 x 1, estimated 2,285, simulated 2,693), which
// these bounds fail.
TEST(TilingProperties, EstimateIsCloseToTheSimulation) {
    int checked = 0, within_5 = 0, within_2 = 0;
    double worst = 0;
    std::string worst_case;
    for (uint32_t seed = 1; seed <= 200; ++seed) {
        const Case k = random_case(1000 + seed, 512);
        const std::string source = matmul_source(k);
        Search s;
        try {
            s = search(source, k.config());
        } catch (const dsl::CompileError&) {
            continue;
        }
        if (!s.ok) continue;
        const uint64_t simulated = simulate(k, source);
        if (!simulated) continue;
        ++checked;
        const double error = std::abs(double(s.estimate) - double(simulated)) / double(simulated);
        const std::string text =
            k.text() + ": estimate " + std::to_string(s.estimate) + ", simulated " + std::to_string(simulated);
        if (error <= 0.05) ++within_5;
        if (error <= 0.02) ++within_2;
        if (error > worst) worst = error, worst_case = text;
        EXPECT_LE(error, 0.08) << text;
    }
    EXPECT_GT(checked, 150);
    EXPECT_GE(within_5 * 100, checked * 98) << within_5 << " of " << checked << " within 5 %";
    EXPECT_GE(within_2 * 100, checked * 90) << within_2 << " of " << checked << " within 2 %";
    std::cout << within_5 << " of " << checked << " within 5 %, " << within_2 << " within 2 %, worst " << worst * 100
              << " %: " << worst_case << "\n";
}

// The same with a fused epilogue on the matmul (epilogue_source: kinds in
// turn), on the seeds' hardware: the estimate counts each tile's VECTOR
// chain between its write-back and its store, and the operands' DDR bytes
// (dsl/lower/tiling/gemm_cost.cpp). Measured: 147 of 150 within 5 %, 132
// within 2 %, worst 7.8 % (seed 3047: 8 x 72 x 512 at 16 B/cycle, one
// request in flight, DDR bound: the epilogue changes nothing there).
// Without the epilogue's time the same search's estimates were 138 within
// 5 %, 111 within 2 %; before the operands' loads were costed too (the
// streamed tiles, behind the panels, one request in flight) the worst was
// 13.3 % (seed 3046: 99 x 70 x 8, kind 4, estimated 1,299, simulated
// 1,498), which the bound fails.
TEST(TilingProperties, EstimateWithAFusedEpilogueIsCloseToTheSimulation) {
    int checked = 0, within_5 = 0, within_2 = 0, before_5 = 0, before_2 = 0;
    double worst = 0, worst_before = 0;
    std::string worst_case;
    for (uint32_t seed = 1; seed <= 150; ++seed) {
        const Case k = random_case(3000 + seed, 512);
        const std::string source = epilogue_source(k, int(seed % 6));
        Search s;
        try {
            s = search(source, k.config());
        } catch (const dsl::CompileError&) {
            continue;
        }
        if (!s.ok) continue;
        const uint64_t simulated = simulate(k, source);
        if (!simulated) continue;
        ++checked;
        auto off = [&](int64_t estimate) { return std::abs(double(estimate) - double(simulated)) / double(simulated); };
        const double error = off(s.estimate), before = off(s.estimate_without_epilogue);
        const std::string text = k.text() + " kind " + std::to_string(seed % 6) + ": estimate " +
                                 std::to_string(s.estimate) + " (without the epilogue " +
                                 std::to_string(s.estimate_without_epilogue) + "), simulated " +
                                 std::to_string(simulated);
        within_5 += error <= 0.05, within_2 += error <= 0.02;
        before_5 += before <= 0.05, before_2 += before <= 0.02;
        worst_before = std::max(worst_before, before);
        if (error > worst) worst = error, worst_case = text;
        EXPECT_LE(error, 0.08) << text;
    }
    EXPECT_GT(checked, 100);
    EXPECT_GE(within_5 * 100, checked * 95) << within_5 << " of " << checked << " within 5 %";
    EXPECT_GE(within_5, before_5);
    std::cout << within_5 << " of " << checked << " within 5 %, " << within_2 << " within 2 %, worst " << worst * 100
              << " %: " << worst_case << "\nwithout the epilogue's time: " << before_5 << " within 5 %, " << before_2
              << " within 2 %, worst " << worst_before * 100 << " %\n";
}

// prefetch=True (a third panel buffer) is the compiler's to take or not:
// never slower than the same matmul without it.
TEST(TilingProperties, PrefetchIsNeverSlower) {
    int checked = 0, taken_faster = 0;
    for (uint32_t seed = 1; seed <= 150; ++seed) {
        const Case k = random_case(2000 + seed, 1024);
        const uint64_t without = simulate(k, matmul_source(k));
        const uint64_t with = simulate(k, matmul_source(k, ", prefetch=True"));
        if (!without || !with) continue;
        ++checked;
        if (with < without) ++taken_faster;
        EXPECT_LE(with, without) << k.text() << ": prefetch=True " << with << " cycles, without " << without;
    }
    EXPECT_GT(checked, 100);
    std::cout << taken_faster << " of " << checked << " faster with prefetch=True\n";
}

// More L1 or L0 leaves every tiling of the smaller one possible, so the
// search's choice is never estimated more than its 0.5 % band slower:
// never slower beyond 1 %, except where the estimate erred
// (docs/timing-model.md §10 "When more memory or a drain changes the
// cycles"): the larger memory's tiling, estimated within the band of the
// smaller's, simulates slower, by at most 3 % (3 of the 240 pairs; seed
// 3068: 455 x 112 x 256, cube.l0_kib 64 -> 128, estimated 121,234 ->
// 121,758, simulated 121,037 -> 123,985).
TEST(TilingProperties, LargerL1OrL0IsNeverSlower) {
    int checked = 0, misestimated = 0;
    for (uint32_t seed = 1; seed <= 120; ++seed) {
        Case k = random_case(3000 + seed, 1024);
        const std::string source = matmul_source(k);
        const uint64_t base = simulate(k, source);
        if (!base) continue;
        ++checked;
        for (const char* key : {"cluster.l1_kib", "cube.l0_kib"}) {
            Case larger = k;
            for (auto& [name, value] : larger.settings)
                if (name == key) value *= 2;
            const uint64_t cycles = simulate(larger, source);
            const std::string text = k.text() + ": " + key + " doubled, " + std::to_string(cycles) +
                                     " cycles, before " + std::to_string(base);
            if (double(cycles) <= double(base) * 1.01) continue;
            const int64_t estimate_small = search(source, k.config()).estimate;
            const int64_t estimate_large = search(source, larger.config()).estimate;
            EXPECT_LE(estimate_large * 1000, estimate_small * 1005) << text;
            EXPECT_LE(double(cycles), double(base) * 1.03) << text;
            ++misestimated;
            std::cout << "misestimated: " << text << " (estimated " << estimate_small << " -> " << estimate_large
                      << ")\n";
        }
    }
    EXPECT_GT(checked, 100);
    EXPECT_LE(misestimated, 6);
}

// print(...) drains everything before it: two matmuls with a print
// between them never finish sooner than without it beyond 1 % -- except
// for the dispatch anomaly docs/timing-model.md §10 "When more memory or a
// drain changes the cycles" explains (a second operation's first blocks
// dispatched beside the first's slow both, and its later blocks wait for a
// second wave: seed 4014, 336 x 320 x 1, 9,368 cycles without the print,
// 9,146 with it), and the order a producer's row bands end in, now that a
// block waits only for the blocks that wrote its rows (seed 4092, 346 x
// 448 x 8: 66,531 cycles with the print, 70,392 without, the drain making
// the second matmul's short last band end first), bounded here by 6 %.
TEST(TilingProperties, PrintDrainIsNeverFaster) {
    int checked = 0, anomalies = 0;
    for (uint32_t seed = 1; seed <= 100; ++seed) {
        const Case k = random_case(4000 + seed, 512);
        auto source = [&](bool drain) {
            std::ostringstream s;
            s << "import pypto as pypo\n"
              << "a = pypo.input(\"a\", shape=(" << k.M << ", " << k.K << "), dtype=\"float16\")\n"
              << "b = pypo.input(\"b\", shape=(" << k.K << ", " << k.N << "), dtype=\"float16\")\n"
              << "d = pypo.input(\"d\", shape=(" << k.N << ", " << k.K << "), dtype=\"float16\")\n"
              << "c = pypo.op.matmul(a, b)\n"
              << (drain ? "print(c)\n" : "") << "e = pypo.op.matmul(a, b)\n"
              << "pypo.output(\"c\", c)\n"
              << "pypo.output(\"f\", pypo.op.matmul(e, d))\n";
            return s.str();
        };
        const uint64_t without = simulate(k, source(false)), with = simulate(k, source(true));
        if (!without || !with) continue;
        ++checked;
        const std::string text =
            k.text() + ": with the print " + std::to_string(with) + " cycles, without " + std::to_string(without);
        if (double(with) >= double(without) * 0.99) continue;
        ++anomalies;
        std::cout << "dispatch anomaly: " << text << "\n";
        EXPECT_GE(double(with), double(without) * 0.94) << text;
    }
    EXPECT_GT(checked, 80);
    EXPECT_LE(anomalies, 3);
}

}  // namespace
