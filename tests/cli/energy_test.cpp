// A run's energy (docs/timing-model.md §9, "Energy"; sim/trace/energy.h):
// the hand sum of the run's action counts times the config's energies,
// exactly, and what must hold by physics.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_report.h"
#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

// The femtojoules of the part named `key`, 0 if the run has none.
uint64_t part(const nlohmann::json& r, const std::string& key) {
    for (const nlohmann::json& p : r["energy"]["parts"])
        if (p["key"] == key) return p["femtojoules"].get<uint64_t>();
    return 0;
}

}  // namespace

// A 256^3 float16 GEMM on the documents' machine (the built-in default,
// taken at 45 nm: configs/README.md): 256^3 MACs at 2,000 fJ; DDR reads
// A and B and writes C (4 blocks each reading all of A's rows it needs and
// its quarter of B, as the report's memory table says), at 243,750 fJ a
// byte; L1 and L0 at 6,566 and 2,500. Static power: the 16 cubes' 256
// MACs at 102,955 nW, the 4 vector units' 512 bytes of width at 50,165,
// 512 KiB of L0 at 237,129 and 1,024 KiB of L1 at 69,841 a KiB, for the
// run's 71,421 cycles at 1 GHz (1 nW for 1 ns is 1/1000 fJ, rounded).
TEST(Energy, GemmIsTheHandSumOfItsActions) {
    const nlohmann::json r = run_report("--op matmul --shape 256,256,256", "gemm");
    ASSERT_EQ(r["macs"], 16777216);
    ASSERT_EQ(r["memory"]["ddr"]["read"], 524288);
    ASSERT_EQ(r["memory"]["ddr"]["written"], 131072);
    ASSERT_EQ(r["memory"]["l1"]["read"], 1179648);
    ASSERT_EQ(r["memory"]["l1"]["written"], 655360);
    ASSERT_EQ(r["memory"]["l0"]["read"], 17039360);
    ASSERT_EQ(r["memory"]["l0"]["written"], 1048576);
    ASSERT_EQ(r["total_cycles"], 71421);
    EXPECT_EQ(part(r, "cube_macs"), 16777216ull * 2000);
    EXPECT_EQ(part(r, "ddr"), (524288ull + 131072) * 243750);
    EXPECT_EQ(part(r, "l1"), (1179648ull + 655360) * 6566);
    EXPECT_EQ(part(r, "l0"), (17039360ull + 1048576) * 2500);
    const uint64_t dynamic = 16777216ull * 2000 + 655360ull * 243750 + 1835008ull * 6566 + 18087936ull * 2500;
    EXPECT_EQ(part(r, "static_cube_macs"), 1882406158u);  // 256 x 102,955 x 71,421 / 1000 = ...158.08
    EXPECT_EQ(part(r, "static_vector"), 1834411246u);     // 512 x 50,165 x 71,421 / 1000
    EXPECT_EQ(part(r, "static_l0"), 8671227038u);         // 512 x 237,129 x 71,421 / 1000
    EXPECT_EQ(part(r, "static_l1"), 5107828798u);         // 1,024 x 69,841 x 71,421 / 1000
    const uint64_t leakage = 1882406158ull + 1834411246 + 8671227038 + 5107828798;
    EXPECT_EQ(r["energy"]["dynamic_femtojoules"], dynamic);
    EXPECT_EQ(r["energy"]["static_femtojoules"], leakage);
    EXPECT_EQ(r["energy"]["femtojoules"], dynamic + leakage);
    EXPECT_EQ(r["energy"]["parts"].size(), 8u);  // no vector work, no UB, no L2, no DDR background
    // Average power: the energy over the run's 71,421 cycles at 1 GHz.
    const double joules = double(dynamic + leakage) * 1e-15;
    EXPECT_DOUBLE_EQ(r["energy"]["average_watts"].get<double>(), joules / 71421e-9);
    EXPECT_DOUBLE_EQ(r["energy"]["energy_delay_joule_seconds"].get<double>(), joules * 71421e-9);
}

// A relu over 64 x 256 float16: the vector unit works through 32,768
// bytes of elements at 200 fJ each; DDR and L1 move them in and out.
TEST(Energy, VectorOpIsTheHandSumOfItsActions) {
    const std::string pto = write_file("energy_relu.pto",
                                       "import pypto as pypo\n"
                                       "x = pypo.input(\"x\", shape=(64, 256))\n"
                                       "pypo.output(\"y\", pypo.op.relu(x))\n");
    const nlohmann::json r = run_report("'" + pto + "'", "relu");
    ASSERT_EQ(r["memory"]["ddr"]["read"], 32768);
    ASSERT_EQ(r["memory"]["ddr"]["written"], 32768);
    ASSERT_EQ(r["memory"]["l1"]["read"], 65536);
    ASSERT_EQ(r["memory"]["l1"]["written"], 65536);
    EXPECT_EQ(part(r, "vector"), 32768ull * 200);
    EXPECT_EQ(part(r, "ddr"), 65536ull * 243750);
    EXPECT_EQ(part(r, "l1"), 131072ull * 6566);
    EXPECT_EQ(r["energy"]["dynamic_femtojoules"], 32768ull * 200 + 65536ull * 243750 + 131072ull * 6566);
}

// Static power is paid by every unit for the whole run, each kind of unit
// at its own key: with the cubes' MACs at 1 uW, L0 at 10 nW a KiB and
// the rest at none, 16 cubes of 16 MACs and 16 x 32 KiB of L0 over
// 71,421 cycles at 1 GHz (1 nW for 1 ns is 1/1000 fJ).
TEST(Energy, StaticPowerIsPaidForTheWholeRun) {
    const std::string keys =
        " --set energy.mac_static_nw=1000 --set energy.vector_static_nw_per_byte=0 --set "
        "energy.l0_static_nw_per_kib=10 --set energy.l1_static_nw_per_kib=0";
    const nlohmann::json r = run_report("--op matmul --shape 256,256,256" + keys, "static");
    ASSERT_EQ(r["total_cycles"], 71421);
    EXPECT_EQ(part(r, "static_cube_macs"), 256ull * 1000 * 71421 / 1000);
    EXPECT_EQ(part(r, "static_l0"), 365676u);  // 512 x 10 x 71,421 / 1000 = 365,675.52, rounded
    EXPECT_EQ(part(r, "static_vector"), 0u);
    EXPECT_EQ(r["energy"]["static_femtojoules"], 256ull * 71421 + 365676);
    EXPECT_EQ(r["energy"]["femtojoules"].get<uint64_t>(),
              r["energy"]["dynamic_femtojoules"].get<uint64_t>() + 256ull * 71421 + 365676);
    // At 2 GHz the same cycles last half as long.
    const nlohmann::json fast =
        run_report("--op matmul --shape 256,256,256" + keys + " --set clock_ghz=2", "static_fast");
    EXPECT_EQ(part(fast, "static_cube_macs"), 256ull * 71421 / 2);
    // DDR's background power, in microwatts.
    const nlohmann::json ddr = run_report("--op matmul --shape 256,256,256 --set energy.ddr_static_uw=3", "static_ddr");
    EXPECT_EQ(part(ddr, "static_ddr"), 3ull * 71421);
}

// int8 MACs cost less energy than float16 ones (an 8-bit multiply and a
// 32-bit add against a 16-bit float multiply and a 32-bit float add).
TEST(Energy, Int8LowersTheMacEnergy) {
    const nlohmann::json f16 = run_report("--op matmul --shape 256,256,256", "mac_f16");
    const nlohmann::json i8 = run_report("--op matmul --shape 256,256,256 --dtype int8", "mac_i8");
    ASSERT_EQ(f16["macs"], i8["macs"]);
    EXPECT_EQ(part(i8, "cube_macs"), 0u);
    EXPECT_EQ(part(i8, "cube_macs_int8"), 16777216ull * 300);
    EXPECT_LT(part(i8, "cube_macs_int8"), part(f16, "cube_macs"));
}

// Fusing an element-wise chain keeps its intermediates out of DDR, and
// so their energy.
TEST(Energy, FusionLowersTheDdrEnergy) {
    const std::string pto = write_file("energy_chain.pto",
                                       "import pypto as pypo\n"
                                       "x = pypo.input(\"x\", shape=(256, 256))\n"
                                       "pypo.output(\"y\", pypo.op.relu(pypo.op.add(pypo.op.mul(x, x), x)))\n");
    const nlohmann::json fused = run_report("'" + pto + "'", "chain_fused");
    const nlohmann::json unfused = run_report("--no-fusion '" + pto + "'", "chain_unfused");
    EXPECT_LT(part(fused, "ddr"), part(unfused, "ddr"));
    EXPECT_LT(fused["energy"]["femtojoules"].get<uint64_t>(), unfused["energy"]["femtojoules"].get<uint64_t>());
}

// A 7B decode layer on the Ascend 910B2 preset is bound by DDR (HBM) and
// most of its energy is DDR's: README's example, 17.650 mJ, 79.0 % HBM.
TEST(Energy, DdrBoundDecodeIsMostlyDdrEnergy) {
    const nlohmann::json r = run_report(
        "--config configs/ascend_910b2.json --shape x=1,4096 --shape k_cache=1,1,32,128,2048 "
        "--shape v_cache=1,1,32,2048,128 --param pos=2047 models/llama_decode.pto",
        "decode");
    EXPECT_GT(part(r, "ddr"), r["energy"]["femtojoules"].get<uint64_t>() / 2);
    EXPECT_EQ(r["energy"]["femtojoules"], 17650472192716ull);
    EXPECT_EQ(part(r, "ddr"),
              (r["memory"]["ddr"]["read"].get<uint64_t>() + r["memory"]["ddr"]["written"].get<uint64_t>()) * 31760);
}

// Each command belongs to one operation, so the operations' energies
// (and the coarse tasks', their sums) add up to the run's dynamic energy;
// with an L2 but for the DDR's behind it, which no operation is charged.
TEST(Energy, OperationsShareTheRunsDynamicEnergy) {
    auto sum = [](const nlohmann::json& list) {
        uint64_t total = 0;
        for (const nlohmann::json& o : list) total += o["energy_femtojoules"].get<uint64_t>();
        return total;
    };
    const nlohmann::json block = run_report("models/resnet_block.pto", "ops_block");
    EXPECT_GT(block["ops"].size(), 3u);
    EXPECT_EQ(sum(block["ops"]), block["energy"]["dynamic_femtojoules"].get<uint64_t>());
    EXPECT_EQ(sum(block["tasks"]), block["energy"]["dynamic_femtojoules"].get<uint64_t>());
    const nlohmann::json decode = run_report(
        "--config configs/ascend_910b2.json --shape x=1,4096 --shape k_cache=1,1,32,128,2048 "
        "--shape v_cache=1,1,32,2048,128 --param pos=2047 models/llama_decode.pto",
        "ops_decode");
    EXPECT_EQ(sum(decode["ops"]), decode["energy"]["dynamic_femtojoules"].get<uint64_t>() - part(decode, "ddr"));
}

// Power over time (sim/trace/power.h): the profile's bins hold every
// command's energy, so they sum to the run's dynamic energy (with an L2
// but for its flush, which takes no time); one bin a microsecond; the
// report's peak is the highest bin's power.
TEST(Energy, PowerBinsHoldTheRunsDynamicEnergy) {
    auto profile_of = [](const std::string& args, const std::string& name) {
        const std::string path = (scratch() / (name + ".profile.json")).string();
        const Outcome o = run("-q --profile '" + path + "' " + args);
        EXPECT_EQ(o.status, 0) << o.err;
        return testjson::parse(slurp(path));
    };
    auto sum = [](const nlohmann::json& bins) {
        uint64_t total = 0;
        for (const nlohmann::json& b : bins) total += b.get<uint64_t>();
        return total;
    };
    const std::string gemm =
        "--op matmul --shape 256,256,256 --set energy.mac_static_nw=62500 --set energy.vector_static_nw_per_byte=0 "
        "--set energy.l0_static_nw_per_kib=0 --set energy.l1_static_nw_per_kib=0";
    const nlohmann::json r = run_report(gemm, "power_gemm");
    const nlohmann::json p = profile_of(gemm, "power_gemm");
    EXPECT_EQ(p["power"]["bin_cycles"], 1000);         // 1 us at 1 GHz
    ASSERT_EQ(p["power"]["femtojoules"].size(), 72u);  // 71,421 cycles
    EXPECT_EQ(sum(p["power"]["femtojoules"]), r["energy"]["dynamic_femtojoules"].get<uint64_t>());
    EXPECT_DOUBLE_EQ(p["power"]["static_watts"].get<double>(), 0.016);  // 256 MACs at 62.5 uW
    double peak = 0;
    for (size_t b = 0; b < 71; ++b) {
        const double watts = p["power"]["femtojoules"][b].get<uint64_t>() * 1e-15 / 1e-6 + 0.016;
        EXPECT_DOUBLE_EQ(p["power"]["watts"][b].get<double>(), watts) << b;
        peak = std::max(peak, watts);
    }
    // The last bin has 421 cycles of the run.
    const double last = p["power"]["femtojoules"][71].get<uint64_t>() * 1e-15 / 421e-9 + 0.016;
    EXPECT_DOUBLE_EQ(p["power"]["watts"][71].get<double>(), last);
    EXPECT_DOUBLE_EQ(r["energy"]["peak_watts"].get<double>(), std::max(peak, last));
    EXPECT_EQ(r["energy"]["power_bin_cycles"], 1000);
    // The profile's energy is the report's.
    EXPECT_EQ(p["energy"]["femtojoules"], r["energy"]["femtojoules"]);

    const std::string decode =
        "--config configs/ascend_910b2.json --shape x=1,4096 --shape k_cache=1,1,32,128,2048 "
        "--shape v_cache=1,1,32,2048,128 --param pos=2047 models/llama_decode.pto";
    const nlohmann::json rd = run_report(decode, "power_decode");
    const nlohmann::json pd = profile_of(decode, "power_decode");
    EXPECT_EQ(pd["power"]["bin_cycles"], 1800);  // 1 us at 1.8 GHz
    EXPECT_EQ(sum(pd["power"]["femtojoules"]),
              rd["energy"]["dynamic_femtojoules"].get<uint64_t>() - rd["l2"]["flush_bytes"].get<uint64_t>() * 31760);
}

// docs/energy.md's breakdown table: each row's run (its model, on the
// built-in machine or the 910B2 preset) gives the energy the row says.
TEST(Energy, DocsTableIsThisBuilds) {
    const std::string text = slurp(std::string(DAVINCI_SOURCE_DIR) + "/docs/energy.md");
    const std::string decode =
        " --shape x=1,4096 --shape k_cache=1,1,32,128,2048 --shape v_cache=1,1,32,2048,128 --param pos=2047";
    size_t rows = 0;
    for (size_t at = text.find("\n| `models/"); at != std::string::npos; at = text.find("\n| `models/", at + 1)) {
        const std::string line = text.substr(at + 1, text.find('\n', at + 1) - at - 1);
        const std::string model = line.substr(3, line.find('`', 3) - 3);
        const std::string run_cell = line.substr(0, line.find('|', 2));
        std::string args = model;
        if (model == "models/resnet50.pto") args += " --shape input=1,3,224,224";
        if (model == "models/llama_decode.pto") args += decode;
        if (run_cell.find("910B2") != std::string::npos) args = "--config configs/ascend_910b2.json " + args;
        const size_t energy_at = line.find('|', 2) + 2;
        const std::string energy = line.substr(energy_at, line.find(" |", energy_at) - energy_at);
        const nlohmann::json r = run_report(args, "docs_row" + std::to_string(rows));
        char text_mj[32];
        std::snprintf(text_mj, sizeof text_mj, "%#.4g mJ", r["energy"]["joules"].get<double>() * 1e3);
        EXPECT_EQ(energy, text_mj) << line;
        ++rows;
    }
    EXPECT_EQ(rows, 8u);
}

// Energies the config accepts can take a run past 2^64 femtojoules: the
// run says so (exit 2) and writes no output.
TEST(Energy, EnergiesTooLargeForTheRunAreAConfigError) {
    const std::string json = (scratch() / "overflow.json").string();
    const Outcome o =
        run("-q --set energy.l0_fj_per_byte=2147483647 --report-json '" + json + "' models/gemm_2048.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err,
              "davinci-sim: error: built-in default with --set energy.l0_fj_per_byte=2147483647: energy: this run's "
              "energy exceeds 2^64 femtojoules (18 kJ): the energy.* keys are too large for it\n");
    EXPECT_FALSE(std::filesystem::exists(json));
}

// The power series stays small however slow the clock: at 1 MHz a
// microsecond is one cycle, and the 34,177,478 cycles of the 2048^3 GEMM
// would be as many bins; past 2^18 they merge in pairs, to 256 cycles.
// The average is never above the peak: the L2's flush, which takes none of
// the run's cycles, is energy but not power (transpose on the 910B2, whose
// flush is most of its energy).
TEST(Energy, PowerBinsStaySmallAndThePeakIsAtLeastTheAverage) {
    const nlohmann::json slow = run_report("--set clock_ghz=0.001 models/gemm_2048.pto", "slow_clock");
    EXPECT_EQ(slow["energy"]["power_bin_cycles"], 256);
    EXPECT_GE(slow["energy"]["peak_watts"].get<double>(), slow["energy"]["average_watts"].get<double>());
    const nlohmann::json t = run_report("--config configs/ascend_910b2.json models/transpose.pto", "flush");
    ASSERT_GT(t["l2"]["flush_bytes"].get<uint64_t>(), 0u);
    const double run_fj =
        double(t["energy"]["femtojoules"].get<uint64_t>() - t["l2"]["flush_bytes"].get<uint64_t>() * 31760);
    EXPECT_DOUBLE_EQ(t["energy"]["average_watts"].get<double>(), run_fj * 1e-15 / t["seconds"].get<double>());
    EXPECT_GE(t["energy"]["peak_watts"].get<double>(), t["energy"]["average_watts"].get<double>());
}

// --tokens N: the run makes N tokens, and the report gives the energy and
// the time of one (the 7B decode layer of the README, batch 1: the whole
// step; a batch of 4 would be a quarter each).
TEST(Energy, PerTokenIsTheRunOverItsTokens) {
    const std::string decode =
        "--config configs/ascend_910b2.json --shape x=1,4096 --shape k_cache=1,1,32,128,2048 "
        "--shape v_cache=1,1,32,2048,128 --param pos=2047 models/llama_decode.pto";
    const nlohmann::json one = run_report(decode + " --tokens 1", "tokens_1");
    EXPECT_EQ(one["energy"]["tokens"], 1);
    EXPECT_DOUBLE_EQ(one["energy"]["joules_per_token"].get<double>(), 17650472192716e-15);
    EXPECT_DOUBLE_EQ(one["energy"]["seconds_per_token"].get<double>(), one["total_cycles"].get<uint64_t>() / 1.8e9);
    const nlohmann::json four = run_report("--op matmul --shape 256,256,256 --tokens 4", "tokens_4");
    EXPECT_DOUBLE_EQ(four["energy"]["joules_per_token"].get<double>(), four["energy"]["joules"].get<double>() / 4);
    EXPECT_DOUBLE_EQ(four["energy"]["seconds_per_token"].get<double>(), 71421e-9 / 4);
    const Outcome text = run("--op matmul --shape 256,256,256 --tokens 4");
    EXPECT_NE(text.out.find("\n  per token        67.016 uJ, 17.855 us  (4 tokens)\n"), std::string::npos) << text.out;
    // Without --tokens there is no per-token figure.
    EXPECT_FALSE(run_report("--op matmul --shape 256,256,256", "tokens_none")["energy"].contains("tokens"));
    const Outcome bad = run("--op matmul --shape 256,256,256 --tokens 0");
    EXPECT_EQ(bad.status, 2);
    EXPECT_EQ(bad.err.substr(0, bad.err.find('\n')),
              "davinci-sim: error: --tokens: expected a positive number of tokens, got '0'");
}
