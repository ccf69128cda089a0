// The hardware contract: one Config per simulated chip, loaded from JSON and
// validated against the declarations in config_params.def.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace arch {

// How the cube's MAC array computes a MATMUL (docs/timing-model.md §7):
// the DaVinci-style fractal cube, or a systolic array that is output-,
// weight- or input-stationary (SCALE-Sim v2's os, ws, is).
enum class Dataflow { Fractal, OS, WS, IS };

// "fractal", "os", "ws", "is": the spelling in configuration files.
const char* dataflow_name(Dataflow d);

// A rate in hundredths of a cycle (a vector op's cycles per repeat, timing
// model §8), so that a measured fit such as 2.11 cycles per repeat is kept
// exactly and every sum of rates stays integer. Written 2.11 in JSON.
struct Hundredths {
    int64_t value = 0;
    bool operator==(const Hundredths& o) const { return value == o.value; }
};

struct Config {
#define X(kind, member, path, unit, def, desc) kind##_t member = def;
    using PositiveInt_t = int64_t;
    using NonNegativeInt_t = int64_t;
    using UnitCount_t = int64_t;
    using BufferKib_t = int64_t;
    using OptionalBufferKib_t = int64_t;
    using ClockGhz_t = double;
    using DataflowChoice_t = Dataflow;
    using CyclesPerRepeat_t = Hundredths;
    using Switch_t = bool;
#include "sim/arch/config_params.def"
#undef X

    int64_t cubes_total() const { return clusters * cubes_per_cluster; }
    bool systolic() const { return cube_dataflow != Dataflow::Fractal; }
    // Peak float16 MACs per cycle of one cube: R x Q x k_per_cycle for the
    // fractal cube, R x C for a systolic array (one MAC per processing
    // element). Other dtypes' peaks: sim/arch/cube_rate.h.
    int64_t macs_per_cycle() const { return systolic() ? mac_rows * mac_cols : mac_rows * mac_cols * cube_k_per_cycle; }
    int64_t l0_bytes() const { return l0_kib * 1024; }
    // L0 split into an A, a B and a C buffer (cube.l0a_kib ...), laid out in
    // that order in the cube's L0 address space.
    bool l0_split() const { return l0a_kib > 0; }
    int64_t l1_bytes() const { return l1_kib * 1024; }
    int64_t ddr_bytes() const { return ddr_gib * (int64_t{1} << 30); }
    // The vector units' own Unified Buffers (vector.buffer_kib > 0): each
    // unit computes in its own and has a DMA engine moving DDR <-> UB;
    // without, the vector units compute on the cluster's L1 (§2).
    bool vector_buffer() const { return vector_buffer_kib > 0; }
    int64_t ub_bytes() const { return vector_buffer_kib * 1024; }
    // DMA engines per vector unit: a load and a store engine with a
    // Unified Buffer, else none.
    int64_t vector_dmas_per_unit() const { return vector_buffer() ? 2 : 0; }
    // Dispatch sides per cluster (timing model §4): the cube side and the
    // vector side with vector.separate_cores, else one (the whole cluster).
    int64_t dispatch_sides() const { return vector_separate_cores ? 2 : 1; }
    // The L2 cache (timing model §6.1), present when l2.kib > 0.
    bool l2_present() const { return l2_kib > 0; }
    // The L2 has a write port of its own (§6.1).
    bool l2_write_port() const { return l2_present() && l2_write_bytes_per_cycle > 0; }
    int64_t l2_sets() const { return l2_kib * 1024 / (l2_line_bytes * l2_ways); }
};

// One declared parameter, for listings and docs.
struct ParamInfo {
    std::string path;          // "cube.l0_kib"
    std::string kind;          // "positive integer", ...
    std::string unit;          // "KiB" or ""
    std::string default_text;  // "32"
    std::string description;
};

// A bad configuration. what() is the full message, e.g.
// "configs/x.json: cube.l0_kib: expected a positive integer, got -3".
class ConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

const std::vector<ParamInfo>& config_params();

// The built-in default (the user documents' hardware).
Config default_config();

// Parses and validates. `origin` names the source in messages (a file path).
// Every key is optional: a missing key keeps its default.
Config config_from_json(const nlohmann::json& j, const std::string& origin);
// The text of a config file (duplicate keys are refused; syntax errors are
// located as ORIGIN:LINE:COL).
Config config_from_text(const std::string& text, const std::string& origin);
Config load_config_file(const std::string& path);

// One key of the file given on its own, as `davinci-sim --set PATH=VALUE`
// does: the dotted path of --help-config ("ddr.bytes_per_cycle", or a
// section with an object), checked as that key is in a file (same message,
// same bounds, a did-you-mean for an unknown path) and applied to `c`.
// Throws ConfigError "ORIGIN: PATH: ...". The checks across parameters
// are check_config's, for after the last key.
void set_config_param(Config& c, const std::string& path, const nlohmann::json& value, const std::string& origin);
// The VALUE of --set PATH=VALUE: JSON (64, 1.5, true, "os"); text that is
// not JSON is a string, so that --set cube.dataflow=os needs no
// shell-quoted quotes.
nlohmann::json setting_value(const std::string& text);

// The checks across parameters (a split L0, the engine total, the smallest
// cube tile) that config_from_json makes once every key is read.
void check_config(const Config& c, const std::string& origin);

// Nested JSON with every parameter (nlohmann orders keys alphabetically).
nlohmann::json config_to_json(const Config& c);

// The `--help-config` listing.
std::string describe_config_params();

}  // namespace arch
