// libFuzzer target: arbitrary bytes as a .pto program through the front end
// (lex, parse, elaborate, the task-graph invariants). A CompileError is the
// front end doing its job; anything else escaping, a crash, a hang or a
// sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "dsl/frontend/frontend.h"
#include "dsl/support/diagnostics.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto src = std::make_shared<dsl::SourceFile>();
    src->path = "fuzz.pto";
    src->text.assign(reinterpret_cast<const char*>(data), size);
    try {
        dsl::TaskGraph graph = dsl::elaborate_source(src);
        dsl::check_dag(graph);
    } catch (const dsl::CompileError& e) {
        // Every diagnostic names the file: one that does not is a bug in
        // how an error was raised (a stray location, a missing file).
        if (std::string(e.what()).rfind("fuzz.pto", 0) != 0) __builtin_trap();
    }
    return 0;
}
