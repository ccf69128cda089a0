#include "sim/trace/run_stats.h"

namespace trace {

StatsRecorder::StatsRecorder(const arch::Config& c) : config_(c) {
    for (int64_t cl = 0; cl < c.clusters; ++cl)
        for (arch::EngineId e : arch::cluster_engines(c))
            units_.push_back({"cluster" + std::to_string(cl) + "." + arch::engine_name(e),
                              arch::engine_kind_name(e.kind), uint32_t(cl)});
    accounts_.resize(units_.size());
}

void StatsRecorder::on_command(const CommandRecord& r, const arch::Command& c) {
    const size_t slot = arch::engine_slot(config_, r.cluster, r.engine);
    UnitStats& u = units_[slot];
    CycleAccount& account = accounts_[slot];
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
    case arch::Opcode::Vector:
        u.elements += c.vec.elements();
        u.vector_bytes += c.vec.src_bytes();
        break;
    case arch::Opcode::Dma: u.bytes += c.dma.bytes(); break;
    }
    add_command_traffic(memory_, config_, c);
}

}  // namespace trace
