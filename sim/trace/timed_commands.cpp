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

std::vector<TimedCommand> timed_commands(const arch::Program& p, const std::vector<CommandRecord>& records) {
    // Sort keys computed once per record, not per comparison.
    struct Key {
        uint32_t block;
        std::pair<int, int64_t> engine;
        uint32_t index;
        size_t at;
    };
    std::vector<Key> keys;
    keys.reserve(records.size());
    for (size_t i = 0; i < records.size(); ++i)
        keys.push_back({records[i].block, arch::engine_order(records[i].engine), records[i].index, i});
    std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
        return std::tie(a.block, a.engine, a.index) < std::tie(b.block, b.engine, b.index);
    });
    std::vector<TimedCommand> out;
    out.reserve(records.size());
    for (const Key& k : keys) {
        const CommandRecord& r = records[k.at];
        const arch::Command* cmd = nullptr;
        for (const arch::Stream& s : p.blocks[r.block].streams)
            if (s.engine == r.engine) cmd = &s.commands[r.index];
        out.push_back({r, cmd});
    }
    return out;
}

}  // namespace trace
