#include "sim/trace/memory_levels.h"

namespace trace {

std::vector<Level> memory_levels(const RunStats& s) {
    std::vector<Level> out;
    if (s.l2)
        out = {{"DDR", "ddr", {s.ddr_bytes_read, s.ddr_bytes_written}},
               {"L2", "l2", s.memory.ddr},
               {"L1", "l1", s.memory.l1},
               {"L0", "l0", s.memory.l0}};
    else out = {{"DDR", "ddr", s.memory.ddr}, {"L1", "l1", s.memory.l1}, {"L0", "l0", s.memory.l0}};
    if (s.memory.ub.read || s.memory.ub.written) out.push_back({"UB", "ub", s.memory.ub});
    return out;
}

std::vector<Level> op_memory_levels(const OpStats& op, bool with_l2) {
    const std::vector<Level> all = {with_l2 ? Level{"L2", "l2", op.memory.ddr} : Level{"DDR", "ddr", op.memory.ddr},
                                    {"L1", "l1", op.memory.l1},
                                    {"L0", "l0", op.memory.l0},
                                    {"UB", "ub", op.memory.ub}};
    std::vector<Level> out;
    for (const Level& l : all)
        if (l.traffic.read || l.traffic.written) out.push_back(l);
    return out;
}

}  // namespace trace
