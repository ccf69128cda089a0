// `davinci-sim profile PROGRAM -o FILE` and `--profile FILE`: the schema of
// traces/README.md, consistent with --report-json, byte-identical across runs.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;
using nlohmann::json;

namespace {

struct Profiled {
    std::string bytes;
    json profile, report;
};

Profiled profile(const std::string& name, const std::string& program) {
    std::string p = (scratch() / (name + ".profile.json")).string(), r = (scratch() / (name + ".report.json")).string();
    Outcome o = run("profile -q -o '" + p + "' --report-json '" + r + "' " + program);
    EXPECT_EQ(o.status, 0) << o.err;
    Profiled out;
    out.bytes = slurp(p);
    out.profile = testjson::parse(out.bytes);
    out.report = testjson::parse(slurp(r));
    return out;
}

bool is_count_or_null(const json& v) { return v.is_null() || v.is_number_unsigned(); }

void check_profile(const std::string& name, const std::string& program) {
    SCOPED_TRACE(program);
    Profiled run1 = profile(name, program);
    const json& p = run1.profile;
    const json& r = run1.report;
    ASSERT_EQ(p["schema"], "davinci-sim-profile/1");
    EXPECT_EQ(p["schema_version"], 1);
    EXPECT_EQ(p["program"], program);
    ASSERT_TRUE(p["clock_ghz"].is_number());
    ASSERT_TRUE(p["total_cycles"].is_number_unsigned());
    ASSERT_TRUE(p["bucket_cycles"].is_number_unsigned());
    ASSERT_TRUE(p["buckets"].is_number_unsigned());
    uint64_t total = p["total_cycles"], width = p["bucket_cycles"], n = p["buckets"];
    EXPECT_EQ(total, r["total_cycles"].get<uint64_t>());
    ASSERT_GT(total, 0u);
    EXPECT_EQ(width, std::max<uint64_t>(1, (total + 199) / 200));
    EXPECT_EQ(n, (total + width - 1) / width);
    EXPECT_LE(n, 200u);
    auto bucket_size = [&](uint64_t b) { return std::min(total, (b + 1) * width) - b * width; };

    // Heatmap: a row per unit, in the report's order; its bucket-weighted mean is the unit's busy share.
    ASSERT_TRUE(p["units"].is_array());
    ASSERT_TRUE(p["heatmap"].is_array());
    ASSERT_EQ(p["units"].size(), r["units"].size());
    ASSERT_EQ(p["heatmap"].size(), r["units"].size());
    for (size_t u = 0; u < r["units"].size(); ++u) {
        EXPECT_EQ(p["units"][u], r["units"][u]["name"]);
        EXPECT_EQ(p["unit_kinds"][u], r["units"][u]["kind"]);
        const json& row = p["heatmap"][u];
        ASSERT_EQ(row.size(), n) << p["units"][u];
        double weighted = 0;
        for (uint64_t b = 0; b < n; ++b) {
            ASSERT_TRUE(row[b].is_number());
            double f = row[b];
            EXPECT_GE(f, 0.0);
            EXPECT_LE(f, 1.0);
            weighted += f * double(bucket_size(b));
        }
        double expected = r["units"][u]["busy_cycles"].get<double>() / double(total);
        EXPECT_NEAR(weighted / double(total), expected, 1e-9) << p["units"][u];
    }

    // Each command's bytes spread over its span: bytes/cycle x bucket width
    // sums to the bytes moved.
    ASSERT_TRUE(p["links"].is_array());
    ASSERT_GE(p["links"].size(), 2u);
    EXPECT_EQ(p["links"][0]["name"], "ddr");
    for (const json& l : p["links"]) {
        ASSERT_TRUE(l["name"].is_string());
        ASSERT_TRUE(l["bytes"].is_number_unsigned());
        ASSERT_EQ(l["bandwidth"].size(), n) << l["name"];
        double sum = 0;
        for (uint64_t b = 0; b < n; ++b) {
            double v = l["bandwidth"][b];
            EXPECT_GE(v, 0.0);
            sum += v * double(bucket_size(b));
        }
        EXPECT_NEAR(sum, l["bytes"].get<double>(), 1e-6 * std::max(1.0, l["bytes"].get<double>())) << l["name"];
    }
    double ddr = 0;
    for (uint64_t b = 0; b < n; ++b) ddr += p["links"][0]["bandwidth"][b].get<double>() * double(bucket_size(b));
    double ddr_bytes = r["ddr_bytes_read"].get<double>() + r["ddr_bytes_written"].get<double>();
    EXPECT_GT(ddr_bytes, 0);
    EXPECT_NEAR(ddr, ddr_bytes, 1e-9 * ddr_bytes);

    // Per-op table: the report's operations.
    ASSERT_EQ(p["ops"].size(), r["ops"].size());
    for (size_t i = 0; i < r["ops"].size(); ++i) {
        const json& o = p["ops"][i];
        const json& ro = r["ops"][i];
        EXPECT_EQ(o["name"], ro["name"]);
        EXPECT_EQ(o["kind"], ro["kind"]);
        EXPECT_EQ(o["task"], ro["task"]);
        for (const char* k : {"start", "end", "cycles"}) {
            ASSERT_TRUE(is_count_or_null(o[k])) << k;
            EXPECT_EQ(o[k], ro.value(k, json(nullptr))) << o["name"] << " " << k;
        }
        for (const char* k : {"cube_cycles", "dma_cycles", "vector_cycles", "macs", "dma_bytes"}) {
            ASSERT_TRUE(o[k].is_number_unsigned()) << k;
            EXPECT_EQ(o[k], ro[k]) << o["name"] << " " << k;
        }
    }

    EXPECT_EQ(p["critical_path"], r["critical_path"]);
    EXPECT_FALSE(p["critical_path"].empty());

    // Tasks and edges between them.
    ASSERT_TRUE(p["tasks"].is_array());
    ASSERT_EQ(p["tasks"].size(), r["tasks"].size());
    std::set<std::string> task_names;
    const std::set<std::string> kinds = {"dma", "cube_dma", "cube", "vector"};
    for (const json& t : p["tasks"]) {
        ASSERT_TRUE(t["name"].is_string());
        task_names.insert(t["name"]);
        ASSERT_TRUE(is_count_or_null(t["start"]));
        ASSERT_TRUE(is_count_or_null(t["end"]));
        ASSERT_TRUE(t["units"].is_array());
        for (const json& k : t["units"]) EXPECT_TRUE(kinds.count(k.get<std::string>())) << k;
        if (!t["start"].is_null()) {
            EXPECT_LE(t["start"].get<uint64_t>(), t["end"].get<uint64_t>());
            EXPECT_LE(t["end"].get<uint64_t>(), total);
            EXPECT_FALSE(t["units"].empty());
        }
    }
    ASSERT_TRUE(p["task_edges"].is_array());
    for (const json& e : p["task_edges"]) {
        EXPECT_TRUE(task_names.count(e["from"].get<std::string>())) << e;
        EXPECT_TRUE(task_names.count(e["to"].get<std::string>())) << e;
        EXPECT_NE(e["from"], e["to"]);
    }

    // Deterministic, and `--profile FILE` on a normal run writes the same bytes.
    std::string again = (scratch() / (name + ".again.json")).string();
    Outcome o = run("-q --profile '" + again + "' " + program);
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_TRUE(slurp(again) == run1.bytes);
}

}  // namespace

TEST(Profile, Gemm256) { check_profile("gemm", "models/gemm_256.pto"); }

TEST(Profile, ResnetBlock) { check_profile("resnet", "models/resnet_block.pto"); }

// Three tasks ("attention", top level "", "mlp"): the task graph has edges.
TEST(Profile, AttentionTaskEdges) {
    check_profile("attention", "models/attention.pto");
    json p = testjson::parse(slurp((scratch() / "attention.profile.json").string()));
    EXPECT_EQ(p["tasks"].size(), 3u);
    EXPECT_FALSE(p["task_edges"].empty());
}

TEST(Profile, SubcommandNeedsAnOutputFile) {
    Outcome o = run("profile -q models/gemm_256.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_NE(o.err.find("-o"), std::string::npos) << o.err;
}
