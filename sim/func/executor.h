// Runs a program's data effects (docs/functional.md §1): the bytes each
// command moves or computes, without timing.
//
// Why not in the timed simulation's order: a command's data effect depends
// only on the bytes it reads, and the program's synchronisation (in-order
// streams, flag waits, block dependencies) already fixes which writes every
// read sees in any legal execution. So the executor runs each block's
// streams as far as their flags allow, one block after another in program
// order (block dependencies point to earlier blocks), applying whole
// commands. The timed run is untouched (its cycles, reports and traces are
// byte-identical with and without --functional), and the functional run
// can be repeated in one process, which the mixed-precision pass needs
// (SystemC elaborates once per process).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/func/memory.h"

namespace func {

// The DDR bytes a program's tensors reach (where Memory's DDR ends).
uint64_t ddr_extent(const arch::Program& p);

// How the executor interleaves a block's streams. Both are legal orders of
// a synchronised program, so they must give the same bytes; a test runs
// every model both ways to show the compiler's flags leave no race.
enum class Interleaving {
    StreamByStream,  // each stream as far as its flags allow, in engine order (the default)
    RoundRobin,      // one command per stream per pass, streams in reverse engine order
};

class Executor {
public:
    // `p` must outlive run(); the memory stays readable afterwards.
    Executor(const arch::Config& c, const arch::Program& p);
    Memory& memory() { return memory_; }
    // Runs every block. Throws FunctionalError naming the block, engine and
    // command on a bad access or a deadlock (streams waiting for flags no
    // command sets).
    void run(Interleaving order = Interleaving::StreamByStream);
    // The bytes tensor `t` of the program held when its values were
    // complete: for a tensor whose DDR bytes later tensors take (a strand's
    // workspace, Program::complete_after_block) as they were after the
    // block that completed it, else where it is now; nullptr for one no
    // command writes. `p`: the program run() ran, or a copy of it.
    const uint8_t* tensor_bytes(const arch::Program& p, size_t t);

private:
    void run_block(uint32_t index, Interleaving order);
    const arch::Program& program_;
    Memory memory_;
    uint64_t on_chip_from_;  // L1 below this is per-block scratch
    uint64_t ub_from_;       // and the UBs below this
    // Per tensor whose bytes others share, its bytes when complete.
    std::vector<std::vector<uint8_t>> kept_;
};

}  // namespace func
