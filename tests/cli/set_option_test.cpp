// --set KEY=VALUE: configuration keys on the command line, applied over
// --config (or the built-in default) and checked as the same key in a file.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli_report.h"
#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

const char* const kUsageHead = "usage: davinci-sim [options] PROGRAM.pto\n";

// The report of `args` as JSON, and the same without its "config" name
// (which says where the configuration came from, not what it is).
nlohmann::json without_config(nlohmann::json j) {
    j.erase("config");
    return j;
}

// Exit status 2 and exactly `message` on stderr (the usage lines follow a
// command-line error, not a configuration error).
void expect_error(const std::string& args, const std::string& message, bool usage) {
    const Outcome o = run(args);
    EXPECT_EQ(o.status, 2) << args;
    const std::string first = "davinci-sim: error: " + message + "\n";
    if (usage) {
        EXPECT_EQ(o.err.substr(0, first.size() + std::string(kUsageHead).size()), first + kUsageHead) << o.err;
    } else {
        EXPECT_EQ(o.err, first);
    }
    EXPECT_EQ(o.out, "");
}

}  // namespace

TEST(SetOption, GivesTheReportOfTheEquivalentJsonFile) {
    const std::string file =
        write_file("set_equivalent.json", R"({"ddr": {"bytes_per_cycle": 64}, "chip": {"clusters": 8}})");
    const nlohmann::json by_file = run_report("--config '" + file + "' models/gemm_256.pto", "set_by_file");
    const nlohmann::json by_set =
        run_report("--set ddr.bytes_per_cycle=64 --set chip.clusters=8 models/gemm_256.pto", "set_by_option");
    EXPECT_EQ(without_config(by_set), without_config(by_file));
    EXPECT_EQ(by_set["total_cycles"], 36188u);
    EXPECT_EQ(run_report("models/gemm_256.pto", "set_none")["total_cycles"], 71421u);  // the default differs
}

TEST(SetOption, AppliesOverTheConfigFile) {
    nlohmann::json edge = testjson::parse(slurp(std::string(DAVINCI_SOURCE_DIR) + "/configs/edge_npu.json"));
    edge["ddr"]["bytes_per_cycle"] = 64;
    const std::string file = write_file("set_edge_64.json", edge.dump());
    const nlohmann::json by_file = run_report("--config '" + file + "' models/gemm_256.pto", "set_edge_file");
    const nlohmann::json by_set = run_report(
        "--config configs/edge_npu.json --set ddr.bytes_per_cycle=64 models/gemm_256.pto", "set_edge_option");
    EXPECT_EQ(without_config(by_set), without_config(by_file));
    EXPECT_EQ(by_set["total_cycles"], 22140u);
    EXPECT_EQ(run_report("--config configs/edge_npu.json models/gemm_256.pto", "set_edge_none")["total_cycles"],
              24700u);
}

TEST(SetOption, TheReportNamesTheSettings) {
    const Outcome o =
        run("--config configs/cluster.json --set chip.clusters=8 --set ddr.bytes_per_cycle=64 "
            "models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out.substr(0, o.out.find('\n')),
              "davinci-sim: models/gemm_256.pto on configs/cluster.json with --set chip.clusters=8 "
              "--set ddr.bytes_per_cycle=64");
    EXPECT_EQ(run_report("--set chip.clusters=8 models/gemm_256.pto", "set_named")["config"],
              "built-in default with --set chip.clusters=8");
}

// A word that is not JSON is a string: no shell-quoted quotes needed.
TEST(SetOption, AWordIsAString) {
    const std::string file = write_file("set_os.json", R"({"cube": {"dataflow": "os"}})");
    EXPECT_EQ(without_config(run_report("--set cube.dataflow=os models/gemm_256.pto", "set_os_word")),
              without_config(run_report("--config '" + file + "' models/gemm_256.pto", "set_os_file")));
    EXPECT_EQ(without_config(run_report("--set 'cube.dataflow=\"os\"' models/gemm_256.pto", "set_os_quoted")),
              without_config(run_report("--config '" + file + "' models/gemm_256.pto", "set_os_file2")));
}

TEST(SetOption, AppliesToProgramJsonRuns) {
    const std::string program = (scratch() / "set_program.json").string();
    ASSERT_EQ(run("--emit-program-json '" + program + "' models/gemm_256.pto").status, 0);
    const std::string file = write_file("set_program_cfg.json", R"({"ddr": {"bytes_per_cycle": 64}})");
    const nlohmann::json by_file =
        run_report("--config '" + file + "' --program-json '" + program + "'", "set_pj_file");
    const nlohmann::json by_set =
        run_report("--set ddr.bytes_per_cycle=64 --program-json '" + program + "'", "set_pj_set");
    EXPECT_EQ(without_config(by_set), without_config(by_file));
    EXPECT_NE(by_set["total_cycles"], run_report("--program-json '" + program + "'", "set_pj_none")["total_cycles"]);
    expect_error("--set ddr.bytes_per_cycle=0 --program-json '" + program + "'",
                 "--set: ddr.bytes_per_cycle: expected a positive integer, got 0", false);
}

TEST(SetOption, AnUnknownKeyGetsASuggestion) {
    expect_error("--set ddr.bytes_per_cyle=64 models/gemm_256.pto",
                 "--set: ddr.bytes_per_cyle: unknown key (did you mean ddr.bytes_per_cycle?)", false);
    // Compared as the full path: a key in the wrong section finds its home.
    expect_error("--set cube.dma_engines=2 models/gemm_256.pto",
                 "--set: cube.dma_engines: unknown key (did you mean cluster.dma_engines?)", false);
    expect_error("--set frobnicate=1 models/gemm_256.pto", "--set: frobnicate: unknown key", false);
}

TEST(SetOption, ValuesAreCheckedAsInAFile) {
    expect_error("--set ddr.bytes_per_cycle=-1 models/gemm_256.pto",
                 "--set: ddr.bytes_per_cycle: expected a positive integer, got -1", false);
    expect_error("--set cube.mac_rows=four models/gemm_256.pto",
                 "--set: cube.mac_rows: expected a positive integer, got \"four\"", false);
    expect_error("--set ddr.bytes_per_cycle=4.0 models/gemm_256.pto",
                 "--set: ddr.bytes_per_cycle: expected a positive integer, got 4.0", false);
    expect_error("--set cube.dataflow=diagonal models/gemm_256.pto",
                 "--set: cube.dataflow: expected one of fractal, os, ws, is, got \"diagonal\"", false);
    expect_error("--set cube=8 models/gemm_256.pto", "--set: cube: expected an object, got 8", false);
}

// chip.clusters is a unit count: 1024 is the last accepted value.
TEST(SetOption, BoundsAreTheFilesBounds) {
    const Outcome at = run("--set chip.clusters=1024 --dump-graph models/gemm_256.pto");
    EXPECT_EQ(at.status, 0) << at.err;
    expect_error("--set chip.clusters=1025 models/gemm_256.pto",
                 "--set: chip.clusters: 1025 is too large (at most 1024)", false);
}

// The file alone is valid; with the --set it is not.
TEST(SetOption, TheChecksAcrossKeysRunAfterTheSettings) {
    expect_error("--config configs/cluster.json --set cube.l0a_kib=8 models/gemm_256.pto",
                 "--set: cube.l0a_kib, cube.l0b_kib, cube.l0c_kib: give all three (a split L0) or none, got 8, 0, 0",
                 false);
    const Outcome o = run("-q --set cube.l0a_kib=8 --set cube.l0b_kib=8 --set cube.l0c_kib=16 models/gemm_256.pto");
    EXPECT_EQ(o.status, 0) << o.err;
}

TEST(SetOption, CommandLineMistakes) {
    expect_error("--set chip.clusters models/gemm_256.pto",
                 "--set: expected KEY=VALUE, KEY as --help-config lists it (e.g. ddr.bytes_per_cycle=64), got "
                 "'chip.clusters'",
                 true);
    expect_error("--set =4 models/gemm_256.pto",
                 "--set: expected KEY=VALUE, KEY as --help-config lists it (e.g. ddr.bytes_per_cycle=64), got '=4'",
                 true);
    expect_error("--set chip.clusters=2 --set chip.clusters=4 models/gemm_256.pto",
                 "--set: 'chip.clusters' is given twice", true);
}

// A configuration file's own errors still name the file, --set or not.
TEST(SetOption, AFileErrorStillNamesTheFile) {
    const std::string file = write_file("set_bad.json", R"({"chip": {"clusters": 0}})");
    expect_error("--config '" + file + "' --set chip.clusters=2 models/gemm_256.pto",
                 file + ": chip.clusters: expected a positive integer, got 0", false);
}
