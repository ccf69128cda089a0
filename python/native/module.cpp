// The extension under the davinci_sim package (python/davinci_sim/
// __init__.py is its Python face): a run of the driver in a forked child
// (forked_run.h), and the parameters' declaration. Arguments arrive as the
// command line's texts (--shape, --param, --set), checked by the same
// parsers, so a mistake reads as it does on the command line.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dsl/frontend/frontend.h"
#include "python/native/forked_run.h"
#include "sim/arch/config.h"
#include "sim/cli/driver/exit_status.h"
#include "sim/trace/report.h"

namespace py = pybind11;

namespace pymodule {

namespace {

// What simulate() passes down, named as its keyword arguments.
struct Request {
    std::string program;       // a path, or the name of `program_text`
    std::string program_text;  // "" when `program` is a path
    bool has_text = false;
    std::string config;  // a path, the name of `config_text`, or "" (the built-in default)
    std::string config_text;
    std::vector<std::string> shapes;                            // "x=1,3,224,224"
    std::vector<std::string> params;                            // "layers=2"
    std::vector<std::pair<std::string, std::string>> settings;  // (key, JSON text)
    bool functional = false;
    double timeout = 0;
};

ChildRun refused(const std::string& message) {
    ChildRun r;
    r.status = cli::kExitUsage;
    r.stderr_text = "davinci_sim: error: " + message + "\n";
    return r;
}

ChildRun run(const Request& q) {
    cli::RunOptions opt;
    opt.program = q.program;
    if (q.has_text)
        opt.program_text = std::make_shared<const dsl::SourceFile>(dsl::SourceFile{q.program, q.program_text});
    opt.config = q.config;
    opt.config_text = q.config_text;
    for (const std::string& spec : q.shapes) {
        std::string name, error;
        std::vector<int64_t> dims;
        if (!dsl::parse_shape_option(spec, name, dims, error)) return refused("shapes: " + error);
        if (!opt.shapes.emplace(name, dims).second) return refused("shapes: '" + name + "' is given twice");
    }
    for (const std::string& spec : q.params) {
        std::string name, value, error;
        if (!dsl::parse_param_option(spec, name, value, error)) return refused("params: " + error);
        if (!opt.params.emplace(name, value).second) return refused("params: '" + name + "' is given twice");
    }
    opt.settings = q.settings;
    opt.functional = q.functional;
    return run_in_child(std::move(opt), q.timeout);
}

// The value of `path` ("cube.l0_kib") in the default config as JSON.
py::object default_value(const nlohmann::json& defaults, const std::string& path) {
    const nlohmann::json* node = &defaults;
    for (size_t start = 0; start <= path.size();) {
        const size_t dot = std::min(path.find('.', start), path.size());
        const auto it = node->find(path.substr(start, dot - start));
        if (it == node->end()) return py::none();
        node = &*it;
        start = dot + 1;
    }
    return py::module_::import("json").attr("loads")(node->dump());
}

py::list config_params() {
    const nlohmann::json defaults = arch::config_to_json(arch::default_config());
    py::list out;
    for (const arch::ParamInfo& p : arch::config_params()) {
        py::dict d;
        d["key"] = p.path;
        d["kind"] = p.kind;
        d["unit"] = p.unit;
        d["default"] = default_value(defaults, p.path);
        d["default_text"] = p.default_text;
        d["meaning"] = p.description;
        out.append(d);
    }
    return out;
}

}  // namespace

}  // namespace pymodule

PYBIND11_MODULE(_native, m) {
    using pymodule::ChildRun;
    using pymodule::Request;
    m.doc() = "davinci_sim's extension; use the davinci_sim package (its __init__.py).";
    m.attr("REPORT_SCHEMA_VERSION") = trace::kReportSchemaVersion;
    py::class_<Request>(m, "Request")
        .def(py::init<>())
        .def_readwrite("program", &Request::program)
        .def_readwrite("program_text", &Request::program_text)
        .def_readwrite("has_text", &Request::has_text)
        .def_readwrite("config", &Request::config)
        .def_readwrite("config_text", &Request::config_text)
        .def_readwrite("shapes", &Request::shapes)
        .def_readwrite("params", &Request::params)
        .def_readwrite("settings", &Request::settings)
        .def_readwrite("functional", &Request::functional)
        .def_readwrite("timeout", &Request::timeout);
    py::class_<ChildRun>(m, "ChildRun")
        .def_readonly("status", &ChildRun::status)
        .def_readonly("timed_out", &ChildRun::timed_out)
        // Bytes: a program's print may write text that is not UTF-8.
        .def_property_readonly("report", [](const ChildRun& r) { return py::bytes(r.report); })
        .def_property_readonly("stdout", [](const ChildRun& r) { return py::bytes(r.stdout_text); })
        .def_property_readonly("stderr", [](const ChildRun& r) { return py::bytes(r.stderr_text); })
        .def_readonly("cpu_seconds", &ChildRun::cpu_seconds)
        .def_readonly("max_rss_kib", &ChildRun::max_rss_kib);
    // The GIL is released while the child runs: threads of the caller (a
    // sweep's pool) run their own simulations meanwhile.
    m.def("run", &pymodule::run, py::arg("request"), py::call_guard<py::gil_scoped_release>());
    m.def("config_params", &pymodule::config_params);
}
