// Hand-built programs for separate vector cores (vector.separate_cores,
// docs/timing-model.md §4), worked out by hand once and checked on the
// oracle (tests/oracle/oracle_side_dispatch_test.cpp) and on the SystemC
// model (tests/hw/side_dispatch_test.cpp).
//
// The machine: the default one (DDR W = 32 B/cycle in 64 B bursts of two
// cycles, Lat = 100, chip.dispatch_cycles = 1), one cluster, so P = 1
// block in flight (per side with separate cores), and vector units with
// Unified Buffers of 256 KiB (room for vec()'s regions).
#pragma once

#include <string>
#include <vector>

#include "tests/support/path_cases.h"
#include "tests/support/program_builders.h"

namespace sidecases {

using namespace testprog;
using pathcases::Expected;

inline std::string config_text(bool separate) {
    return std::string(R"({"chip": {"clusters": 1}, "dma": {"max_outstanding": 1},
              "vector": {"buffer_kib": 256, "separate_cores": )") +
           (separate ? "true" : "false") + "}}";
}

// Block 0 (the cube side): dma0 loads 256 B. Block 1 (the vector side):
// vector0 runs a relu of 256 float16 (512 B: 8 + ceil(512 / 128) = 12
// cycles, timing model §8). Block 2 (the cube side): dma0 loads 64 B.
// No block depends on another.
//
// Separate cores: blocks 0 and 1 are decided at 0 and start at 1, one on
// each side. dma0's load is eligible at 2, takes the link over [2, 10) and
// ends 10 + 100 = 110; the relu runs [1, 13). Block 2 waits for the cube
// side's only slot: decided at 110, it starts at 111, its load is
// eligible at 112, takes [112, 114) and ends 214, the run's end.
//
// One dispatch target per cluster (the same program without the key):
// block 1 waits for block 0 and runs [111, 123); block 2 starts at 124,
// takes the link over [125, 127) and ends 227.
inline arch::Program two_sides() {
    return program({block({stream(dma_engine(0), {load(256)})}),
                    block({stream(vector_unit(0), {vec(arch::VectorOp::Relu, 1, 256)})}),
                    block({stream(dma_engine(0), {load(64)})})});
}
inline std::vector<Expected> two_sides_ends(bool separate) {
    if (separate)
        return {{0, dma_engine(0), 0, 1, 110}, {1, vector_unit(0), 0, 1, 13}, {2, dma_engine(0), 0, 111, 214}};
    return {{0, dma_engine(0), 0, 1, 110}, {1, vector_unit(0), 0, 111, 123}, {2, dma_engine(0), 0, 124, 227}};
}

}  // namespace sidecases
