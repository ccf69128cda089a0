#include "sim/hw/cube_unit.h"

#include "sim/hw/cube_timing.h"
#include "sim/hw/sim_time.h"

namespace hw {

CubeUnit::CubeUnit(sc_core::sc_module_name name, arch::EngineId id, uint32_t cluster, FlagBoards& flags,
                   trace::Recorder* recorder, const arch::Config& config)
    : Engine(name, id, cluster, flags, recorder), config_(config) {}

Engine::Executed CubeUnit::execute(const arch::Command& cmd) {
    suspend(cycles(*run_ahead(cmd)));
    return {now_cycles()};
}

std::optional<uint64_t> CubeUnit::run_ahead(const arch::Command& cmd) {
    MatmulCost cost = matmul_cost(config_, cmd.mm);
    operand_bytes_ += cost.operand_bytes;
    link_cycles_ += cost.link_cycles;
    return cost.total_cycles;
}

}  // namespace hw
