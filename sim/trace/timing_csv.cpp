#include "sim/trace/timing_csv.h"

#include <algorithm>
#include <tuple>

namespace trace {

namespace {

int engine_rank(arch::EngineId e) {
    switch (e.kind) {
    case arch::EngineKind::ClusterDma: return e.index;
    case arch::EngineKind::CubeDma: return 1000 + 2 * e.index;
    case arch::EngineKind::Cube: break;
    }
    return 1000 + 2 * e.index + 1;
}

const arch::Command* find_command(const arch::Program& p, const CommandRecord& r) {
    for (const arch::Stream& s : p.blocks[r.block].streams)
        if (s.engine == r.engine) return &s.commands[r.index];
    return nullptr;
}

}  // namespace

std::string format_timing_csv(const arch::Program& p, std::vector<CommandRecord> records) {
    std::sort(records.begin(), records.end(), [](const CommandRecord& a, const CommandRecord& b) {
        return std::make_tuple(a.block, engine_rank(a.engine), a.index) <
               std::make_tuple(b.block, engine_rank(b.engine), b.index);
    });
    std::string out = "block,cluster,engine,index,start,end,op,tag\n";
    for (const CommandRecord& r : records) {
        const arch::Command* c = find_command(p, r);
        out += std::to_string(r.block) + "," + std::to_string(r.cluster) + "," + arch::engine_name(r.engine) + "," +
               std::to_string(r.index) + "," + std::to_string(r.start) + "," + std::to_string(r.end) + ",";
        out += c && c->op == arch::Opcode::Matmul ? "matmul" : "dma";
        out += ",";
        if (c && c->tag < p.tags.size()) out += "\"" + p.tags[c->tag] + "\"";
        out += "\n";
    }
    return out;
}

}  // namespace trace
