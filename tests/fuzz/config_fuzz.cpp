// libFuzzer target: arbitrary bytes as a hardware configuration file. A
// ConfigError naming the file is the loader doing its job; anything else
// escaping, a crash or a sanitizer report is a bug. A config the loader
// accepts must also survive the derived sizes the simulator computes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/arch/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        arch::Config c = arch::config_from_text(text, "fuzz.json");
        // UBSan checks these for signed overflow.
        volatile int64_t sink = c.cubes_total() + c.macs_per_cycle() + c.l0_bytes() + c.l1_bytes() + c.ddr_bytes();
        (void)sink;
    } catch (const arch::ConfigError& e) {
        if (std::string(e.what()).rfind("fuzz.json", 0) != 0) __builtin_trap();
    }
    return 0;
}
