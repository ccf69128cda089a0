#include "sim/func/fault_injection.h"

#include "sim/func/executor.h"

namespace func {

std::string inject_fault(arch::Program& p, uint64_t k) {
    const uint64_t end = ddr_extent(p);
    uint64_t seen = 0;
    for (size_t b = 0; b < p.blocks.size(); ++b)
        for (arch::Stream& s : p.blocks[b].streams)
            for (size_t i = 0; i < s.commands.size(); ++i) {
                arch::Command& c = s.commands[i];
                if (c.op != arch::Opcode::Dma || c.dma.src != arch::Space::DDR || seen++ != k) continue;
                const uint64_t reach = c.dma.rows ? (c.dma.rows - 1) * c.dma.src_stride + c.dma.row_bytes : 0;
                const bool forward = c.dma.src_addr + reach + 2 <= end || c.dma.src_addr < 2;
                c.dma.src_addr = forward ? c.dma.src_addr + 2 : c.dma.src_addr - 2;
                return "block " + std::to_string(b) + " " + arch::engine_name(s.engine) + " command " +
                       std::to_string(i) + ": DDR source moved " + (forward ? "+2" : "-2") + " bytes";
            }
    return "";
}

}  // namespace func
