// libFuzzer target: arbitrary bytes as a SCALE-Sim topology file
// (--topology FILE.csv). A TopologyError naming the file is the reader
// doing its job; anything else escaping, a crash or a sanitizer report is
// a bug. A file the reader accepts must become a program the front end
// accepts: the reader, not the front end, is where a bad layer is named.
// That second check is made for files of at most kElaboratedLayers layers:
// a depthwise line of tens of thousands of channels is a legal file (the
// reader's own limit is 65,536 layers) whose program takes about 15 KB per
// operation to elaborate, which under the fuzzing sanitizers passes
// libFuzzer's 2 GB memory limit, and a 2,223-channel one (0.25 s in
// Release) took 34 s under them on a loaded machine, past the 30 s
// timeout; the reader's checks still run on it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "dsl/frontend/frontend.h"
#include "dsl/frontend/topology.h"
#include "dsl/support/diagnostics.h"

namespace {
constexpr size_t kElaboratedLayers = 512;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    dsl::Topology topology;
    try {
        topology = dsl::parse_topology("fuzz.csv", text);
    } catch (const dsl::TopologyError& e) {
        if (std::string(e.what()).rfind("fuzz.csv", 0) != 0) __builtin_trap();
        return 0;
    }
    if (topology.layers.size() > kElaboratedLayers) return 0;
    try {
        dsl::TaskGraph graph = dsl::elaborate_source(dsl::topology_source(topology, arch::DType::Float16));
        dsl::check_dag(graph);
    } catch (const dsl::CompileError&) {
        __builtin_trap();  // an accepted file the front end refuses
    }
    return 0;
}
