// Lowers one matmul to blocks of per-engine command streams: C is cut into
// blocks (one per cluster at a time), each block streams double-buffered A
// and B panels DDR -> L1, each cube streams double-buffered tiles L1 -> L0
// and accumulates its C tile in L0, then writes it back L0 -> L1 -> DDR.
// The flag protocol is described in docs/timing-model.md §Matmul lowering.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/block_builder.h"
#include "dsl/matmul_tiling.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace dsl {

struct MatmulOperands {
    int64_t M = 0, K = 0, N = 0;
    arch::DType in = arch::DType::Float16, out = arch::DType::Float16;
    uint64_t a_addr = 0, b_addr = 0, c_addr = 0;  // row-major in DDR
    std::string a_name, b_name, c_name;
    int32_t op = -1;  // index into Program::ops, for the commands' tags
};

// Appends the blocks to `program`; each depends on `deps`.
void lower_matmul(const arch::Config& config, const MatmulTiling& tiling, const MatmulOperands& op,
                  const std::vector<uint32_t>& deps, arch::Program& program, TagTable& tags);

}  // namespace dsl
