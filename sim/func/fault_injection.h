// Test-only fault injection: perturbs one command of a compiled program so
// tests can show that --check catches a wrong lowering. Reached only
// through the environment variable DAVINCI_SIM_INJECT_FAULT=K (not an
// option: users never need it); docs/functional.md §7.
#pragma once

#include <cstdint>
#include <string>

#include "sim/arch/program.h"

namespace func {

// Moves the source address of the K-th DMA command that reads DDR (blocks,
// streams and commands in order) by one float16 element — forward, or
// backward when that would leave the program's DDR. Returns what it did,
// "" when the program has fewer such commands.
std::string inject_fault(arch::Program& p, uint64_t k);

}  // namespace func
