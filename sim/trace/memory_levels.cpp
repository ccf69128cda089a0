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

}  // namespace trace
