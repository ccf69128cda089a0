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

// Throws ProgramError naming the block, engine and command at fault.
void check_program(const Program& p, const Config& c);

}  // namespace arch
