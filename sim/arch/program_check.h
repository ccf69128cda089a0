// Structural checks of a Program against the hardware it will run on. The
// compiler should never produce a program that fails them; a failure is a
// compiler bug or a hand-written program error, reported before simulating.
#pragma once

#include <stdexcept>

#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace arch {

class ProgramError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// §4: P, the blocks in flight at once (the program's max_parallel, else
// chip.clusters); the clusters that run blocks, min(P, chip.clusters); and
// the blocks a cluster holds at once, ceil(P / chip.clusters).
int64_t blocks_in_flight(const Program& p, const Config& c);
int64_t clusters_in_use(const Program& p, const Config& c);
int64_t blocks_per_cluster(const Program& p, const Config& c);

// Throws ProgramError naming the block, engine and command at fault.
void check_program(const Program& p, const Config& c);
// The same in two parts, for a program whose blocks are spooled as they are
// compiled (sim/arch/block_spool.h): what concerns the whole program
// (max_parallel and the slot sizes), and block `index` of it.
void check_program_header(const Program& p, const Config& c);
void check_block(const Program& p, const Config& c, size_t index, const Block& block);

}  // namespace arch
