// arch::set_config_param and arch::check_config (davinci-sim --set): one key
// set on its own and then the checks across keys give exactly what the same
// key in a configuration file gives, message for message.
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sim/arch/config.h"

namespace {

using nlohmann::json;

// {"cube": {"l0_kib": v}} for "cube.l0_kib".
json nested(const std::string& path, const json& value) {
    json j = value;
    for (size_t end = path.size(); end != std::string::npos;) {
        const size_t dot = path.rfind('.', end - 1);
        const size_t start = dot == std::string::npos ? 0 : dot + 1;
        j = json{{path.substr(start, end - start), j}};
        end = dot == std::string::npos ? std::string::npos : dot;
    }
    return j;
}

// The configuration, or the message of the ConfigError.
struct Result {
    std::optional<json> config;
    std::string error;
};

Result from_file(const json& j) {
    try {
        return {arch::config_to_json(arch::config_from_json(j, "o")), ""};
    } catch (const arch::ConfigError& e) {
        return {std::nullopt, e.what()};
    }
}

Result from_set(const std::string& path, const json& value) {
    try {
        arch::Config c = arch::default_config();
        arch::set_config_param(c, path, value, "o");
        arch::check_config(c, "o");
        return {arch::config_to_json(c), ""};
    } catch (const arch::ConfigError& e) {
        return {std::nullopt, e.what()};
    }
}

}  // namespace

// Every declared parameter, with values of every kind and at the bounds.
TEST(ConfigSet, EveryParameterAsInAFile) {
    const std::vector<json> values = {0,
                                      1,
                                      -1,
                                      2,
                                      3.5,
                                      1024,
                                      1025,
                                      (int64_t{1} << 20) + 1,
                                      int64_t{1} << 31,
                                      true,
                                      "os",
                                      "x",
                                      nullptr,
                                      json::array({1}),
                                      0.0005,
                                      1000.5};
    size_t refused = 0, accepted = 0;
    for (const arch::ParamInfo& p : arch::config_params())
        for (const json& v : values) {
            const Result file = from_file(nested(p.path, v)), set = from_set(p.path, v);
            EXPECT_EQ(set.error, file.error) << p.path << " = " << v.dump();
            EXPECT_EQ(set.config, file.config) << p.path << " = " << v.dump();
            ++(set.config ? accepted : refused);
        }
    // Both outcomes are exercised, not one of them only.
    EXPECT_GT(refused, arch::config_params().size() * 5);
    EXPECT_GT(accepted, arch::config_params().size());
}

TEST(ConfigSet, ASectionTakesAnObject) {
    const json l0 = {{"l0a_kib", 8}, {"l0b_kib", 8}, {"l0c_kib", 16}};
    EXPECT_EQ(from_set("cube", l0).config, from_file({{"cube", l0}}).config);
    EXPECT_EQ(from_set("cube", 8).error, "o: cube: expected an object, got 8");
}

TEST(ConfigSet, AnUnknownPathGetsTheNearestFullPath) {
    EXPECT_EQ(from_set("ddr.bytes_per_cyle", 64).error,
              "o: ddr.bytes_per_cyle: unknown key (did you mean ddr.bytes_per_cycle?)");
    EXPECT_EQ(from_set("dr.bytes_per_cycle", 64).error,
              "o: dr.bytes_per_cycle: unknown key (did you mean ddr.bytes_per_cycle?)");
    EXPECT_EQ(from_set("frobnicate", 1).error, "o: frobnicate: unknown key");
}

// set_config_param checks the key only: the split L0 is check_config's.
TEST(ConfigSet, TheChecksAcrossKeysWaitForCheckConfig) {
    arch::Config c = arch::default_config();
    arch::set_config_param(c, "cube.l0a_kib", 8, "o");
    EXPECT_EQ(c.l0a_kib, 8);
    try {
        arch::check_config(c, "o");
        ADD_FAILURE() << "no error";
    } catch (const arch::ConfigError& e) {
        EXPECT_STREQ(e.what(),
                     "o: cube.l0a_kib, cube.l0b_kib, cube.l0c_kib: give all three (a split L0) or none, got 8, 0, 0");
    }
}
