// libFuzzer target: arbitrary bytes as a SCALE-Sim topology file
// (--topology FILE.csv). A TopologyError naming the file is the reader
// doing its job; anything else escaping, a crash or a sanitizer report is
// a bug. A file the reader accepts must become a program the front end
// accepts: the reader, not the front end, is where a bad layer is named.
#include <cstddef>
#include <cstdint>
#include <string>

#include "dsl/frontend/frontend.h"
#include "dsl/frontend/topology.h"
#include "dsl/support/diagnostics.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    dsl::Topology topology;
    try {
        topology = dsl::parse_topology("fuzz.csv", text);
    } catch (const dsl::TopologyError& e) {
        if (std::string(e.what()).rfind("fuzz.csv", 0) != 0) __builtin_trap();
        return 0;
    }
    try {
        dsl::TaskGraph graph = dsl::elaborate_source(dsl::topology_source(topology, arch::DType::Float16));
        dsl::check_dag(graph);
    } catch (const dsl::CompileError&) {
        __builtin_trap();  // an accepted file the front end refuses
    }
    return 0;
}
