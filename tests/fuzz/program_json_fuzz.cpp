// libFuzzer target: arbitrary bytes as a --program-json command program,
// read and checked against the default hardware (no simulation). A
// ProgramError is the loader or checker doing its job; anything else
// escaping, a crash or a sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/arch/config.h"
#include "sim/arch/program_check.h"
#include "sim/arch/program_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        arch::Program p = arch::program_from_text(text, "fuzz.json");
        arch::check_program(p, arch::default_config());
    } catch (const arch::ProgramError& e) {
        if (std::string(e.what()).rfind("fuzz.json", 0) != 0 && std::string(e.what()).rfind("invalid program", 0) != 0)
            __builtin_trap();
    }
    return 0;
}
