#include "sim/trace/run_stats.h"

namespace trace {

StatsRecorder::StatsRecorder(const arch::Config& c)
    : config_(c), dma_engines_(c.dma_engines), cubes_(c.cubes_per_cluster), vectors_(c.vector_units) {
    for (int64_t cl = 0; cl < c.clusters; ++cl)
        for (arch::EngineId e : arch::cluster_engines(c))
            units_.push_back({"cluster" + std::to_string(cl) + "." + arch::engine_name(e),
                              arch::engine_kind_name(e.kind), uint32_t(cl)});
    accounts_.resize(units_.size());
}

size_t StatsRecorder::slot(uint32_t cluster, arch::EngineId e) const {
    // The constructor's order (arch::cluster_engines): DMA engines, cube DMA/cube pairs, vector units.
    size_t base = size_t(cluster) * size_t(dma_engines_ + 2 * cubes_ + vectors_);
    switch (e.kind) {
    case arch::EngineKind::ClusterDma: return base + size_t(e.index);
    case arch::EngineKind::CubeDma: return base + size_t(dma_engines_ + 2 * e.index);
    case arch::EngineKind::Cube: return base + size_t(dma_engines_ + 2 * e.index + 1);
    case arch::EngineKind::Vector: break;
    }
    return base + size_t(dma_engines_ + 2 * cubes_ + e.index);
}

void StatsRecorder::on_command(const CommandRecord& r, const arch::Command& c) {
    UnitStats& u = units_[slot(r.cluster, r.engine)];
    CycleAccount& account = accounts_[slot(r.cluster, r.engine)];
    account.add(r);
    u.busy_cycles = account.busy_cycles();
    u.link_wait_cycles = account.link_wait_cycles();
    u.flag_wait_cycles = account.flag_wait_cycles();
    u.issue_cycles = account.issue_cycles();
    ++u.commands;
    switch (c.op) {
    case arch::Opcode::Matmul:
        u.macs += c.mm.macs();
        if (c.mm.dtype == arch::DType::Float32) u.float32_macs += c.mm.macs();
        if (c.mm.dtype == arch::DType::Int8) u.int8_macs += c.mm.macs();
        break;
    case arch::Opcode::Vector: u.elements += c.vec.elements(); break;
    case arch::Opcode::Dma: u.bytes += c.dma.bytes(); break;
    }
    add_command_traffic(memory_, config_, c);
}

}  // namespace trace
