// libFuzzer target: arbitrary bytes as an ONNX model (davinci-sim
// MODEL.onnx). A CompileError naming the file is the importer doing its
// job; anything else escaping, a crash, a hang or a sanitizer report is a
// bug. A model the importer accepts becomes program text that the front
// end must read without anything but a CompileError escaping: the
// importer does not repeat the language's shape checks, so a graph whose
// shapes disagree is refused there, at the generated line. Its open
// dimensions are left unbound (the front end's "bind it with --shape").
#include <cstddef>
#include <cstdint>
#include <string>

#include "dsl/frontend/frontend.h"
#include "dsl/import/onnx_import.h"
#include "dsl/support/diagnostics.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    dsl::ImportedModel model;
    try {
        model = dsl::import_onnx_bytes("fuzz.onnx", bytes);
    } catch (const dsl::CompileError& e) {
        if (std::string(e.what()).rfind("fuzz.onnx: error: ", 0) != 0) __builtin_trap();
        return 0;
    }
    try {
        dsl::TaskGraph graph = dsl::elaborate_source(model.program);
        dsl::check_dag(graph);
    } catch (const dsl::CompileError&) {}
    return 0;
}
