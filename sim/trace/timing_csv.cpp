#include "sim/trace/timing_csv.h"

#include <algorithm>
#include <tuple>

namespace trace {

namespace {

const char* op_name(arch::Opcode op) {
    switch (op) {
    case arch::Opcode::Dma: return "dma";
    case arch::Opcode::Matmul: return "matmul";
    case arch::Opcode::Vector: return "vector";
    }
    return "?";
}

const arch::Command* find_command(const arch::Program& p, const CommandRecord& r) {
    for (const arch::Stream& s : p.blocks[r.block].streams)
        if (s.engine == r.engine) return &s.commands[r.index];
    return nullptr;
}

}  // namespace

std::string format_timing_csv(const arch::Program& p, std::vector<CommandRecord> records) {
    std::sort(records.begin(), records.end(), [](const CommandRecord& a, const CommandRecord& b) {
        return std::make_tuple(a.block, arch::engine_order(a.engine), a.index) <
               std::make_tuple(b.block, arch::engine_order(b.engine), b.index);
    });
    std::string out = "block,cluster,engine,index,start,end,op,tag\n";
    for (const CommandRecord& r : records) {
        const arch::Command* c = find_command(p, r);
        out += std::to_string(r.block) + "," + std::to_string(r.cluster) + "," + arch::engine_name(r.engine) + "," +
               std::to_string(r.index) + "," + std::to_string(r.start) + "," + std::to_string(r.end) + ",";
        out += c ? op_name(c->op) : "?";
        out += ",";
        if (c && c->tag < p.tags.size()) out += "\"" + p.tags[c->tag].label + "\"";
        out += "\n";
    }
    return out;
}

}  // namespace trace
