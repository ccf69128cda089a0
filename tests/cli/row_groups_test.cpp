// Row groups (docs/timing-model.md §10, "Fusion"): the softmax of
// tests/cli/softmax_steps.pto, written out of its five steps, runs as one
// pass over each chunk of rows. Fused it reads x once and writes y once
// (512 x 256 float16: 262,144 bytes each); --no-fusion streams every step
// through DDR (the row statistics, the differences, the exponentials),
// reading 1,318,912 bytes and writing 788,480. Both check against the
// reference, with the vector units in L1 and in buffers of their own.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

nlohmann::json report(const std::string& args, const std::string& name) {
    const std::string json = (scratch() / (name + ".json")).string();
    Outcome o = run("-q " + args + " tests/cli/softmax_steps.pto --report-json '" + json + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

TEST(RowGroups, ASoftmaxOutOfItsStepsTakesOnePass) {
    const nlohmann::json fused = report("", "rows_fused"), apart = report("--no-fusion", "rows_apart");
    EXPECT_EQ(fused["fusion_groups"], 1);
    EXPECT_EQ(fused["ddr_bytes_read"], 262144);
    EXPECT_EQ(fused["ddr_bytes_written"], 262144);
    EXPECT_EQ(apart["ddr_bytes_read"], 1318912);
    EXPECT_EQ(apart["ddr_bytes_written"], 788480);
    EXPECT_EQ(fused["total_cycles"], 16486);
    EXPECT_EQ(apart["total_cycles"], 71277);
    // Every member's VECTOR commands are charged to it.
    for (const nlohmann::json& op : fused["ops"]) EXPECT_GT(op["vector_cycles"].get<uint64_t>(), 0u) << op;
}

TEST(RowGroups, OnTheAscendPresetToo) {
    const std::string preset = "--config configs/ascend_910b2.json";
    const nlohmann::json fused = report(preset, "rows_ub"), apart = report(preset + " --no-fusion", "rows_ub_apart");
    EXPECT_EQ(fused["total_cycles"], 1693);
    EXPECT_EQ(apart["total_cycles"], 4942);
    EXPECT_EQ(fused["ddr_bytes_written"], 262144);
}

// The functional model runs the fused commands: every output of
// tests/functional/row_groups.pto (a softmax and a layer norm out of their
// steps, two flash-attention steps) is the one --no-fusion computes, byte
// for byte, with the vector units in L1 and in buffers of their own (where
// the output's update is a vector chain run after its matmul).
TEST(RowGroups, FusedOutputsAreTheUnfusedOnes) {
    for (const std::string config : {"", "--config configs/ascend_910b2.json "}) {
        const std::string fused = (scratch() / "rows_fused").string(), apart = (scratch() / "rows_apart").string();
        const std::string program = " tests/functional/row_groups.pto";
        ASSERT_EQ(run("-q " + config + "--outputs '" + fused + "'" + program).status, 0);
        ASSERT_EQ(run("-q --no-fusion " + config + "--outputs '" + apart + "'" + program).status, 0);
        int files = 0;
        for (const auto& entry : std::filesystem::directory_iterator(fused)) {
            const std::string name = entry.path().filename().string();
            EXPECT_EQ(slurp(entry.path().string()), slurp(apart + "/" + name)) << config << name;
            ++files;
        }
        EXPECT_EQ(files, 3) << config;
    }
}

// A random program of row reductions, row-wise operations and numbers
// over (R, C) tensors and (R, 1) row statistics, seeded: the groups the
// pass forms in it (and the chains around them) must compute what
// --no-fusion computes, byte for byte.
std::string random_rows_program(std::mt19937& rng) {
    auto pick = [&](int n) { return int(std::uniform_int_distribution<int>(0, n - 1)(rng)); };
    struct T {
        std::string name;
        bool row;  // (R, 1)
    };
    std::vector<T> ts{{"x0", false}, {"x1", false}, {"s0", true}};
    std::string text =
        "import pypto as pypo\n"
        "x0 = pypo.input('x0', shape=(40, 72))\n"
        "x1 = pypo.input('x1', shape=(40, 72))\n"
        "s0 = pypo.input('s0', shape=(40, 1))\n";
    const int ops = 6 + pick(8);
    for (int k = 0; k < ops; ++k) {
        const std::string y = "t" + std::to_string(k);
        const T a = ts[size_t(pick(int(ts.size())))], b = ts[size_t(pick(int(ts.size())))];
        switch (pick(4)) {
        case 0: {  // a row reduction of a full tensor
            std::vector<T> full;
            for (const T& t : ts)
                if (!t.row) full.push_back(t);
            const char* red[] = {"reduce_sum", "reduce_max", "reduce_mean"};
            text += y + " = pypo.op." + red[pick(3)] + "(" + full[size_t(pick(int(full.size())))].name +
                    ", axis=-1, keepdims=True)\n";
            ts.push_back({y, true});
            break;
        }
        case 1: {
            const char* un[] = {"relu", "sigmoid", "tanh"};
            text += y + " = pypo.op." + un[pick(3)] + "(" + a.name + ")\n";
            ts.push_back({y, a.row});
            break;
        }
        case 2: {
            const char* bin[] = {"add", "sub", "mul", "maximum", "minimum"};
            text += y + " = pypo.op." + bin[pick(5)] + "(" + a.name + ", " + b.name + ")\n";
            ts.push_back({y, a.row && b.row});
            break;
        }
        default:
            text += y + " = pypo.op." + (pick(2) ? "mul(" + a.name + ", 0.5)" : "add(" + a.name + ", 1.0)") + "\n";
            ts.push_back({y, a.row});
        }
    }
    text += "pypo.output('y', " + ts.back().name + ")\n";
    text += "pypo.output('z', " + ts[ts.size() - 2].name + ")\n";
    return text;
}

TEST(RowGroups, RandomProgramsComputeWhatTheUnfusedOnesDo) {
    std::mt19937 rng(20261205);
    int grouped = 0;
    for (int n = 0; n < 24; ++n) {
        const std::string program = write_file("rows_random_" + std::to_string(n) + ".pto", random_rows_program(rng));
        for (const std::string config : {"", "--config configs/ascend_910b2.json "}) {
            const std::string fused = (scratch() / "rr_fused").string(), apart = (scratch() / "rr_apart").string();
            std::filesystem::remove_all(fused), std::filesystem::remove_all(apart);
            Outcome f = run("--functional " + config + "--outputs '" + fused + "' '" + program + "'");
            ASSERT_EQ(f.status, 0) << f.err << slurp(program);
            grouped += f.out.find("(reduce_") != std::string::npos;
            ASSERT_EQ(run("-q --no-fusion " + config + "--outputs '" + apart + "' '" + program + "'").status, 0);
            for (const char* out : {"/y.npy", "/z.npy"}) {
                ASSERT_TRUE(std::filesystem::exists(fused + out) && std::filesystem::exists(apart + out)) << out;
                EXPECT_EQ(slurp(fused + out), slurp(apart + out)) << config << out << "\n" << slurp(program);
            }
        }
    }
    // The programs exercise the groups: 30 of the 48 runs form at least one.
    EXPECT_EQ(grouped, 30);
}

// --explain says which of a row group's results the group stores: those
// read outside it (e, an output) and its last; the others live in the
// chunks.
TEST(RowGroups, ExplainSaysWhichResultsAreStored) {
    const std::string pto =
        write_file("rows_explain.pto",
                   "import pypto as pypo\n"
                   "x = pypo.input('x', shape=(64, 256))\n"
                   "m = pypo.op.reduce_max(x, axis=-1, keepdims=True)\n"
                   "e = pypo.op.exp(pypo.op.sub(x, m))\n"
                   "pypo.output('e', e)\n"
                   "pypo.output('y', pypo.op.div(e, pypo.op.reduce_sum(e, axis=-1, keepdims=True)))\n");
    const std::string out = (scratch() / "rows_explain.txt").string();
    ASSERT_EQ(run("-q --explain '" + out + "' '" + pto + "'").status, 0);
    const std::string text = slurp(out);
    for (const char* line : {"op 0: reduce_max_1 = reduce_max(x)\n  placement: top level (placement='any'), result "
                             "kept in L1 on the group's chunks",
                             "op 2: e = exp(sub_1)\n  placement: top level (placement='any'), result stored to DDR by "
                             "the group",
                             "op 3: reduce_sum_1 = reduce_sum(e)\n  placement: top level (placement='any'), result "
                             "kept in L1 on the group's chunks"})
        EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
}

TEST(RowGroups, CheckAgainstTheReference) {
    for (const std::string args : {"", "--config configs/ascend_910b2.json"})
        for (const char* program : {" tests/cli/softmax_steps.pto", " tests/functional/row_groups.pto"}) {
            Outcome o = run("-q --check " + args + program);
            EXPECT_EQ(o.status, 0) << args << program << "\n" << o.out << o.err;
        }
}

}  // namespace
