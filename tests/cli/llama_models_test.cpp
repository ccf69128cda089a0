// The LLM models of issue 18 (models/llama_decode.pto, llama_prefill.pto,
// qwen3_32b_decode.pto): what their figures must be by physics, and the
// exact figures that pin them. A decode step reads every weight once and
// computes little, so its cycles follow DDR bytes / bandwidth; a long
// prefill is cube-bound; the KV cache takes one token's K and V rows.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

struct ModelRun {
    nlohmann::json report;
    std::vector<std::vector<std::string>> ops;  // rows of --ops-csv
};

ModelRun run_model(const std::string& name, const std::string& args) {
    const std::string json = (scratch() / (name + ".json")).string(), csv = (scratch() / (name + ".csv")).string();
    const Outcome o =
        run("-q " + args + " --report-json '" + json + "' --ops-csv '" + csv + "' models/" + name + ".pto");
    EXPECT_EQ(o.status, 0) << o.err;
    ModelRun r;
    r.report = testjson::parse(slurp(json));
    std::istringstream lines(slurp(csv));
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> cells;
        std::istringstream row(line);
        for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
        r.ops.push_back(cells);
    }
    return r;
}

// Columns of --ops-csv: op (0), kind (1), ..., ddr_bytes_read (15), ddr_bytes_written (16).
constexpr size_t kKind = 1, kDdrRead = 15, kDdrWritten = 16;

const std::string kDecode7b =
    "--shape x=1,4096 --shape k_cache=1,1,32,128,2048 --shape v_cache=1,1,32,2048,128 --param pos=2047";

double ratio(const nlohmann::json& r, const char* bound) {
    return double(r["total_cycles"].get<uint64_t>()) / double(r[bound].get<uint64_t>());
}

TEST(LlamaDecode, OneLayerIsDdrBound) {
    const ModelRun r = run_model("llama_decode", kDecode7b);
    // Weights: wq, wk, wv, wo (4096 x 4096), w_gate, w_up (4096 x 11008),
    // w_down (11008 x 4096), the two norms' (4096); the cache's 2048
    // positions of K and V (32 x 128 each).
    const uint64_t weights = 2ull * (4 * 4096 * 4096 + 3 * 4096 * 11008 + 2 * 4096);
    const uint64_t cache = 2ull * 2 * 32 * 128 * 2048;
    // Beyond them only activations, scores and rope's tables: about 1 MB.
    EXPECT_GE(r.report["ddr_bytes_read"].get<uint64_t>(), weights + cache);
    EXPECT_LT(r.report["ddr_bytes_read"].get<uint64_t>(), weights + cache + (2 << 20));
    EXPECT_LT(ratio(r.report, "ddr_bound_cycles"), 1.01);
    EXPECT_GT(r.report["ddr_bound_cycles"].get<uint64_t>(), 10 * r.report["compute_bound_cycles"].get<uint64_t>());
    EXPECT_EQ(r.report["total_cycles"], 13785863);
    EXPECT_EQ(r.report["ddr_bytes_read"], 439355392);
}

TEST(LlamaDecode, OneLayerIsDdrBoundOnTheAscendPreset) {
    const ModelRun r = run_model("llama_decode", "--config configs/ascend_910b_class.json " + kDecode7b);
    // 6.1 % above the bound of 1.6 TB/s at 1.8 GHz (889 B/cycle): each
    // core's load queue has one copy in flight (the preset's measured MTE2,
    // which loads a GEMM's A and B panels both), so a little of every
    // copy's latency shows, and each panel then crosses the cube's read
    // path from L1 (its MTE1, 125 B/cycle) before its MATMULs.
    EXPECT_LT(ratio(r.report, "ddr_bound_cycles"), 1.07);
    EXPECT_EQ(r.report["total_cycles"], 523988);
}

// The new token's K column and V row go into the caches, in place: per
// layer B x KVH x HD float16 elements each, read once and written once.
TEST(LlamaDecode, CacheUpdateMovesOneTokensRows) {
    const ModelRun r = run_model("llama_decode",
                                 "--param layers=2 --param pos=9 --shape x=2,4096 --shape k_cache=2,2,32,128,16 "
                                 "--shape v_cache=2,2,32,16,128");
    int updates = 0;
    for (const auto& row : r.ops) {
        if (row.size() <= kDdrWritten || row[kKind] != "update") continue;
        ++updates;
        EXPECT_EQ(row[kDdrRead], std::to_string(2 * 32 * 128 * 2)) << row[0];
        EXPECT_EQ(row[kDdrWritten], std::to_string(2 * 32 * 128 * 2)) << row[0];
    }
    EXPECT_EQ(updates, 4);  // K and V of each layer
}

// The small GQA decode instance, two layers, --check'ed with `args` added;
// the report's check section.
std::string checked_small_decode(const std::string& args) {
    const Outcome o = run(
        "-q --check --param hidden=256 --param heads=4 --param kv_heads=2 --param intermediate=512 --param layers=2 "
        "--param pos=9 --shape k_cache=2,2,2,64,16 --shape v_cache=2,2,2,16,64 " +
        args + " models/llama_decode.pto");
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_EQ(o.out.find("FAIL"), std::string::npos) << o.out;
    return o.out;
}

TEST(LlamaDecode, ChecksAtASmallShapeWithGroupedQueries) {
    const std::string out = checked_small_decode("--shape x=2,256");
    EXPECT_NE(out.find("k_cache.updated (2, 2, 2, 64, 16)"), std::string::npos) << out;
}

// --param int8_weights=1: weight-only int8, the linear layers' weights
// dequantised in L1 as the GEMMs load them. The weights' bytes halve (plus
// a float16 scale per output column) and the step, still DDR-bound, takes
// 55 % of the float16 step's cycles (the cache and activations stay
// float16).
TEST(LlamaDecode, Int8WeightsHalveTheWeightBytes) {
    const ModelRun r = run_model("llama_decode", "--param int8_weights=1 " + kDecode7b);
    const uint64_t weights = 4ull * 4096 * 4096 + 3ull * 4096 * 11008;
    const uint64_t scales = 2ull * (4 * 4096 + 2 * 11008 + 4096);
    const uint64_t cache = 2ull * 2 * 32 * 128 * 2048;
    EXPECT_GE(r.report["ddr_bytes_read"].get<uint64_t>(), weights + scales + cache);
    EXPECT_LT(r.report["ddr_bytes_read"].get<uint64_t>(), weights + scales + cache + (2 << 20));
    EXPECT_LT(ratio(r.report, "ddr_bound_cycles"), 1.02);
    EXPECT_EQ(r.report["total_cycles"], 7550257);
    EXPECT_EQ(r.report["ddr_bytes_read"], 237174784);
}

TEST(LlamaDecode, Int8WeightsCheckAtASmallShape) {
    const std::string out = checked_small_decode("--param int8_weights=1 --shape x=2,256");
    EXPECT_NE(out.find("  y (2, 256) (float16 tolerance"), std::string::npos) << out;
}

// --param vocab=V: token ids in (an embedding lookup, a gather), next
// tokens out (final norm, LM head, argmax), checked at a small shape (the
// random ids cover the table's rows, docs/functional.md).
TEST(LlamaDecode, TokenInTokenOutChecksAtASmallShape) {
    const std::string out = checked_small_decode("--param vocab=512 --shape tokens=2");
    EXPECT_NE(out.find("  next_tokens (2) (float16 tolerance"), std::string::npos) << out;
}

// At Llama-2-7B's shapes the lookup moves one token's row (the id, then
// 4096 float16 read and written), not the 32000-row table, and the
// sampling reads the 32000 logits and writes one int32; the step stays
// DDR-bound (the LM head's 262 MB of weights join the layer's).
TEST(LlamaDecode, TokenInTokenOutMovesOneRowAndOneToken) {
    const ModelRun r = run_model("llama_decode",
                                 "--param vocab=32000 --shape tokens=1 --shape k_cache=1,1,32,128,2048 "
                                 "--shape v_cache=1,1,32,2048,128 --param pos=2047");
    int seen = 0;
    for (const auto& row : r.ops) {
        if (row.size() <= kDdrWritten) continue;
        if (row[kKind] == "embedding") {
            ++seen;
            EXPECT_EQ(row[kDdrRead], std::to_string(4 + 4096 * 2));
            EXPECT_EQ(row[kDdrWritten], std::to_string(4096 * 2));
        } else if (row[kKind] == "argmax") {
            ++seen;
            EXPECT_EQ(row[kDdrRead], std::to_string(32000 * 2));
            EXPECT_EQ(row[kDdrWritten], "4");
        }
    }
    EXPECT_EQ(seen, 2);
    EXPECT_LT(ratio(r.report, "ddr_bound_cycles"), 1.01);
}

TEST(LlamaPrefill, ChecksAtASmallShapeWithGroupedQueries) {
    const Outcome o = run(
        "-q --check --param hidden=256 --param heads=4 --param kv_heads=2 --param intermediate=512 --param layers=2 "
        "--shape x=2,16,256 --shape cos=16,64 --shape sin=16,64 models/llama_prefill.pto");
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_EQ(o.out.find("FAIL"), std::string::npos) << o.out;
}

TEST(Qwen3Decode, ChecksAtASmallShape) {
    const Outcome o =
        run("-q --check --param hidden=256 --param heads=8 --param kv_heads=2 --param head_dim=64 "
            "--param intermediate=512 --param pos=5 --shape x=2,256 --shape k_cache=1,2,2,64,8 "
            "--shape v_cache=1,2,2,8,64 models/qwen3_32b_decode.pto");
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_EQ(o.out.find("FAIL"), std::string::npos) << o.out;
}

// A 128-token prefill on the default cube is cube-bound. The causal mask
// is generated (causal_mask: a copy and a fill of -inf per row on the
// vector unit) instead of an additive S x S mask read from DDR and added:
// 104,163,141 cycles, 4,096 fewer than with the mask input (104,224,274).
TEST(LlamaPrefill, PromptIsCubeBound) {
    const ModelRun r = run_model("llama_prefill", "--shape x=1,128,4096 --shape cos=128,128 --shape sin=128,128");
    EXPECT_LT(ratio(r.report, "compute_bound_cycles"), 1.03);
    EXPECT_GT(r.report["compute_bound_cycles"].get<uint64_t>(), 3 * r.report["ddr_bound_cycles"].get<uint64_t>());
    EXPECT_GT(r.report["cube_utilization"].get<double>(), 0.97);
    EXPECT_EQ(r.report["total_cycles"], 104163141);
}

// A 512-token prompt runs (rope streams its table rows with the chunks
// once 4 x S x HD elements no longer fit L1) and stays cube-bound: four
// times the MACs of S = 128 and the attention's S x S part sixteen times.
TEST(LlamaPrefill, LongPromptRunsCubeBound) {
    const ModelRun r = run_model("llama_prefill", "--shape x=1,512,4096 --shape cos=512,128 --shape sin=512,128");
    EXPECT_LT(ratio(r.report, "compute_bound_cycles"), 1.04);
    EXPECT_EQ(r.report["compute_bound_cycles"], 413138944);
    EXPECT_GT(r.report["cube_utilization"].get<double>(), 0.96);
    EXPECT_EQ(r.report["total_cycles"], 426302585);
}

// Qwen3-32B's layer at batch 16 and a 4096-token cache, on the
// Ascend-class preset, is DDR-bound too.
TEST(Qwen3Decode, PublishedShapesAreDdrBoundOnTheAscendPreset) {
    const ModelRun r =
        run_model("qwen3_32b_decode",
                  "--config configs/ascend_910b_class.json --shape x=16,5120 --shape k_cache=1,16,8,128,4096 "
                  "--shape v_cache=1,16,8,4096,128");
    EXPECT_LT(ratio(r.report, "ddr_bound_cycles"), 1.06);  // 5.3 % above, as the 7B layer's
    EXPECT_EQ(r.report["total_cycles"], 1534234);
}

}  // namespace
