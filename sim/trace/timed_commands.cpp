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
    // Sort keys computed once per record, packed into two words: block,
    // engine kind order and engine position (small numbers), then index.
    struct Key {
        uint64_t high, low;
        size_t at;
    };
    std::vector<Key> keys;
    keys.reserve(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
        auto [kind, position] = arch::engine_order(records[i].engine);
        keys.push_back({uint64_t(records[i].block) << 32 | uint64_t(kind) << 24 | (uint64_t(position) & 0xffffff),
                        records[i].index, i});
    }
    std::sort(keys.begin(), keys.end(),
              [](const Key& a, const Key& b) { return a.high != b.high ? a.high < b.high : a.low < b.low; });
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
