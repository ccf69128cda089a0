// Mixed float dtypes promote (dsl/passes/pass_promote.h) and
// @pypo.task(placement=...) has an effect and says what it cannot do
// (docs/language.md §3.3, §3.5): the report's `promotions` and `notes`,
// the casts' exact vector cycles, --dump-graph, --check, the transpose
// a 'cube' task puts on the DMA engines.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

// docs/language.md §3.3: softmax in float32 feeding a float16 matmul.
const char* kMixedMatmul =
    "import pypto as pypo\n"
    "\n"
    "x = pypo.input(\"x\", shape=(64, 64))\n"
    "v = pypo.input(\"v\", shape=(64, 64))\n"
    "p = pypo.op.softmax(x, dtype=\"float32\")\n"
    "y = pypo.op.matmul(p, v)      # v is promoted: a cast to float32\n"
    "pypo.output(\"y\", y)\n";

struct SimRun {
    nlohmann::json report;
    std::string text;
    std::vector<TimingRow> rows;
};

SimRun simulate(const std::string& name, const std::string& program, const std::string& extra = "") {
    const std::string pto = write_file(name + ".pto", program);
    const std::string json = (scratch() / (name + ".json")).string();
    const std::string csv = (scratch() / (name + ".csv")).string();
    Outcome o = run(extra + " --report-json '" + json + "' --timing-csv '" + csv + "' '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return {testjson::parse(slurp(json)), o.out, read_timing_csv(csv)};
}

size_t vector_commands(const SimRun& r, const std::string& op = "") {
    size_t n = 0;
    for (const TimingRow& row : r.rows)
        if (row.command_kind == "vector" && (op.empty() || row.op == op)) ++n;
    return n;
}

const nlohmann::json& op_named(const SimRun& r, const std::string& name) {
    for (const nlohmann::json& op : r.report["ops"])
        if (op["name"] == name) return op;
    ADD_FAILURE() << "no operation " << name;
    static const nlohmann::json none;
    return none;
}

TEST(Promotion, MixedMatmulCompilesWithOneCountedCast) {
    const SimRun r = simulate("mixed_matmul", kMixedMatmul);
    EXPECT_EQ(r.report["promotions"], 1);
    EXPECT_NE(r.text.find("format conversions 0\npromotions         1\n"), std::string::npos) << r.text;
    // cast_1 = cast(v) to float32: 64 rows in 4 blocks of 16 (one per
    // cluster), one VECTOR cast 16x64 float16->float32 each, timed by its
    // source bytes (timing model §8): P + 1 pass * ceil(1024 * 2 / 128) =
    // 8 + 16 = 24 cycles; v's 8,192 B read and cast_1's 16,384 B written.
    const nlohmann::json& cast = op_named(r, "cast_1");
    EXPECT_EQ(cast["kind"], "cast");
    EXPECT_EQ(cast["vector_cycles"], 4 * 24);
    EXPECT_EQ(cast["dma_bytes"], 8192 + 16384);
    EXPECT_EQ(vector_commands(r, "cast_1"), 4u);
    for (const TimingRow& row : r.rows)
        if (row.command_kind == "vector" && row.op == "cast_1") EXPECT_EQ(row.end - row.start, 24u);
    // The matmul runs in float32: all its MACs at the float32 rate.
    EXPECT_EQ(op_named(r, "y")["macs"], 64 * 64 * 64);
    EXPECT_NE(r.text.find("262,144 of them float32"), std::string::npos);
}

TEST(Promotion, TheCastIsTheOnlyDifferenceFromAFloat32Operand) {
    std::string wide = kMixedMatmul;
    wide.replace(wide.find("shape=(64, 64))\np ="), 15, "shape=(64, 64), dtype=\"float32\")");
    const SimRun mixed = simulate("mixed", kMixedMatmul), declared = simulate("declared", wide);
    EXPECT_EQ(declared.report["promotions"], 0);
    EXPECT_EQ(vector_commands(mixed), vector_commands(declared) + 4);
    EXPECT_EQ(op_named(mixed, "y")["cube_cycles"], op_named(declared, "y")["cube_cycles"]);
    // The matmul reads cast_1 as it would read a float32 v; the cast adds
    // v's 8,192 float16 bytes read and cast_1's 16,384 written.
    EXPECT_EQ(mixed.report["ddr_bytes_read"].get<uint64_t>(), declared.report["ddr_bytes_read"].get<uint64_t>() + 8192);
    EXPECT_EQ(mixed.report["ddr_bytes_written"].get<uint64_t>(),
              declared.report["ddr_bytes_written"].get<uint64_t>() + 16384);
}

TEST(Promotion, DumpGraphListsTheInsertedCast) {
    const std::string pto = write_file("mixed_graph.pto", kMixedMatmul);
    Outcome o = run("--dump-graph '" + pto + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("  op 1: y = matmul(softmax_1, v)  -> (64, 64) float32  [cube]  @6:5\n"
                         "\n"
                         "promotions (casts the compiler inserts where operand dtypes differ)\n"
                         "  cast_1 = cast(v, dtype='float32')  -> (64, 64) float32  [vector, promotion]  @6:5  "
                         "for op 1 matmul\n"),
              std::string::npos)
        << o.out;
}

// The graph passes refuse a buffer read before anything is copied into
// it; the graph view, which lists the promotions, still works.
TEST(Promotion, DumpGraphWorksWhereThePassesRefuseTheProgram) {
    const std::string pto = write_file("unwritten_buffer.pto",
                                       "import pypto as pypo\n"
                                       "b = pypo.mem.alloc_l1(shape=(16, 16))\n"
                                       "pypo.output(\"y\", pypo.op.relu(b))\n");
    Outcome o = run("--dump-graph '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out.find("promotions"), std::string::npos) << o.out;
    EXPECT_EQ(run("-q '" + pto + "'").status, 2);
}

TEST(Promotion, FunctionalCheckAgreesWithTheReference) {
    const std::string pto = write_file("mixed_check.pto", kMixedMatmul);
    Outcome o = run("-q --check '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_NE(o.out.find("-> pass"), std::string::npos) << o.out;
}

// Under pypo.precision the precision pass made softmax float32 after the
// rule saw float16; the matmul given dtype= kept its operands, and the
// cube read v's float16 bytes as float32 (--check failed by 0.33).
TEST(Promotion, AnOperandTheMixedPrecisionPassWidenedIsPromoted) {
    const std::string pto = write_file("mixed_scope.pto",
                                       "import pypto as pypo\n"
                                       "x = pypo.input(\"x\", shape=(64, 64))\n"
                                       "v = pypo.input(\"v\", shape=(64, 64))\n"
                                       "with pypo.precision(mode='mixed'):\n"
                                       "    s = pypo.op.softmax(x)\n"
                                       "    m = pypo.op.matmul(s, v, dtype='float16')\n"
                                       "pypo.output(\"m\", m)\n");
    Outcome o = run("-q --check '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_NE(o.out.find("-> pass"), std::string::npos) << o.out;
}

// docs/language.md §3.5.
const char* kPlacement =
    "import pypto as pypo\n"
    "\n"
    "@pypo.task(placement='cube')\n"
    "def block(x, w):\n"
    "    h = pypo.op.batch_norm(pypo.op.matmul(x, w))\n"
    "    return pypo.op.transpose(h)   # on the DMA engines\n"
    "\n"
    "@pypo.task(placement='vector')\n"
    "def head(t, w):\n"
    "    return pypo.op.matmul(pypo.op.relu(t), w)\n"
    "\n"
    "x = pypo.input(\"x\", shape=(64, 64))\n"
    "w = pypo.weight(\"w\", shape=(64, 64))\n"
    "pypo.output(\"y\", head(block(block(x, w), w), w))\n";

TEST(Placement, WhatATaskCannotHostIsANoteNeverAnError) {
    const SimRun r = simulate("placement", kPlacement, "-q");
    const std::vector<std::string> notes = {
        "task block (placement 'cube', 2 calls): batch_norm x2 run on the vector unit: the cubes cannot compute them",
        "task head (placement 'vector'): matmul runs on the cubes: the vector unit cannot compute it"};
    EXPECT_EQ(r.report["notes"].get<std::vector<std::string>>(), notes);
    const SimRun text = simulate("placement_text", kPlacement);
    EXPECT_NE(text.text.find("\nnotes\n  " + notes[0] + "\n  " + notes[1] + "\n"), std::string::npos) << text.text;
}

TEST(Placement, ACubeTaskTransposesOnTheDmaEngines) {
    const SimRun cube = simulate("placement_dma", kPlacement, "-q");
    std::string anywhere = kPlacement;
    anywhere.replace(anywhere.find("placement='cube'"), 16, "placement='any'");
    const SimRun any = simulate("placement_any", anywhere, "-q");
    for (const char* t : {"transpose_1", "transpose_2"}) {
        EXPECT_EQ(op_named(cube, t)["vector_cycles"], 0) << t;
        EXPECT_GT(op_named(cube, t)["dma_cycles"].get<uint64_t>(), 0u) << t;
        EXPECT_GT(op_named(any, t)["vector_cycles"].get<uint64_t>(), 0u) << t;
        EXPECT_EQ(vector_commands(cube, t), 0u) << t;
    }
    // 'any' places nothing, so only the head's matmul is noted.
    EXPECT_EQ(any.report["notes"].size(), 1u);
    const std::string pto = write_file("placement_graph.pto", kPlacement);
    Outcome o = run("--dump-graph '" + pto + "'");
    EXPECT_NE(o.out.find("transpose_1 = transpose(batch_norm_1, engine='dma', perm=(1, 0))"), std::string::npos)
        << o.out;
}

TEST(Placement, EngineGivenWinsAndAPermTheDmaCannotDoStaysOnTheVectorUnit) {
    const std::string pto = write_file("placement_engine.pto",
                                       "import pypto as pypo\n"
                                       "@pypo.task(placement='cube')\n"
                                       "def f(x):\n"
                                       "    a = pypo.op.transpose(x, engine='vector')\n"
                                       "    return pypo.op.transpose(a, perm=(1, 0, 2))\n"
                                       "x = pypo.input(\"x\", shape=(4, 8, 16))\n"
                                       "pypo.output(\"y\", f(x))\n");
    Outcome o = run("--dump-graph '" + pto + "'");
    EXPECT_NE(o.out.find("transpose_1 = transpose(x, engine='vector', perm=(0, 2, 1))"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("y = transpose(transpose_1, engine='vector', perm=(1, 0, 2))"), std::string::npos) << o.out;
    o = run("-q --report-json '" + (scratch() / "engine.json").string() + "' '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(testjson::parse(slurp((scratch() / "engine.json").string()))["notes"],
              nlohmann::json::array(
                  {"task f (placement 'cube'): transpose x2 run on the vector unit: the cubes cannot compute them"}));
}

TEST(Placement, AProgramWithoutTasksHasNoNotes) {
    const SimRun r = simulate("no_tasks", kMixedMatmul);
    EXPECT_EQ(r.report["notes"], nlohmann::json::array());
    EXPECT_EQ(r.text.find("\nnotes\n"), std::string::npos);
}

}  // namespace
