// The programs the functional and dependency tests run: every program of
// tests/functional and the example models (each at its instance,
// tests/support/model_instances.h), with the helpers that list and name them.
#pragma once

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/support/model_instances.h"

namespace clitest {

inline std::vector<std::string> pto_files(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(std::string(DAVINCI_SOURCE_DIR) + "/" + dir))
        if (e.path().extension() == ".pto") names.push_back(dir + "/" + e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// Extra arguments a model needs (tests/support/model_instances.h).
inline std::string extra_args(const std::string& path) { return testmodels::instance_args(path); }

inline std::string test_name(const testing::TestParamInfo<std::string>& i) {
    std::string n = std::filesystem::path(i.param).stem().string();
    for (char& c : n)
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
}

inline std::vector<std::string> checked_programs() {
    std::vector<std::string> p = pto_files("tests/functional");
    // Its float16 overflow cannot be cured (MixedPrecisionKeepsFloat16...).
    p.erase(std::remove(p.begin(), p.end(), "tests/functional/mixed_too_big.pto"), p.end());
    for (const char* m : {"models/gemm_256.pto", "models/resnet_block.pto", "models/slide.pto", "models/transpose.pto",
                          "models/memory_placement.pto", "models/super_resolution.pto",
                          "models/super_resolution_naive.pto", "models/attention.pto", "models/kv_append.pto",
                          "models/flash_attention.pto", "models/llama_decode.pto", "models/llama_prefill.pto",
                          "models/qwen3_32b_decode.pto", "models/mobilenet_v2_block.pto", "models/mobilenet_v2.pto"})
        p.push_back(m);
    return p;
}

}  // namespace clitest
