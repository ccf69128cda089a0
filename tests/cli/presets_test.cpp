// The hardware presets of configs/ (documented in configs/README.md): each
// loads, validates and simulates a single operation, and a 32 x 32 x 32
// float16 GEMM's cube cycles follow timing-model §7 on each of them, derived
// here from the preset's parameters and the MATMULs the compiler emits.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

nlohmann::json single_op(const std::string& preset, const std::string& op) {
    const std::string json = (scratch() / ("preset_" + preset + ".json")).string();
    Outcome o = run("-q --config configs/" + preset + ".json " + op + " --report-json '" + json + "'");
    EXPECT_EQ(o.status, 0) << preset << ": " << o.err;
    return testjson::parse(slurp(json));
}

uint64_t cube_cycles(const std::string& preset, const std::string& op) {
    return single_op(preset, op)["ops"][0]["cube_cycles"].get<uint64_t>();
}

// Every file in configs/ is one of the documented presets, and loads.
TEST(Presets, EveryPresetIsDocumentedAndLoads) {
    const std::set<std::string> presets = {"cluster.json",           "ascend_910b2.json",      "ascend_910b3.json",
                                           "ascend_910b_class.json", "scalesim_32x32_ws.json", "edge_npu.json"};
    std::set<std::string> found;
    for (const auto& e : std::filesystem::directory_iterator(std::string(DAVINCI_SOURCE_DIR) + "/configs"))
        if (e.is_regular_file() && e.path().extension() == ".json") found.insert(e.path().filename().string());
    EXPECT_EQ(found, presets);
    const std::string readme = slurp(std::string(DAVINCI_SOURCE_DIR) + "/configs/README.md");
    for (const std::string& p : presets) {
        EXPECT_NE(readme.find("`" + p + "`"), std::string::npos) << p << " is not in configs/README.md";
        Outcome o = run("--config configs/" + p + " --help-config");
        EXPECT_EQ(o.status, 0) << p << ": " << o.err;
    }
}

// The documents' machine: 4x4 fractal cube, K = 1, start-up 7, 512 B/cycle
// from L0. The GEMM is cut over 16 cubes into 8 x 16 x 8 MATMULs, two
// k-steps each (with 8 DMA requests in flight the second panel pair's
// loads overlap the first's latency, so 16-deep panels are cheaper than
// one 32-deep one): 2 * 2 * 16 = 64 MAC cycles; operands 16 * (8*2 +
// 8*2) * 2 = 1024 bytes, 2 cycles; 7 + 64 = 71 each, 2 * 16 * 71 = 2272 in
// all. (With one in flight: one 8 x 32 x 8 MATMUL per cube, 7 + 128 = 135,
// 2160 in all.)
TEST(Presets, DocumentsCluster) {
    EXPECT_EQ(cube_cycles("cluster", "--op matmul --shape 32,32,32"), 2272u);
    EXPECT_EQ(cube_cycles("cluster", "--op matmul --shape 32,32,32 --set dma.max_outstanding=1"), 2160u);
}

// Ascend 910B2 (and 910B3: the same AI core): 16x16 fractal cube, K = 16
// (a 32-byte fp16 fractal), start-up 6 (PTO-ISA's cube cost model). On one
// core the tiling takes the whole 32 x 32 x 32 in one MATMUL: float16
// 2 * 2 * 2 = 8 MAC cycles, 6 + 8 = 14; float32 goes 8 deep a step (32
// bytes of K, timing model §7.1) in 2 passes: 2 * 4 * 2 * 2 = 32, 6 + 32 =
// 38, a quarter of float16's rate. (On all the cores the tiling spreads
// so small a GEMM over four of them: each core's read path, §6.2, then
// carries a quarter of the operands.)
TEST(Presets, Ascend910b) {
    for (const std::string p : {"ascend_910b2", "ascend_910b3"}) {
        EXPECT_EQ(cube_cycles(p, "--op matmul --shape 32,32,32 --set chip.clusters=1"), 14u) << p;
        EXPECT_EQ(cube_cycles(p, "--op matmul --shape 32,32,32 --dtype float32 --set chip.clusters=1"), 38u) << p;
    }
}

// The preset's old name stays, as the 910B2 preset: the same file.
TEST(Presets, Ascend910bClassIsThe910b2) {
    const std::string dir = std::string(DAVINCI_SOURCE_DIR) + "/configs/";
    EXPECT_EQ(slurp(dir + "ascend_910b_class.json"), slurp(dir + "ascend_910b2.json"));
}

// The acceptance case of the calibration (docs/validation.md): on one core
// a 31 x 33 x 17 GEMM is one MATMUL of PTO-ISA's 6 + 2*3*2 = 18 cycles
// (float32: 6 + 2*5*2*2 = 46).
TEST(Presets, Ascend910bOneCoreMatmulIsOneInstruction) {
    const std::string op = "--set chip.clusters=1 --op matmul --shape 31,33,17";
    EXPECT_EQ(cube_cycles("ascend_910b2", op), 18u);
    EXPECT_EQ(cube_cycles("ascend_910b2", op + " --dtype float32"), 46u);
    Outcome o = run("--config configs/ascend_910b2.json " + op + " --dump-program");
    size_t matmuls = 0;
    for (size_t at = o.out.find("MATMUL"); at != std::string::npos; at = o.out.find("MATMUL", at + 1)) ++matmuls;
    EXPECT_EQ(matmuls, 1u);
}

// SCALE-Sim-style 32x32 weight-stationary array: one 32 x 32 x 32 MATMUL is
// one fold, (Sr, Sc, T) = (K, N, M): 2*32 + 32 + 32 - 2 = 126 cycles, minus
// the final overlapping cycle: 125, SCALE-Sim v2's stall-free figure.
TEST(Presets, ScaleSimWeightStationary) {
    EXPECT_EQ(cube_cycles("scalesim_32x32_ws", "--op matmul --shape 32,32,32"), 125u);
}

// Edge device: two 8x8 fractal cubes, K = 8, start-up 8, 256 B/cycle. Two
// 32 x 32 x 16 MATMULs: 4 * 4 * 2 = 32 MAC cycles; operands
// 32 * (32*2 + 16*4) * 2 = 8192 bytes = 32 cycles: 8 + 32 = 40 each.
TEST(Presets, EdgeNpu) { EXPECT_EQ(cube_cycles("edge_npu", "--op matmul --shape 32,32,32"), 80u); }

// A convolution runs on every preset and keeps its cubes busy for at least
// its MACs at the preset's peak rate.
TEST(Presets, ConvolutionOnEveryPreset) {
    for (const std::string p : {"cluster", "ascend_910b2", "ascend_910b3", "scalesim_32x32_ws", "edge_npu"}) {
        const nlohmann::json r = single_op(p, "--op conv2d --shape 28,28,32,3,3,32,1");
        EXPECT_EQ(r["macs"].get<uint64_t>(), 26u * 26 * 32 * 3 * 3 * 32) << p;  // unpadded: 26 x 26 outputs
        EXPECT_GE(r["total_cycles"].get<uint64_t>(), r["compute_bound_cycles"].get<uint64_t>()) << p;
        EXPECT_GT(r["ops"][0]["cube_cycles"].get<uint64_t>(), 0u) << p;
    }
}

// configs/README.md's table "Single operations on each preset" is what this
// build measures: each row's four figures, rerun.
TEST(Presets, ReadmeTableIsThisBuilds) {
    const std::string text = slurp(std::string(DAVINCI_SOURCE_DIR) + "/configs/README.md");
    auto number = [](std::string cell) {
        cell.erase(std::remove_if(cell.begin(), cell.end(), [](char c) { return c == ',' || c == ' '; }), cell.end());
        return uint64_t(std::stoull(cell));
    };
    size_t rows = 0;
    for (size_t at = text.find("\n| `"); at != std::string::npos; at = text.find("\n| `", at + 1)) {
        const std::string line = text.substr(at + 1, text.find('\n', at + 1) - at - 1);
        std::vector<std::string> cells;
        for (size_t i = 1, j; (j = line.find('|', i)) != std::string::npos; i = j + 1)
            cells.push_back(line.substr(i, j - i));
        if (cells.size() != 5 || cells[0].find(".json`") == std::string::npos) continue;
        const std::string preset =
            cells[0].substr(cells[0].find('`') + 1, cells[0].find(".json") - cells[0].find('`') - 1);
        const nlohmann::json gemm = single_op(preset, "--op matmul --shape 1024,1024,1024");
        const nlohmann::json conv = single_op(preset, "--op conv2d --shape 56,56,64,3,3,64,1");
        EXPECT_EQ(gemm["total_cycles"].get<uint64_t>(), number(cells[1])) << preset;
        EXPECT_EQ(gemm["ops"][0]["cube_cycles"].get<uint64_t>(), number(cells[2])) << preset;
        EXPECT_EQ(conv["total_cycles"].get<uint64_t>(), number(cells[3])) << preset;
        EXPECT_EQ(conv["ops"][0]["cube_cycles"].get<uint64_t>(), number(cells[4])) << preset;
        ++rows;
    }
    EXPECT_EQ(rows, 5u);
}

}  // namespace
