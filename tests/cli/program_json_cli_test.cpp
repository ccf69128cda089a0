// Raw command programs through the real CLI: --program-json runs one,
// --emit-program-json writes the one a .pto compiles to. Exact messages and
// exit statuses for bad program files.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "sim/arch/program_json.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

// dma0 loads 4096 B and sets f0 (ends 230: eligible 2, 128 cycles, +100);
// vector0 waits f0 (231) and runs exp 64x256 float16: 8 + 4 * 256 = 1032
// cycles, ending 1263 (docs/timing-model.md §5, §6, §8).
const char* kHandOff = R"({
  "blocks": [{"name": "handoff", "num_flags": 1, "streams": [
    {"engine": "dma0", "commands": [
      {"op": "dma", "src": "DDR", "dst": "L1", "rows": 1, "row_bytes": 4096, "sets": [0], "tag": 1}]},
    {"engine": "vector0", "commands": [
      {"op": "vector", "vector_op": "exp", "dtype": "float16", "rows": 64, "cols": 256, "src0": 0, "dst": 32768,
       "waits": [0]}]}]}],
  "tags": ["", "x, loaded"]
})";

TEST(ProgramJsonCli, RunsARawProgram) {
    std::string prog = write_file("handoff.json", kHandOff);
    std::string csv = (scratch() / "handoff.csv").string(), rep = (scratch() / "handoff_report.json").string();
    Outcome o = run("--program-json '" + prog + "' --timing-csv '" + csv + "' --report-json '" + rep + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(slurp(csv),
              "block,cluster,engine,index,start,end,command_kind,tag,op,task,link_wait,schema_version\n"
              "0,0,dma0,0,1,230,dma,\"x, loaded\",,,0,3\n"
              "0,0,vector0,0,231,1263,vector,\"\",,,0,3\n");
    nlohmann::json r = testjson::parse(slurp(rep));
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 1263u);
    EXPECT_EQ(r["program"], prog);
    bool found = false;
    for (const auto& u : r["units"])
        if (u["name"] == "cluster0.vector0") {
            found = true;
            EXPECT_EQ(u["kind"], "vector");
            EXPECT_EQ(u["busy_cycles"].get<uint64_t>(), 1032u);
            EXPECT_EQ(u["elements"].get<uint64_t>(), 64u * 256);
        }
    EXPECT_TRUE(found);
    // 1032 of 1263 cycles on cluster 0's vector unit, idle elsewhere.
    EXPECT_NE(o.out.find("vector unit busy             average  20.4 %\n  cluster0   81.7 %\n  cluster1    0.0 %\n"),
              std::string::npos)
        << o.out;
}

TEST(ProgramJsonCli, DumpProgramOfARawProgram) {
    std::string prog = write_file("handoff_dump.json", kHandOff);
    Outcome o = run("--program-json '" + prog + "' --dump-program");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("  vector0: 1 commands\n    0: VECTOR exp 64x256 float16  L1:0x0 -> L1:0x8000  wait(f0)\n"),
              std::string::npos)
        << o.out;
}

// issue_cycles (§5): s = max(ready + issue, flag times). dma0 loads 4096 B
// after 5 cycles of issue: [6, 6 + 1 + 128 + 100) = [6, 235), sets f0.
// vector0's first exp waits f0 (236) and issues 100 cycles from the block's
// start (101), hidden behind the wait: [236, 236 + 1032) = [236, 1268). Its
// second issues 40 cycles after that end: [1308, 2340).
const char* kIssue = R"({
  "blocks": [{"name": "issue", "num_flags": 1, "streams": [
    {"engine": "dma0", "commands": [
      {"op": "dma", "src": "DDR", "dst": "L1", "rows": 1, "row_bytes": 4096, "sets": [0], "issue_cycles": 5}]},
    {"engine": "vector0", "commands": [
      {"op": "vector", "vector_op": "exp", "rows": 64, "cols": 256, "dst": 32768, "waits": [0], "issue_cycles": 100},
      {"op": "vector", "vector_op": "exp", "rows": 64, "cols": 256, "dst": 32768, "issue_cycles": 40}]}]}]
})";

// Both listings of a compiled program are written block by block from the
// spool: --dump-program prints what the program --emit-program-json wrote
// reads back as, and that program simulates to the .pto's cycles. A model
// with on-chip tensors (its blocks held encoded until the placement is
// final) and MAX_PARALLEL above the clusters (slots).
TEST(ProgramJsonCli, EmittedAndDumpedProgramsAgree) {
    const std::string pto = write_file("agree.pto",
                                       "import pypto as pypo\n"
                                       "pypo.config.MAX_PARALLEL = 8\n"
                                       "a = pypo.input('a', shape=(256, 256))\n"
                                       "b = pypo.input('b', shape=(256, 256))\n"
                                       "pypo.output('c', pypo.op.matmul(a, b))\n");
    const std::string json = (scratch() / "agree.json").string();
    Outcome emitted = run("--emit-program-json '" + json + "' '" + pto + "'");
    ASSERT_EQ(emitted.status, 0) << emitted.err;
    Outcome dumped = run("--dump-program '" + pto + "'");
    ASSERT_EQ(dumped.status, 0) << dumped.err;
    nlohmann::json j = testjson::parse(slurp(json));
    j.erase("schema_version");
    const arch::Program back = arch::program_from_json(j, json);
    EXPECT_EQ(arch::format_program(back), dumped.out);
    EXPECT_GT(back.blocks.size(), 1u);
    EXPECT_EQ(back.max_parallel, 8u);
    Outcome from_pto = run("-q --report-json '" + json + ".r1' '" + pto + "'");
    Outcome from_json = run("-q --report-json '" + json + ".r2' --program-json '" + json + "'");
    ASSERT_EQ(from_pto.status, 0) << from_pto.err;
    ASSERT_EQ(from_json.status, 0) << from_json.err;
    EXPECT_EQ(testjson::parse(slurp(json + ".r1"))["total_cycles"],
              testjson::parse(slurp(json + ".r2"))["total_cycles"]);
}

TEST(ProgramJsonCli, IssueCycles) {
    std::string prog = write_file("issue.json", kIssue);
    std::string csv = (scratch() / "issue.csv").string(), back = (scratch() / "issue_back.json").string();
    Outcome o = run("-q --program-json '" + prog + "' --timing-csv '" + csv + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(slurp(csv),
              "block,cluster,engine,index,start,end,command_kind,tag,op,task,link_wait,schema_version\n"
              "0,0,dma0,0,6,235,dma,,,,0,3\n"
              "0,0,vector0,0,236,1268,vector,,,,0,3\n"
              "0,0,vector0,1,1308,2340,vector,,,,0,3\n");
    o = run("--program-json '" + prog + "' --dump-program");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("    0: DMA    DDR:0x0 -> L1:0x0  1x4096B  issue 5  set(f0)\n"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("    0: VECTOR exp 64x256 float16  L1:0x0 -> L1:0x8000  issue 100  wait(f0)\n"
                         "    1: VECTOR exp 64x256 float16  L1:0x0 -> L1:0x8000  issue 40\n"),
              std::string::npos)
        << o.out;
}

TEST(ProgramJsonCli, BadIssueCycles) {
    std::string prog = write_file("bad_issue.json", R"({"blocks": [{"streams": [{"engine": "cube0", "commands": [
        {"op": "matmul", "m": 4, "k": 4, "n": 4, "issue_cycles": -8}]}]}]})");
    Outcome o = run("--program-json '" + prog + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err,
              "davinci-sim: error: " + prog +
                  ": blocks[0].streams[0].commands[0].issue_cycles: expected an integer from 0 to 4294967295, got "
                  "-8\n");
    EXPECT_EQ(o.out, "");
}

TEST(ProgramJsonCli, MalformedProgramFile) {
    std::string prog = write_file("malformed.json", R"({"blocks": [{"streams": [{"engine": "vector0", "commands": [
        {"op": "vector", "vector_op": "exp", "rows": "64"}]}]}]})");
    Outcome o = run("--program-json '" + prog + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err,
              "davinci-sim: error: " + prog +
                  ": blocks[0].streams[0].commands[0].rows: expected an integer from 0 to 4294967295, got \"64\"\n");
    EXPECT_EQ(o.out, "");
}

TEST(ProgramJsonCli, NotJson) {
    std::string prog = write_file("notjson.json", "blocks = []\n");
    Outcome o = run("--program-json '" + prog + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: " + prog +
                         ":1:1: invalid JSON: syntax error while parsing value - invalid literal; last read: 'b'\n");
}

TEST(ProgramJsonCli, MissingProgramFile) {
    Outcome o = run("--program-json /nonexistent/p.json");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: /nonexistent/p.json: cannot open file\n");
}

// Well-formed JSON, but the program does not fit the hardware.
TEST(ProgramJsonCli, ProgramThatFailsTheCheck) {
    std::string prog = write_file("misplaced.json", R"({"blocks": [{"streams": [{"engine": "cube0", "commands": [
        {"op": "vector", "vector_op": "relu", "rows": 4, "cols": 4}]}]}]})");
    Outcome o = run("--program-json '" + prog + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: " + prog +
                         ": invalid program: block 0, cube0 command 0: only a vector unit executes VECTOR\n");
}

TEST(ProgramJsonCli, NotTogetherWithAPtoProgram) {
    std::string prog = write_file("both.json", kHandOff);
    Outcome o = run("--program-json '" + prog + "' models/gemm_256.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.rfind("davinci-sim: error: --program-json takes the place of a .pto program (got "
                          "'models/gemm_256.pto' too)\n",
                          0),
              0u)
        << o.err;
    o = run("--program-json '" + prog + "' --dump-graph");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.rfind("davinci-sim: error: --dump-graph needs a .pto program, not --program-json\n", 0), 0u)
        << o.err;
}

// The compiled GEMM written out and run back gives the same timing, command
// for command, as compiling and running it directly.
TEST(ProgramJsonCli, EmittedProgramRunsIdentically) {
    std::string prog = (scratch() / "gemm256.program.json").string();
    std::string direct = (scratch() / "direct.csv").string(), raw = (scratch() / "raw.csv").string();
    Outcome e = run("--emit-program-json '" + prog + "' models/gemm_256.pto");
    ASSERT_EQ(e.status, 0) << e.err;
    EXPECT_EQ(e.out, "");
    nlohmann::json j = testjson::parse(slurp(prog));
    EXPECT_EQ(j["source"], "models/gemm_256.pto");
    EXPECT_EQ(j["blocks"].size(), 4u);
    ASSERT_EQ(run("-q --timing-csv '" + direct + "' models/gemm_256.pto").status, 0);
    Outcome r = run("-q --timing-csv '" + raw + "' --program-json '" + prog + "'");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(slurp(direct).empty());
    EXPECT_EQ(slurp(raw), slurp(direct));
}

TEST(ProgramJsonCli, UnwritableEmitPath) {
    Outcome o = run("--emit-program-json /nonexistent-dir/p.json models/gemm_256.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(
        o.err,
        "davinci-sim: error: --emit-program-json: cannot write /nonexistent-dir/p.json: No such file or directory\n");
}

}  // namespace
