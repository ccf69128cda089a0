#include "sim/trace/timed_commands.h"

#include <algorithm>
#include <tuple>

namespace trace {

const char* opcode_name(arch::Opcode op) {
    switch (op) {
    case arch::Opcode::Dma: return "dma";
    case arch::Opcode::Matmul: return "matmul";
    case arch::Opcode::Vector: return "vector";
    }
    return "?";
}

std::vector<TimedCommand> timed_commands(const arch::Program& p, std::vector<CommandRecord> records) {
    std::sort(records.begin(), records.end(), [](const CommandRecord& a, const CommandRecord& b) {
        return std::make_tuple(a.block, arch::engine_order(a.engine), a.index) <
               std::make_tuple(b.block, arch::engine_order(b.engine), b.index);
    });
    std::vector<TimedCommand> out;
    out.reserve(records.size());
    for (const CommandRecord& r : records) {
        const arch::Command* cmd = nullptr;
        for (const arch::Stream& s : p.blocks[r.block].streams)
            if (s.engine == r.engine) cmd = &s.commands[r.index];
        out.push_back({r, cmd});
    }
    return out;
}

}  // namespace trace
