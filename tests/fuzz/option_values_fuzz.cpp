// libFuzzer target: arbitrary bytes as the value of a command-line option
// that takes text apart: --set KEY=VALUE (on the default config, then the
// checks across keys), --shape NAME=D1,D2,... and --param NAME=VALUE (each
// bound into a program that declares such an input and such constants, and
// elaborated), and the trace filters --trace-window, --trace-clusters and
// --trace-ops (a filter accepted must be one a trace can apply). The first byte picks the option; the rest is its text,
// up to the first newline (an option is one argument). An error in the option's own wording (a ConfigError from
// "--set", a false return with a reason, a CompileError naming the program) is the parser doing its job; anything else
// escaping, a crash or a sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dsl/frontend/frontend.h"
#include "dsl/support/diagnostics.h"
#include "sim/arch/config.h"
#include "sim/trace/trace_filter.h"

namespace {

// A None dim for --shape and a constant of every --param type. The loop
// runs at most 3 times whatever `layers` is: this target checks how a value
// is parsed and bound, and --param layers=999999 would otherwise elaborate a
// million operations (over libFuzzer's 30 s under the sanitizers); the
// front end's own limits are the frontend target's concern.
constexpr const char* kProgram =
    "import pypto as pypo\n"
    "layers = pypo.param(\"layers\", 2)\n"
    "scale = pypo.param(\"scale\", 0.5)\n"
    "fused = pypo.param(\"fused\", True)\n"
    "mode = pypo.param(\"mode\", \"fast\")\n"
    "x = pypo.input(\"x\", shape=(None, 8))\n"
    "y = x\n"
    "for i in range(min(layers, 3)):\n"
    "    y = pypo.op.mul(y, scale)\n"
    "pypo.output(\"y\", y)\n";

void elaborate(const std::map<std::string, std::vector<int64_t>>& shapes,
               const std::map<std::string, std::string>& params) {
    auto src = std::make_shared<dsl::SourceFile>();
    src->path = "fuzz.pto";
    src->text = kProgram;
    try {
        dsl::TaskGraph graph = dsl::elaborate_source(src, shapes, params);
        dsl::check_dag(graph);
    } catch (const dsl::CompileError& e) {
        if (std::string(e.what()).rfind("fuzz.pto", 0) != 0) __builtin_trap();
    }
}

void set_option(const std::string& spec) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) return;  // the command line refuses it first
    arch::Config c = arch::default_config();
    try {
        arch::set_config_param(c, spec.substr(0, eq), arch::setting_value(spec.substr(eq + 1)), "--set");
        arch::check_config(c, "--set");
        volatile int64_t sink = c.cubes_total() + c.macs_per_cycle() + c.l0_bytes() + c.l1_bytes() + c.ddr_bytes();
        (void)sink;
    } catch (const arch::ConfigError& e) {
        if (std::string(e.what()).rfind("--set: ", 0) != 0) __builtin_trap();
    }
}

void shape_option(const std::string& spec) {
    std::string name, error;
    std::vector<int64_t> dims;
    if (!dsl::parse_shape_option(spec, name, dims, error)) {
        if (error.empty()) __builtin_trap();  // refused without a reason
        return;
    }
    elaborate({{name, dims}}, {});
}

void param_option(const std::string& spec) {
    std::string name, value, error;
    if (!dsl::parse_param_option(spec, name, value, error)) {
        if (error.empty()) __builtin_trap();
        return;
    }
    elaborate({{"x", {4, 8}}}, {{name, value}});
}

// A filter accepted is well formed: a window that is not empty, clusters
// ascending without repeats, no empty glob; and clipping a series through
// it keeps its values inside the window.
void trace_filter_option(uint8_t which, const std::string& text) {
    using Parse = bool (*)(const std::string&, trace::TraceFilter&, std::string&);
    const Parse parse[] = {trace::parse_trace_window, trace::parse_trace_clusters, trace::parse_trace_ops};
    trace::TraceFilter f;
    std::string error;
    if (!parse[which % 3](text, f, error)) {
        if (error.empty()) __builtin_trap();
        return;
    }
    if (f.end <= f.start) __builtin_trap();
    for (size_t i = 1; i < f.clusters.size(); ++i)
        if (f.clusters[i - 1] >= f.clusters[i]) __builtin_trap();
    for (const std::string& g : f.ops)
        if (g.empty()) __builtin_trap();
    const trace::StepSeries s = {{0, 3}, {f.start / 2 + 1, 5}, {f.start + 1, 7}, {f.end - 1, 2}};
    for (const trace::Step& step : f.clip(s))
        if (step.cycle < f.start || step.cycle >= f.end) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    text = text.substr(0, text.find('\n'));
    switch (data[0] % 4) {
    case 0: set_option(text); break;
    case 1: shape_option(text); break;
    case 2: param_option(text); break;
    default: trace_filter_option(uint8_t(data[0] / 4), text); break;
    }
    return 0;
}
