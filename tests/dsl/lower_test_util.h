// Lowering a program given as text, for the lowering tests.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "dsl/frontend/frontend.h"
#include "dsl/lower/program/lower.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/arch/program_check.h"
#include "tests/dsl/dsl_test_util.h"
#include "tests/support/json_parse.h"

namespace lower_test {

inline arch::Config config(const std::string& json = "{}") {
    return arch::config_from_json(testjson::parse(json), "test");
}

// Lowers `text` and checks the program is valid for the hardware.
inline arch::Program lower(const std::string& text, const arch::Config& c = config(),
                           const dsl::LowerOptions& options = {}) {
    dsl::TaskGraph g = dsl::elaborate_source(dsl_test::source(text));
    g.vector_buffers = c.vector_buffer();  // as the driver tells the passes (sim/cli/driver/compile.cpp)
    arch::Program p = dsl::lower(dsl::run_graph_passes(g), c, "t.pto", options);
    arch::check_program(p, c);
    return p;
}

// Every GEMM gets this cube tile (mt x kt x nt, cubes as a 2 x 2 grid) and
// panel depth instead of the compiler's choice: for tests of the schedule's
// structure, which must not change when the choice does.
inline dsl::LowerOptions fixed_tiling(int64_t mt, int64_t nt, int64_t kt, int64_t kb) {
    dsl::LowerOptions o;
    o.gemm_tiling = [=](const arch::Config&, const dsl::GemmShape& g, dsl::TilingFailure&) {
        dsl::MatmulTiling t;
        t.mt = mt, t.nt = nt, t.kt = kt, t.kb = kb;
        t.grid_rows = 2, t.grid_cols = 2;
        t.buffers = g.buffers, t.l0_buffers = g.l0_buffers;
        return std::optional<dsl::MatmulTiling>(t);
    };
    return o;
}

inline const arch::Stream& stream(const arch::Block& b, const std::string& engine) {
    for (const arch::Stream& s : b.streams)
        if (arch::engine_name(s.engine) == engine) return s;
    throw std::runtime_error("no stream " + engine);
}

// DDR bytes read and written by the program's DMA commands.
struct DdrBytes {
    uint64_t read = 0, written = 0;
};
inline DdrBytes ddr_bytes(const arch::Program& p) {
    DdrBytes d;
    for (const arch::Block& b : p.blocks)
        for (const arch::Stream& s : b.streams)
            for (const arch::Command& c : s.commands) {
                if (c.op != arch::Opcode::Dma) continue;
                if (c.dma.src == arch::Space::DDR) d.read += c.dma.bytes();
                if (c.dma.dst == arch::Space::DDR) d.written += c.dma.bytes();
            }
    return d;
}

}  // namespace lower_test
