// The cycle cost of one VECTOR command on a vector unit
// (docs/timing-model.md §8): a pure formula of the configuration and the
// command, shared by the simulator (sim/hw/vector_unit.cpp) and the
// compiler's cost estimate of a fused epilogue (dsl/lower/tiling/gemm_cost.cpp).
// The oracle (tests/oracle) keeps its own copy.
#pragma once

#include <cstdint>

#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace arch {

// The classes of vector ops that share a start-up and a rate (§8).
enum class VectorClass {
#define VECTOR_CLASS(Enum, key, ops, rate, note) Enum,
#include "sim/arch/vector_classes.def"
#undef VECTOR_CLASS
};

VectorClass vector_class(VectorOp op);

// A class's start-up in cycles, its rate in hundredths of a cycle per
// repeat, and the narrowest element it computes in, in bytes.
struct VectorClassTiming {
    uint64_t head_cycles;
    uint64_t rate_hundredths;
    uint64_t element_bytes;
};
VectorClassTiming vector_class_timing(const arch::Config& c, VectorClass k);

struct VectorCost {
    uint64_t head_cycles;   // the op class's start-up
    uint64_t repeats;       // ceil(N * max(e, E) / W): the source in repeats of W bytes, at the class's width E
    uint64_t data_cycles;   // ceil(repeats * rate / 100)
    uint64_t tree_cycles;   // reductions: combining each row's lane partials
    uint64_t total_cycles;  // head + data_cycles + tree_cycles
};

VectorCost vector_cost(const arch::Config& c, const arch::VectorArgs& v);

}  // namespace arch
