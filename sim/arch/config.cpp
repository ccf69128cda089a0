// The hardware configuration: loader, validation, default and listing, all
// generated from config_params.def so that adding a parameter is one line
// there and nothing here.
#include "sim/arch/config.h"

#include "sim/arch/json_text.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iomanip>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

namespace arch {

namespace {
constexpr Dataflow kDataflows[] = {Dataflow::Fractal, Dataflow::OS, Dataflow::WS, Dataflow::IS};
}  // namespace

const char* dataflow_name(Dataflow d) {
    switch (d) {
    case Dataflow::Fractal: return "fractal";
    case Dataflow::OS: return "os";
    case Dataflow::WS: return "ws";
    case Dataflow::IS: return "is";
    }
    return "?";
}

// Found by argument-dependent lookup when a parameter is written as JSON.
void to_json(nlohmann::json& j, Dataflow d) { j = dataflow_name(d); }
// 211 hundredths -> 2.11 (the nearest double, which prints as 2.11).
void to_json(nlohmann::json& j, Hundredths h) { j = double(h.value) / 100.0; }

namespace {

using nlohmann::json;

// Integer parameters are capped so that every size derived from them (bytes
// of DDR, cycles of a transfer) stays far from 64-bit overflow.
constexpr int64_t kMaxInteger = (int64_t{1} << 31) - 1;

bool too_large(const json& v, int64_t max) {
    return (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(max)) ||
           (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() > max);
}

// A float such as 4.0 is refused, not truncated: a count or size written as
// a float is more likely a mistake than an intent.
bool read_integer(const json& v, int64_t min, int64_t max, int64_t& out) {
    if (!v.is_number_integer() || too_large(v, max)) return false;
    out = v.is_number_unsigned() ? int64_t(v.get<uint64_t>()) : v.get<int64_t>();
    return out >= min;
}

// One type per kind of the .def list, named like the kind so the X-macro can
// name it directly. read() returns false for a wrong type or an out-of-range
// value; the caller turns that into a message built from `expected`, or,
// for an integer above `max`, "is too large (at most MAX)".
struct PositiveInt {
    static constexpr const char* kind = "positive integer";
    static constexpr const char* expected = "a positive integer";
    static constexpr int64_t max = kMaxInteger;
    static bool read(const json& v, int64_t& out) { return read_integer(v, 1, max, out); }
};

struct NonNegativeInt {
    static constexpr const char* kind = "non-negative integer";
    static constexpr const char* expected = "a non-negative integer";
    static constexpr int64_t max = kMaxInteger;
    static bool read(const json& v, int64_t& out) { return read_integer(v, 0, max, out); }
};

// Counts of simulated units and MAC-array dimensions. Each unit is SystemC
// modules and a thread, and the compiler tiles by the array's dimensions:
// beyond a thousand, a value is a typo, and it would exhaust memory (65,536
// cubes abort with bad_alloc) or overflow the tile arithmetic long before
// it said anything useful.
struct UnitCount {
    static constexpr const char* kind = "integer 1..1024";
    static constexpr const char* expected = "a positive integer";  // above 1024: "is too large"
    static constexpr int64_t max = 1024;
    static bool read(const json& v, int64_t& out) { return read_integer(v, 1, max, out); }
};

// On-chip buffer sizes in KiB: up to 1 GiB, a thousand times any real L1,
// so that a TB-sized L1 (a units mistake) is refused rather than simulated.
struct BufferKib {
    static constexpr const char* kind = "integer 1..1048576";
    static constexpr const char* expected = "a positive integer";  // above 2^20: "is too large"
    static constexpr int64_t max = int64_t{1} << 20;
    static bool read(const json& v, int64_t& out) { return read_integer(v, 1, max, out); }
};

// A buffer that a machine may not have (vector.buffer_kib): 0 is none,
// otherwise as BufferKib.
struct OptionalBufferKib {
    static constexpr const char* kind = "integer 0..1048576";
    static constexpr const char* expected = "a non-negative integer";  // above 2^20: "is too large"
    static constexpr int64_t max = int64_t{1} << 20;
    static bool read(const json& v, int64_t& out) { return read_integer(v, 0, max, out); }
};

// The clock only converts cycles to seconds; the bounds keep that finite
// and meaningful (1 MHz to 1 THz).
struct ClockGhz {
    static constexpr const char* kind = "number 0.001..1000";
    static constexpr const char* expected = "a number from 0.001 to 1000";
    static constexpr int64_t max = 0;  // not an integer kind
    static bool read(const json& v, double& out) {
        if (!v.is_number()) return false;  // booleans are not numbers in nlohmann
        const double d = v.get<double>();
        if (!(d >= 0.001 && d <= 1000)) return false;  // also refuses NaN
        out = d;
        return true;
    }
};

// A vector op's cycles per repeat (timing model §8): a number with at most
// two decimals, kept as hundredths so that the timing stays integer. Above
// zero: a free pass over the data is a mistake, not a machine.
struct CyclesPerRepeat {
    static constexpr const char* kind = "number 0.01..10000, two decimals at most";
    static constexpr const char* expected = "a number from 0.01 to 10000 with at most two decimals";
    static constexpr int64_t max = 0;  // not an integer kind
    static bool read(const json& v, Hundredths& out) {
        if (!v.is_number()) return false;
        const double scaled = v.get<double>() * 100.0;
        if (!(scaled >= 1.0 && scaled <= 1000000.0)) return false;  // also refuses NaN
        const double whole = std::round(scaled);
        if (std::fabs(scaled - whole) > 1e-6 * std::max(1.0, whole)) return false;  // 2.115: three decimals
        out.value = int64_t(whole);
        return true;
    }
};

// A string naming one of the dataflows; `kind` doubles as the list of
// choices in --help-config.
struct DataflowChoice {
    static constexpr const char* kind = "fractal|os|ws|is";
    static constexpr const char* expected = "one of fractal, os, ws, is";
    static constexpr int64_t max = 0;  // not an integer kind
    static bool read(const json& v, Dataflow& out) {
        if (!v.is_string()) return false;
        for (Dataflow d : kDataflows)
            if (v.get<std::string>() == dataflow_name(d)) {
                out = d;
                return true;
            }
        return false;
    }
};

// A machine's yes-or-no property: JSON true or false (not 0 or 1, which
// are more likely a count given to the wrong key).
struct Switch {
    static constexpr const char* kind = "true|false";
    static constexpr const char* expected = "true or false";
    static constexpr int64_t max = 0;  // not an integer kind
    static bool read(const json& v, bool& out) {
        if (!v.is_boolean()) return false;
        out = v.get<bool>();
        return true;
    }
};

// Everything the loader needs to know about one parameter. Captureless
// lambdas give each parameter typed access to its own member without a
// parameter name being written anywhere but the .def file.
struct ParamSpec {
    const char* path;
    const char* kind;
    const char* expected;
    const char* unit;
    const char* description;
    int64_t max;  // an integer kind's largest value, else 0
    bool (*read)(const json& value, Config& c);
    json (*write)(const Config& c);
};

// A table expansion, left as written.
// clang-format off
const ParamSpec kParams[] = {
#define X(kind_, member, path_, unit_, def, desc)                                  \
    {path_, kind_::kind, kind_::expected, unit_, desc, kind_::max,                  \
     [](const json& v, Config& c) { return kind_::read(v, c.member); },            \
     [](const Config& c) { return json(c.member); }},
#include "sim/arch/config_params.def"
#undef X
};
// clang-format on

std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    std::string::size_type start = 0;
    for (;;) {
        const auto dot = path.find('.', start);
        parts.push_back(path.substr(start, dot - start));
        if (dot == std::string::npos) return parts;
        start = dot + 1;
    }
}

// Dotted prefixes of `path` with `n` segments, e.g. ("cube.l0_kib", 1) -> "cube".
std::string path_prefix(const std::vector<std::string>& parts, std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += (i ? "." : "") + parts[i];
    return s;
}

const ParamSpec* find_param(const std::string& path) {
    for (const ParamSpec& p : kParams)
        if (path == p.path) return &p;
    return nullptr;
}

// A section is any proper prefix of a declared path ("cube", "chip", ...).
bool is_section(const std::string& path) {
    for (const ParamSpec& p : kParams) {
        const std::string full = p.path;
        if (full.size() > path.size() && full.compare(0, path.size(), path) == 0 && full[path.size()] == '.')
            return true;
    }
    return false;
}

std::size_t levenshtein(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// The nearest valid name at the same nesting level, compared as full paths so
// that a key put in the wrong section ("cube.dma_engines") still finds its
// home ("cluster.dma_engines"). Ties go to the earlier declaration.
std::string suggest(const std::string& unknown, std::size_t depth) {
    std::string best;
    std::size_t best_distance = std::numeric_limits<std::size_t>::max();
    for (const ParamSpec& p : kParams) {
        const auto parts = split_path(p.path);
        if (parts.size() < depth) continue;
        const std::string candidate = path_prefix(parts, depth);
        const std::size_t d = levenshtein(unknown, candidate);
        if (d < best_distance) {
            best_distance = d;
            best = candidate;
        }
    }
    const std::size_t limit = std::max<std::size_t>(2, unknown.size() / 3);
    return best_distance <= limit ? best : std::string();
}

// Compact JSON for messages. `replace` because a hand-built json (not one
// from the parser) may hold invalid UTF-8, and a message must not throw.
std::string compact(const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace); }

// {"cube": {"l0_kib": ...}} for the dotted key "cube.l0_kib".
std::string nested_form(const std::string& dotted_key) {
    const auto parts = split_path(dotted_key);
    std::string open, close;
    for (const std::string& part : parts) {
        open += "{" + json(part).dump() + ": ";
        close += "}";
    }
    return open + "..." + close;
}

[[noreturn]] void fail(const std::string& origin, const std::string& what) { throw ConfigError(origin + ": " + what); }

void apply_param(const ParamSpec& p, const json& value, Config& c, const std::string& origin) {
    if (p.read(value, c)) return;
    if (p.max > 0 && too_large(value, p.max))
        fail(origin,
             std::string(p.path) + ": " + compact(value) + " is too large (at most " + std::to_string(p.max) + ")");
    fail(origin, std::string(p.path) + ": expected " + p.expected + ", got " + compact(value));
}

// Keys an earlier release had, and what replaced them: a file written for
// it is told where its value now goes rather than guessed at.
struct ReplacedKey {
    const char* path;
    const char* replacement;
};
const ReplacedKey kReplacedKeys[] = {
    {"vector.pipeline_cycles", "vector.<class>.head_cycles, one per op class (docs/timing-model.md §8)"},
    {"vector.transcendental_passes", "vector.transcendental.cycles_per_repeat (docs/timing-model.md §8)"},
    {"vector.divide_passes", "vector.divide.cycles_per_repeat (docs/timing-model.md §8)"},
    {"vector.transpose_passes", "vector.transpose.cycles_per_repeat (docs/timing-model.md §8)"},
};

std::string unknown_key(const std::string& path, std::size_t depth) {
    for (const ReplacedKey& r : kReplacedKeys)
        if (path == r.path) return path + ": unknown key (replaced by " + r.replacement + ")";
    const std::string near = suggest(path, depth);
    return path + ": unknown key" + (near.empty() ? std::string() : " (did you mean " + near + "?)");
}

// Walks one JSON object whose keys live under `prefix` ("" at the top).
// nlohmann::json keeps object keys sorted, so "first problem in document
// order" here means first in key order: deterministic, if not the file's
// textual order.
void apply_object(const json& object, const std::string& prefix, std::size_t depth, Config& c,
                  const std::string& origin) {
    for (const auto& item : object.items()) {
        const std::string& key = item.key();
        const json& value = item.value();
        const std::string path = prefix.empty() ? key : prefix + "." + key;
        // A dotted key ({"cube.l0_kib": 32}) is not the nested form; refusing
        // it keeps one spelling per parameter.
        const bool plain_key = key.find('.') == std::string::npos;
        if (const ParamSpec* p = plain_key ? find_param(path) : nullptr) {
            apply_param(*p, value, c, origin);
        } else if (plain_key && is_section(path)) {
            if (!value.is_object()) fail(origin, path + ": expected an object, got " + compact(value));
            apply_object(value, path, depth + 1, c, origin);
        } else if (!plain_key && (find_param(path) || is_section(path))) {
            fail(origin, path + ": unknown key (write it nested: " + nested_form(key) + ")");
        } else {
            fail(origin, unknown_key(path, depth));
        }
    }
}

std::string describe_default(const ParamSpec& p, const Config& defaults) {
    const std::string value = p.write(defaults).dump();
    std::string unit = p.unit;
    // "1 cycle", not "1 cycles": units are declared in the plural.
    if (value == "1" && !unit.empty() && unit.back() == 's') unit.pop_back();
    return unit.empty() ? value : value + " " + unit;
}

// Every engine (a cube, its DMA engine, a cluster DMA engine, a vector
// unit) is a SystemC thread with its own stack, two memory mappings each;
// Linux allows 65,530 mappings per process by default, and 256 clusters of
// 64 cubes abort in SystemC's stack setup. 16,384 engines (1024 clusters of
// 7 cubes, measured: 4 s, 140 MB for gemm_256) leaves room to spare.
constexpr int64_t kMaxEngines = 16384;

void check_engine_total(const Config& c, const std::string& origin) {
    const int64_t per_vector = 1 + c.vector_dmas_per_unit();
    const int64_t engines = c.clusters * (2 * c.cubes_per_cluster + c.dma_engines + per_vector * c.vector_units);
    if (engines > kMaxEngines)
        fail(origin,
             "chip.clusters x (2 x cluster.cubes + cluster.dma_engines + " + std::string(per_vector > 1 ? "3 x " : "") +
                 "cluster.vector_units) = " + std::to_string(c.clusters) + " x (2 x " +
                 std::to_string(c.cubes_per_cluster) + " + " + std::to_string(c.dma_engines) + " + " +
                 (per_vector > 1 ? "3 x " : "") + std::to_string(c.vector_units) + ") = " + std::to_string(engines) +
                 " engines, at most " + std::to_string(kMaxEngines) + " (each is a simulated thread)");
}

// A memory that cannot hold the smallest cube tile the compiler chooses
// (mac_rows x k x mac_cols, k = the larger of the two, as
// dsl/lower/tiling/matmul_tiling.cpp starts its search) fails every matmul and
// convolution later, at the operation: refuse it here, naming the key. The
// least any program needs: float16 operands, single buffering
// (pypo.config.BUFFERS = 1), a float32 accumulator; for L1, the A and B
// tiles of one matmul step (docs/timing-model.md §2).
void check_smallest_tile(const Config& c, const std::string& origin) {
    const int64_t m = c.mac_rows, n = c.mac_cols, k = std::max(m, n);
    const std::string tile = "the smallest cube tile (" + std::to_string(m) + "x" + std::to_string(k) + "x" +
                             std::to_string(n) + ", for cube.mac_rows x cube.mac_cols = " + std::to_string(m) + "x" +
                             std::to_string(n) + ")";
    auto need = [&](const char* key, int64_t kib, int64_t bytes, const std::string& what) {
        const int64_t need_kib = (bytes + 1023) / 1024;
        if (kib < need_kib)
            fail(origin, std::string(key) + ": " + std::to_string(kib) + " KiB cannot hold " + what + ": it needs " +
                             std::to_string(need_kib) + " KiB");
    };
    const int64_t a = m * k * 2, b = k * n * 2, acc = m * n * 4;
    if (c.l0_split()) {
        need("cube.l0a_kib", c.l0a_kib, a, "the float16 A tile of " + tile);
        need("cube.l0b_kib", c.l0b_kib, b, "the float16 B tile of " + tile);
        need("cube.l0c_kib", c.l0c_kib, acc, "the float32 accumulator of " + tile);
    } else {
        need("cube.l0_kib", c.l0_kib, a + b + acc, tile + " with float16 A and B tiles and a float32 accumulator");
    }
    need("cluster.l1_kib", c.l1_kib, a + b, "the float16 A and B tiles of one matmul step on " + tile);
}

}  // namespace

const std::vector<ParamInfo>& config_params() {
    static const std::vector<ParamInfo> params = [] {
        const Config defaults;
        std::vector<ParamInfo> list;
        for (const ParamSpec& p : kParams)
            list.push_back({p.path, p.kind, p.unit, p.write(defaults).dump(), p.description});
        return list;
    }();
    return params;
}

Config default_config() { return Config{}; }

Config config_from_json(const json& j, const std::string& origin) {
    if (!j.is_object()) fail(origin, "expected a JSON object at the top level, got " + compact(j));
    Config c = default_config();
    apply_object(j, "", 1, c, origin);
    check_config(c, origin);
    return c;
}

nlohmann::json setting_value(const std::string& text) {
    nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
    return value.is_discarded() ? nlohmann::json(text) : value;
}

void set_config_param(Config& c, const std::string& path, const nlohmann::json& value, const std::string& origin) {
    if (const ParamSpec* p = find_param(path)) return apply_param(*p, value, c, origin);
    const std::size_t depth = split_path(path).size();
    if (is_section(path)) {
        if (!value.is_object()) fail(origin, path + ": expected an object, got " + compact(value));
        return apply_object(value, path, depth + 1, c, origin);
    }
    fail(origin, unknown_key(path, depth));
}

void check_config(const Config& c, const std::string& origin) {
    const bool any_split = c.l0a_kib || c.l0b_kib || c.l0c_kib;
    if (any_split && (!c.l0a_kib || !c.l0b_kib || !c.l0c_kib))
        fail(origin, "cube.l0a_kib, cube.l0b_kib, cube.l0c_kib: give all three (a split L0) or none, got " +
                         std::to_string(c.l0a_kib) + ", " + std::to_string(c.l0b_kib) + ", " +
                         std::to_string(c.l0c_kib));
    if (any_split && c.l0a_kib + c.l0b_kib + c.l0c_kib != c.l0_kib)
        fail(origin, "cube.l0_kib: " + std::to_string(c.l0_kib) + " is not the sum of the split L0 buffers (" +
                         std::to_string(c.l0a_kib) + " + " + std::to_string(c.l0b_kib) + " + " +
                         std::to_string(c.l0c_kib) + " KiB)");
    if (c.l2_present() && (c.l2_kib * 1024) % (c.l2_line_bytes * c.l2_ways) != 0)
        fail(origin, "l2.kib: " + std::to_string(c.l2_kib) + " KiB is not a whole number of sets of l2.ways x " +
                         "l2.line_bytes = " + std::to_string(c.l2_ways) + " x " + std::to_string(c.l2_line_bytes) +
                         " bytes");
    if (c.vector_separate_cores && !c.vector_buffer())
        fail(origin,
             "vector.separate_cores: true needs vector.buffer_kib > 0 (without buffers of their own the vector "
             "units compute in the cluster's L1, beside the cubes, and cannot take blocks apart from them)");
    check_engine_total(c, origin);
    check_smallest_tile(c, origin);
}

Config config_from_text(const std::string& text, const std::string& origin) {
    try {
        return config_from_json(parse_json_text(text, origin), origin);
    } catch (const JsonTextError& e) {
        throw ConfigError(e.what());
    }
}

Config load_config_file(const std::string& path) {
    std::string text;
    try {
        text = read_json_file(path);
    } catch (const JsonTextError& e) {
        throw ConfigError(e.what());
    }
    return config_from_text(text, path);
}

json config_to_json(const Config& c) {
    // nlohmann::json sorts keys, so the output is in key order, not
    // declaration order; JSON consumers do not care and diffs stay stable.
    json j = json::object();
    for (const ParamSpec& p : kParams) {
        json* node = &j;
        for (const std::string& part : split_path(p.path)) node = &(*node)[part];
        *node = p.write(c);
    }
    return j;
}

std::string describe_config_params() {
    const Config defaults;
    std::size_t path_w = 0, kind_w = 0, default_w = 0;
    for (const ParamSpec& p : kParams) {
        path_w = std::max(path_w, std::string(p.path).size());
        kind_w = std::max(kind_w, std::string(p.kind).size());
        default_w = std::max(default_w, describe_default(p, defaults).size());
    }
    std::ostringstream out;
    out << "Hardware configuration (JSON objects nested by the dotted path; "
           "every key is optional):\n";
    out << std::left;
    for (const ParamSpec& p : kParams) {
        out << "  " << std::setw(static_cast<int>(path_w + 2)) << p.path << std::setw(static_cast<int>(kind_w + 2))
            << p.kind << std::setw(static_cast<int>(default_w + 2)) << describe_default(p, defaults) << p.description
            << "\n";
    }
    out << "Bandwidths are in bytes/cycle: at a 1 GHz clock, B bytes/cycle is B GB/s.\n";
    return out.str();
}

}  // namespace arch
