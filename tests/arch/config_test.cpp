// The configuration loader: defaults, the shipped preset, and the exact text
// of every kind of message a user can get from a bad configuration file.
#include "sim/arch/config.h"

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include "tests/support/json_parse.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Counted from the declaration list itself, so the test cannot drift from it.
constexpr std::size_t kDeclaredParams = 0
#define X(kind, member, path, unit, def, desc) +1
#include "sim/arch/config_params.def"
#undef X
    ;

// A fresh directory per test: tests may run in parallel processes (ctest -j).
class ConfigFileTest : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               ("davinci_config_test_" + std::string(info->name()) + "_" + std::to_string(std::random_device{}()));
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    std::string write(const std::string& name, const std::string& text) {
        const std::string path = (dir_ / name).string();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }

    // The message of loading `text` from a file; the file path is replaced by
    // "PATH" so expectations read like the messages a user sees.
    std::string load_error(const std::string& text) {
        const std::string path = write("x.json", text);
        try {
            arch::load_config_file(path);
        } catch (const arch::ConfigError& e) {
            std::string msg = e.what();
            if (msg.compare(0, path.size(), path) == 0) msg.replace(0, path.size(), "PATH");
            return msg;
        }
        return "(no error)";
    }

    fs::path dir_;
};

std::string json_error(const std::string& text) {
    try {
        arch::config_from_json(testjson::parse(text), "configs/x.json");
    } catch (const arch::ConfigError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(Config, DefaultMatchesShippedPreset) {
    const arch::Config loaded = arch::load_config_file(DAVINCI_SOURCE_DIR "/configs/cluster.json");
    EXPECT_EQ(arch::config_to_json(loaded), arch::config_to_json(arch::default_config()));
}

TEST(Config, EmptyObjectIsTheDefault) {
    EXPECT_EQ(arch::config_to_json(arch::config_from_json(json::object(), "x")),
              arch::config_to_json(arch::default_config()));
}

TEST_F(ConfigFileTest, PartialFileKeepsDefaults) {
    const arch::Config c =
        arch::load_config_file(write("partial.json", R"({"cube": {"l0_kib": 64}, "clock_ghz": 1.5})"));
    EXPECT_EQ(c.l0_kib, 64);
    EXPECT_EQ(c.l0_bytes(), 64 * 1024);
    EXPECT_EQ(c.clock_ghz, 1.5);

    json expected = arch::config_to_json(arch::default_config());
    expected["cube"]["l0_kib"] = 64;
    expected["clock_ghz"] = 1.5;
    EXPECT_EQ(arch::config_to_json(c), expected);
}

TEST(Config, RoundTripsThroughJson) {
    arch::Config c;
    c.clusters = 2;
    c.ddr_latency_cycles = 0;
    c.clock_ghz = 0.8;
    const arch::Config back = arch::config_from_json(arch::config_to_json(c), "x");
    EXPECT_EQ(arch::config_to_json(back), arch::config_to_json(c));
}

TEST(Config, ToJsonKeepsIntegersIntegral) {
    const json j = arch::config_to_json(arch::default_config());
    EXPECT_TRUE(j["cube"]["l0_kib"].is_number_integer());
    EXPECT_TRUE(j["clock_ghz"].is_number_float());
    EXPECT_EQ(j["clock_ghz"].dump(), "1.0");
}

TEST(Config, AcceptsBoundaryValues) {
    const arch::Config c = arch::config_from_json(
        testjson::parse(R"({"ddr": {"latency_cycles": 0}, "cube": {"l0_kib": 1}, "clock_ghz": 2})"), "x");
    EXPECT_EQ(c.ddr_latency_cycles, 0);
    EXPECT_EQ(c.l0_kib, 1);
    EXPECT_EQ(c.clock_ghz, 2.0);
}

// cube.dataflow is a string naming one of four dataflows (§7).
TEST(Config, DataflowChoices) {
    EXPECT_EQ(arch::default_config().cube_dataflow, arch::Dataflow::Fractal);
    EXPECT_EQ(arch::default_config().cube_k_per_cycle, 1);
    const std::pair<const char*, arch::Dataflow> choices[] = {{"fractal", arch::Dataflow::Fractal},
                                                              {"os", arch::Dataflow::OS},
                                                              {"ws", arch::Dataflow::WS},
                                                              {"is", arch::Dataflow::IS}};
    for (const auto& [name, dataflow] : choices) {
        const arch::Config c = arch::config_from_json(json{{"cube", {{"dataflow", name}, {"k_per_cycle", 16}}}}, "x");
        EXPECT_EQ(c.cube_dataflow, dataflow) << name;
        EXPECT_EQ(arch::dataflow_name(c.cube_dataflow), std::string(name));
        EXPECT_EQ(arch::config_to_json(c)["cube"]["dataflow"], name);
        EXPECT_EQ(c.cube_k_per_cycle, 16);
    }
}

// A Switch (vector.separate_cores): JSON true or false, written back as such;
// a number is refused, and the key needs the vector units' own buffers.
TEST(Config, SwitchSeparateCores) {
    EXPECT_FALSE(arch::default_config().vector_separate_cores);
    EXPECT_EQ(arch::default_config().dispatch_sides(), 1);
    const arch::Config c =
        arch::config_from_json(json{{"vector", {{"buffer_kib", 192}, {"separate_cores", true}}}}, "x");
    EXPECT_TRUE(c.vector_separate_cores);
    EXPECT_EQ(c.dispatch_sides(), 2);
    EXPECT_EQ(arch::config_to_json(c)["vector"]["separate_cores"], true);
    EXPECT_EQ(json_error(R"({"vector": {"buffer_kib": 192, "separate_cores": 1}})"),
              "configs/x.json: vector.separate_cores: expected true or false, got 1");
    EXPECT_EQ(json_error(R"({"vector": {"separate_cores": true}})"),
              "configs/x.json: vector.separate_cores: true needs vector.buffer_kib > 0 (without buffers of their own "
              "the vector units compute in the cluster's L1, beside the cubes, and cannot take blocks apart from "
              "them)");
}

TEST(Config, DataflowMessages) {
    EXPECT_EQ(json_error(R"({"cube": {"dataflow": "xyz"}})"),
              "configs/x.json: cube.dataflow: expected one of fractal, os, ws, is, got \"xyz\"");
    // Spelled exactly: no case folding, no long names.
    EXPECT_EQ(json_error(R"({"cube": {"dataflow": "WS"}})"),
              "configs/x.json: cube.dataflow: expected one of fractal, os, ws, is, got \"WS\"");
    EXPECT_EQ(json_error(R"({"cube": {"dataflow": 2}})"),
              "configs/x.json: cube.dataflow: expected one of fractal, os, ws, is, got 2");
    EXPECT_EQ(json_error(R"({"cube": {"dataflow": ["ws"]}})"),
              "configs/x.json: cube.dataflow: expected one of fractal, os, ws, is, got [\"ws\"]");
    EXPECT_EQ(json_error(R"({"cube": {"k_per_cycle": 0}})"),
              "configs/x.json: cube.k_per_cycle: expected a positive integer, got 0");
    EXPECT_EQ(json_error(R"({"cube": {"data_flow": "ws"}})"),
              "configs/x.json: cube.data_flow: unknown key (did you mean cube.dataflow?)");
}

// Peak MACs per cycle (§7.3): R x Q x k_per_cycle for the fractal cube,
// R x C for a systolic array, where k_per_cycle does not apply.
TEST(Config, MacsPerCycle) {
    arch::Config c;
    EXPECT_EQ(c.macs_per_cycle(), 16);
    c.mac_rows = 16, c.mac_cols = 8, c.cube_k_per_cycle = 4;
    EXPECT_EQ(c.macs_per_cycle(), 512);
    c.cube_dataflow = arch::Dataflow::WS;
    EXPECT_EQ(c.macs_per_cycle(), 128);
}

TEST(Config, DescribeListsTheDataflowChoices) {
    const std::string text = arch::describe_config_params();
    const auto at = text.find("  cube.dataflow ");
    ASSERT_NE(at, std::string::npos);
    const std::string line = text.substr(at, text.find('\n', at) - at);
    EXPECT_NE(line.find("fractal|os|ws|is"), std::string::npos) << line;
    EXPECT_NE(line.find("\"fractal\""), std::string::npos) << line;
}

TEST_F(ConfigFileTest, NegativeSize) {
    EXPECT_EQ(load_error(R"({"cube": {"l0_kib": -3}})"), "PATH: cube.l0_kib: expected a positive integer, got -3");
    EXPECT_EQ(json_error(R"({"cube": {"l0_kib": -3}})"),
              "configs/x.json: cube.l0_kib: expected a positive integer, got -3");
}

TEST(Config, ZeroForPositiveInteger) {
    EXPECT_EQ(json_error(R"({"chip": {"clusters": 0}})"),
              "configs/x.json: chip.clusters: expected a positive integer, got 0");
}

TEST(Config, StringForInteger) {
    EXPECT_EQ(json_error(R"({"cube": {"l0_kib": "abc"}})"),
              "configs/x.json: cube.l0_kib: expected a positive integer, got \"abc\"");
}

TEST(Config, FloatForInteger) {
    EXPECT_EQ(json_error(R"({"cube": {"l0_kib": 4.5}})"),
              "configs/x.json: cube.l0_kib: expected a positive integer, got 4.5");
    EXPECT_EQ(json_error(R"({"cube": {"l0_kib": 4.0}})"),
              "configs/x.json: cube.l0_kib: expected a positive integer, got 4.0");
}

TEST(Config, BoolForInteger) {
    EXPECT_EQ(json_error(R"({"cluster": {"cubes": true}})"),
              "configs/x.json: cluster.cubes: expected a positive integer, got true");
}

TEST(Config, NullArrayAndObjectForInteger) {
    EXPECT_EQ(json_error(R"({"cube": {"l0_kib": null}})"),
              "configs/x.json: cube.l0_kib: expected a positive integer, got null");
    EXPECT_EQ(json_error(R"({"cube": {"l0_kib": [1, 2]}})"),
              "configs/x.json: cube.l0_kib: expected a positive integer, got [1,2]");
    EXPECT_EQ(json_error(R"({"cube": {"l0_kib": {"a": 1}}})"),
              "configs/x.json: cube.l0_kib: expected a positive integer, got {\"a\":1}");
}

TEST(Config, IntegerTooLargeToStore) {
    EXPECT_EQ(json_error(R"({"cube": {"l0_kib": 18446744073709551615}})"),
              "configs/x.json: cube.l0_kib: 18446744073709551615 is too large (at most 1048576)");
}

// Capped so that derived byte counts cannot overflow: 2^31 - 1 is accepted,
// 2^31 is not.
TEST(Config, IntegerCap) {
    arch::Config c = arch::config_from_json(testjson::parse(R"({"ddr": {"size_gib": 2147483647}})"), "x");
    EXPECT_EQ(c.ddr_bytes(), int64_t{2147483647} << 30);
    EXPECT_EQ(json_error(R"({"ddr": {"size_gib": 2147483648}})"),
              "configs/x.json: ddr.size_gib: 2147483648 is too large (at most 2147483647)");
}

TEST(Config, NegativeLatency) {
    EXPECT_EQ(json_error(R"({"ddr": {"latency_cycles": -1}})"),
              "configs/x.json: ddr.latency_cycles: expected a non-negative integer, got -1");
}

TEST(Config, BadClock) {
    EXPECT_EQ(json_error(R"({"clock_ghz": 0})"),
              "configs/x.json: clock_ghz: expected a number from 0.001 to 1000, got 0");
    EXPECT_EQ(json_error(R"({"clock_ghz": -0.5})"),
              "configs/x.json: clock_ghz: expected a number from 0.001 to 1000, got -0.5");
    EXPECT_EQ(json_error(R"({"clock_ghz": "1GHz"})"),
              "configs/x.json: clock_ghz: expected a number from 0.001 to 1000, got \"1GHz\"");
}

// A vector op class's rate (§8): hundredths of a cycle, written as a number
// with at most two decimals; JSON gives it back as written.
TEST(Config, CyclesPerRepeat) {
    const arch::Config c = arch::config_from_json(
        testjson::parse(R"({"vector": {"add": {"cycles_per_repeat": 2.11}, "mul": {"cycles_per_repeat": 3}}})"), "x");
    EXPECT_EQ(c.vector_add_rate.value, 211);
    EXPECT_EQ(c.vector_mul_rate.value, 300);
    EXPECT_EQ(arch::config_to_json(c)["vector"]["add"]["cycles_per_repeat"].dump(), "2.11");
    EXPECT_EQ(arch::config_to_json(c)["vector"]["mul"]["cycles_per_repeat"].dump(), "3.0");
    EXPECT_EQ(arch::config_to_json(arch::default_config())["vector"]["transcendental"]["cycles_per_repeat"].dump(),
              "4.0");
    const char* expected = "expected a number from 0.01 to 10000 with at most two decimals";
    EXPECT_EQ(json_error(R"({"vector": {"add": {"cycles_per_repeat": 2.115}}})"),
              std::string("configs/x.json: vector.add.cycles_per_repeat: ") + expected + ", got 2.115");
    EXPECT_EQ(json_error(R"({"vector": {"add": {"cycles_per_repeat": 0}}})"),
              std::string("configs/x.json: vector.add.cycles_per_repeat: ") + expected + ", got 0");
    EXPECT_EQ(json_error(R"({"vector": {"divide": {"cycles_per_repeat": 10000.01}}})"),
              std::string("configs/x.json: vector.divide.cycles_per_repeat: ") + expected + ", got 10000.01");
    EXPECT_EQ(json_error(R"({"vector": {"copy": {"cycles_per_repeat": "1"}}})"),
              std::string("configs/x.json: vector.copy.cycles_per_repeat: ") + expected + ", got \"1\"");
}

// The keys the op classes replaced point to their replacements.
TEST(Config, FormerVectorKeysNameTheirReplacements) {
    EXPECT_EQ(json_error(R"({"vector": {"transcendental_passes": 4}})"),
              "configs/x.json: vector.transcendental_passes: unknown key (replaced by "
              "vector.transcendental.cycles_per_repeat (docs/timing-model.md §8))");
    EXPECT_EQ(json_error(R"({"vector": {"pipeline_cycles": 8}})"),
              "configs/x.json: vector.pipeline_cycles: unknown key (replaced by vector.<class>.head_cycles, one per "
              "op class (docs/timing-model.md §8))");
}

TEST(Config, UnknownKeyWithSuggestion) {
    EXPECT_EQ(json_error(R"({"cube": {"l0_kb": 32}})"),
              "configs/x.json: cube.l0_kb: unknown key (did you mean cube.l0_kib?)");
}

TEST(Config, KeyInWrongSectionSuggestsItsHome) {
    EXPECT_EQ(json_error(R"({"cube": {"dma_engines": 2}})"),
              "configs/x.json: cube.dma_engines: unknown key "
              "(did you mean cluster.dma_engines?)");
}

TEST(Config, UnknownKeyWithoutSuggestion) {
    EXPECT_EQ(json_error(R"({"cube": {"frobnicate": 1}})"), "configs/x.json: cube.frobnicate: unknown key");
}

TEST(Config, UnknownSectionWithSuggestion) {
    EXPECT_EQ(json_error(R"({"clsuter": {"cubes": 2}})"),
              "configs/x.json: clsuter: unknown key (did you mean cluster?)");
}

TEST(Config, UnknownTopLevelKeyWithoutSuggestion) {
    EXPECT_EQ(json_error(R"({"banana": 1})"), "configs/x.json: banana: unknown key");
}

TEST(Config, DottedKeyMustBeNested) {
    EXPECT_EQ(json_error(R"({"cube.l0_kib": 32})"),
              "configs/x.json: cube.l0_kib: unknown key "
              "(write it nested: {\"cube\": {\"l0_kib\": ...}})");
}

TEST(Config, SectionNotAnObject) {
    EXPECT_EQ(json_error(R"({"cube": 5})"), "configs/x.json: cube: expected an object, got 5");
    EXPECT_EQ(json_error(R"({"ddr": [1]})"), "configs/x.json: ddr: expected an object, got [1]");
}

TEST(Config, TopLevelNotAnObject) {
    EXPECT_EQ(json_error("[1]"), "configs/x.json: expected a JSON object at the top level, got [1]");
    EXPECT_EQ(json_error("7"), "configs/x.json: expected a JSON object at the top level, got 7");
}

// nlohmann::json sorts keys, so "first" is first in key order: "chip" before
// "cube" even though the file says cube first.
TEST(Config, ReportsFirstProblemInKeyOrder) {
    EXPECT_EQ(json_error(R"({"cube": {"l0_kib": -1}, "chip": {"clusters": 0}})"),
              "configs/x.json: chip.clusters: expected a positive integer, got 0");
}

TEST_F(ConfigFileTest, InvalidJsonHasLineAndColumn) {
    EXPECT_EQ(load_error("{\n  \"cube\": {\"l0_kib\": 32,}\n}\n"),
              "PATH:2:25: invalid JSON: syntax error while parsing object key - "
              "unexpected '}'; expected string literal");
}

TEST_F(ConfigFileTest, InvalidJsonAtEndOfInput) {
    EXPECT_EQ(load_error("{\n"),
              "PATH:2:1: invalid JSON: syntax error while parsing object key - "
              "unexpected end of input; expected string literal");
    EXPECT_EQ(load_error(""),
              "PATH:1:1: invalid JSON: syntax error while parsing value - "
              "unexpected end of input; expected '[', '{', or a literal");
}

// nlohmann throws an overflow without a position; the loader still finds one.
TEST_F(ConfigFileTest, NumberOverflowHasLineAndColumn) {
    EXPECT_EQ(load_error("{\n  \"clock_ghz\": 1e400\n}\n"), "PATH:2:20: invalid JSON: number overflow parsing '1e400'");
}

TEST_F(ConfigFileTest, MissingFile) {
    const std::string path = (dir_ / "absent.json").string();
    try {
        arch::load_config_file(path);
        FAIL() << "no error";
    } catch (const arch::ConfigError& e) {
        EXPECT_EQ(std::string(e.what()), path + ": cannot open file");
    }
}

TEST_F(ConfigFileTest, DirectoryIsNotAFile) {
    try {
        arch::load_config_file(dir_.string());
        FAIL() << "no error";
    } catch (const arch::ConfigError& e) {
        EXPECT_EQ(std::string(e.what()), dir_.string() + ": cannot open file");
    }
}

TEST_F(ConfigFileTest, ValidationMessagesNameTheFile) {
    EXPECT_EQ(load_error(R"({"sync": {"flag_latency_cycles": -2}})"),
              "PATH: sync.flag_latency_cycles: expected a non-negative integer, got -2");
}

// A split L0 (Ascend-style L0A/L0B/L0C) gives all three buffers, summing to
// cube.l0_kib; none of them means one L0.
TEST(Config, SplitL0) {
    EXPECT_EQ(json_error(R"({"cube": {"l0_kib": 256, "l0a_kib": 64, "l0b_kib": 64, "l0c_kib": 128}})"), "(no error)");
    EXPECT_EQ(json_error(R"({"cube": {"l0a_kib": 64}})"),
              "configs/x.json: cube.l0a_kib, cube.l0b_kib, cube.l0c_kib: give all three (a split L0) or none, got 64, "
              "0, 0");
    EXPECT_EQ(json_error(R"({"cube": {"l0_kib": 32, "l0a_kib": 64, "l0b_kib": 64, "l0c_kib": 128}})"),
              "configs/x.json: cube.l0_kib: 32 is not the sum of the split L0 buffers (64 + 64 + 128 KiB)");
    arch::Config c = arch::config_from_json(testjson::parse(R"({"cube": {"l0_kib": 32, "l0a_kib": 8, "l0b_kib": 8,
                                                                    "l0c_kib": 16}})"),
                                            "x");
    EXPECT_TRUE(c.l0_split());
    EXPECT_FALSE(arch::default_config().l0_split());
}

TEST(Config, ParamsFollowTheDeclarationList) {
    const auto& params = arch::config_params();
    ASSERT_EQ(params.size(), kDeclaredParams);
    EXPECT_EQ(params.front().path, "clock_ghz");
    EXPECT_EQ(params.front().kind, "number 0.001..1000");
    EXPECT_EQ(params.front().unit, "GHz");
    EXPECT_EQ(params.front().default_text, "1.0");
}

TEST(Config, ParamsAgreeWithConfigToJson) {
    const json defaults = arch::config_to_json(arch::default_config());
    for (const arch::ParamInfo& p : arch::config_params()) {
        std::string pointer = "/" + p.path;
        for (char& ch : pointer)
            if (ch == '.') ch = '/';
        ASSERT_TRUE(defaults.contains(json::json_pointer(pointer))) << p.path;
        EXPECT_EQ(defaults.at(json::json_pointer(pointer)).dump(), p.default_text) << p.path;
    }
}

TEST(Config, DescribeMentionsEveryParameter) {
    const std::string text = arch::describe_config_params();
    for (const arch::ParamInfo& p : arch::config_params())
        EXPECT_NE(text.find("  " + p.path + " "), std::string::npos) << p.path;
    EXPECT_NE(text.find("GB/s"), std::string::npos);
}

// Column positions, not widths, so adding a longer parameter keeps this test.
TEST(Config, DescribeAlignsColumns) {
    const std::string text = arch::describe_config_params();
    std::size_t kind_column = std::string::npos, description_column = std::string::npos;
    for (const arch::ParamInfo& p : arch::config_params()) {
        const auto start = text.find("  " + p.path + " ");
        ASSERT_NE(start, std::string::npos) << p.path;
        const std::string line = text.substr(start, text.find('\n', start) - start);
        const auto kind_at = line.find(p.kind);
        const auto description_at = line.rfind(p.description);
        if (kind_column == std::string::npos) {
            kind_column = kind_at;
            description_column = description_at;
        }
        EXPECT_EQ(kind_at, kind_column) << line;
        EXPECT_EQ(description_at, description_column) << line;
        EXPECT_EQ(description_at + p.description.size(), line.size()) << line;
    }
    EXPECT_NE(text.find("  cube.l0_kib "), std::string::npos);
    EXPECT_NE(text.find(" 32 KiB "), std::string::npos);
    EXPECT_NE(text.find(" 1.0 GHz "), std::string::npos);
}

}  // namespace
