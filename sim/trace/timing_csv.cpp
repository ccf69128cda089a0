#include "sim/trace/timing_csv.h"

#include "sim/trace/timed_commands.h"

namespace trace {

std::string format_timing_csv(const arch::Program& p, std::vector<CommandRecord> records) {
    std::string out = "block,cluster,engine,index,start,end,op,tag\n";
    for (const TimedCommand& t : timed_commands(p, std::move(records))) {
        const CommandRecord& r = t.rec;
        out += std::to_string(r.block) + "," + std::to_string(r.cluster) + "," + arch::engine_name(r.engine) + "," +
               std::to_string(r.index) + "," + std::to_string(r.start) + "," + std::to_string(r.end) + ",";
        out += t.cmd ? opcode_name(t.cmd->op) : "?";
        out += ",";
        if (t.cmd && t.cmd->tag < p.tags.size()) out += "\"" + p.tags[t.cmd->tag].label + "\"";
        out += "\n";
    }
    return out;
}

}  // namespace trace
