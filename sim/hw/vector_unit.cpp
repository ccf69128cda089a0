#include "sim/hw/vector_unit.h"

#include "sim/arch/vector_cost.h"
#include "sim/hw/sim_time.h"

namespace hw {

VectorUnit::VectorUnit(sc_core::sc_module_name name, arch::EngineId id, uint32_t cluster, FlagBoards& flags,
                       trace::Recorder* recorder, const arch::Config& config)
    : Engine(name, id, cluster, flags, recorder), config_(config) {}

Engine::Executed VectorUnit::execute(const arch::Command& cmd) {
    suspend(cycles(*run_ahead(cmd)));
    return {now_cycles()};
}

std::optional<uint64_t> VectorUnit::run_ahead(const arch::Command& cmd) {
    return arch::vector_cost(config_, cmd.vec).total_cycles;
}

}  // namespace hw
