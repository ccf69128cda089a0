#include "sim/trace/memory_traffic.h"

#include "sim/arch/cube_cost.h"

namespace trace {

MemoryTraffic& MemoryTraffic::operator+=(const MemoryTraffic& o) {
    for (auto [to, from] :
         {std::pair{&ddr, &o.ddr}, std::pair{&l1, &o.l1}, std::pair{&l0, &o.l0}, std::pair{&ub, &o.ub}}) {
        to->read += from->read;
        to->written += from->written;
    }
    return *this;
}

void add_command_traffic(MemoryTraffic& m, const arch::Config& config, const arch::Command& c) {
    switch (c.op) {
    case arch::Opcode::Matmul: m.l0.read += arch::matmul_cost(config, c.mm).operand_bytes; break;
    case arch::Opcode::Vector: {
        LevelTraffic& level = m.level(arch::vector_space(config));
        level.read += c.vec.src_bytes() * (1 + (c.vec.src1 != arch::kNoAddress) + (c.vec.src2 != arch::kNoAddress));
        level.written += c.vec.dst_bytes();
        break;
    }
    case arch::Opcode::Dma:
        m.level(c.dma.src).read += c.dma.bytes() * (c.dma.convert_f32_to_f16 ? 2 : 1);
        m.level(c.dma.dst).written += c.dma.bytes();
        break;
    }
}

}  // namespace trace
