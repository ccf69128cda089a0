// libFuzzer target: arbitrary bytes as a .pto program through the whole
// compiler (front end, graph passes, lowering, the program check) on two
// machines, the documents' and one whose vector units are cores of their
// own with Unified Buffers (where the compiler lowers differently: fusion
// through DDR, row groups, deferred chains), and each compiled program's
// block dependencies checked for DDR races (tests/support/ddr_races.h). A
// CompileError is the compiler doing its job; anything else escaping, a
// program the checker refuses, a race, a crash, a hang or a sanitizer
// report is a bug.
//
// Why bounded: a few bytes can ask for a matmul of 10^5 x 10^5, which the
// compiler lowers correctly into a program too large to fuzz with; such a
// graph is skipped after the front end (the front end target covers it).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "dsl/frontend/frontend.h"
#include "dsl/lower/program/lower.h"
#include "dsl/passes/pipeline.h"
#include "dsl/support/diagnostics.h"
#include "sim/arch/config.h"
#include "sim/arch/program_check.h"
#include "tests/support/ddr_races.h"

namespace {

constexpr int64_t kMaxElements = int64_t(1) << 20;  // per tensor
constexpr size_t kMaxOps = 64;
constexpr size_t kMaxRaceCheckedBlocks = 4096;  // the check keeps blocks^2 bits

bool small_enough(const dsl::TaskGraph& g) {
    if (g.ops.size() > kMaxOps) return false;
    for (const dsl::TensorNode& t : g.tensors) {
        int64_t n = 1;
        for (int64_t d : t.shape) {
            if (d > kMaxElements) return false;
            n *= d;
            if (n > kMaxElements) return false;
        }
    }
    return true;
}

const arch::Config& machine(int which) {
    static const arch::Config documents = arch::config_from_json(nlohmann::json::object(), "documents");
    static const arch::Config vector_cores =
        arch::config_from_json(nlohmann::json::parse(R"({"cluster": {"vector_units": 2, "dma_engines": 2},
                                  "vector": {"buffer_kib": 192, "separate_cores": true}})"),
                               "vector cores");
    return which == 0 ? documents : vector_cores;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto src = std::make_shared<dsl::SourceFile>();
    src->path = "fuzz.pto";
    src->text.assign(reinterpret_cast<const char*>(data), size);
    dsl::TaskGraph graph;
    try {
        graph = dsl::elaborate_source(src);
    } catch (const dsl::CompileError&) {
        return 0;
    }
    if (!small_enough(graph)) return 0;
    for (int m = 0; m < 2; ++m) {
        const arch::Config& c = machine(m);
        arch::Program p;
        try {
            dsl::TaskGraph g = graph;
            g.vector_buffers = c.vector_buffer();  // as the driver tells the passes
            p = dsl::lower(dsl::run_graph_passes(g), c, "fuzz.pto");
        } catch (const dsl::CompileError& e) {
            // Every diagnostic names the file (see frontend_fuzz.cpp).
            if (std::string(e.what()).rfind("fuzz.pto", 0) != 0) __builtin_trap();
            continue;
        }
        // The compiler's program must be one the simulator accepts: a
        // ProgramError escaping here is a compiler bug.
        arch::check_program(p, c);
        if (p.blocks.size() <= kMaxRaceCheckedBlocks && !testraces::first_ddr_race(p).empty()) __builtin_trap();
    }
    return 0;
}
