// The instance of each example model (models/*.pto) that the tests run:
// shapes for its None dims and values for its pypo.params, small enough that
// every model is compiled, simulated and --check'ed in seconds (the LLM
// models at a small GQA shape, MobileNet-v2 at resolution 32;
// tests/cli/llama_models_test.cpp and the models' own tests run the
// published sizes). One table for the tests that walk models/:
// tests/cli/models_test.cpp, tests/cli/functional_test.cpp and
// tests/func/interleaving_test.cpp. A model not listed needs nothing.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace testmodels {

struct Instance {
    std::map<std::string, std::vector<int64_t>> shapes;  // --shape NAME=D1,D2,...
    std::map<std::string, std::string> params;           // --param NAME=VALUE
};

// `model` is a file name or a path; super_resolution*.pto share one frame.
inline Instance instance(const std::string& model) {
    const std::string name = std::filesystem::path(model).filename().string();
    if (name == "resnet50.pto") return {{{"input", {1, 3, 224, 224}}}, {}};
    // A 32x24 frame: the resolution is open, and the full network runs at any.
    if (name.rfind("super_resolution", 0) == 0) return {{{"img", {1, 1, 24, 32}}}, {}};
    if (name == "flash_attention.pto") return {{{"q", {512, 128}}, {"kt", {128, 512}}, {"v", {512, 128}}}, {}};
    const std::map<std::string, std::string> llama = {
        {"hidden", "256"}, {"heads", "4"}, {"kv_heads", "2"}, {"intermediate", "512"}};
    if (name == "llama_decode.pto") {
        Instance i{{{"x", {2, 256}}, {"k_cache", {1, 2, 2, 64, 16}}, {"v_cache", {1, 2, 2, 16, 64}}}, llama};
        i.params["pos"] = "9";
        return i;
    }
    if (name == "llama_prefill.pto") return {{{"x", {2, 16, 256}}, {"cos", {16, 64}}, {"sin", {16, 64}}}, llama};
    if (name == "qwen3_32b_decode.pto")
        return {{{"x", {2, 256}}, {"k_cache", {1, 2, 2, 64, 8}}, {"v_cache", {1, 2, 2, 8, 64}}},
                {{"hidden", "256"},
                 {"heads", "8"},
                 {"kv_heads", "2"},
                 {"head_dim", "64"},
                 {"intermediate", "512"},
                 {"pos", "5"}}};
    // MobileNet-v2 at a small resolution (a pypo.param); the block as its
    // header runs it.
    if (name == "mobilenet_v2.pto") return {{{"image", {1, 32, 32, 3}}}, {{"resolution", "32"}}};
    if (name == "mobilenet_v2_block.pto") return {{{"x", {1, 56, 56, 24}}}, {}};
    return {};
}

// The instance as davinci-sim options, each followed by a space.
inline std::string instance_args(const std::string& model) {
    const Instance i = instance(model);
    std::string s;
    for (const auto& [name, value] : i.params) s += "--param " + name + "=" + value + " ";
    for (const auto& [name, dims] : i.shapes) {
        s += "--shape " + name + "=";
        for (size_t k = 0; k < dims.size(); ++k) s += (k ? "," : "") + std::to_string(dims[k]);
        s += " ";
    }
    return s;
}

}  // namespace testmodels
