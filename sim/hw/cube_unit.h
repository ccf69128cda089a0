// A cube's MAC array: executes MATMUL commands on operands in its L0.
#pragma once

#include "sim/arch/config.h"
#include "sim/hw/engine.h"

namespace hw {

class CubeUnit : public Engine {
public:
    CubeUnit(sc_core::sc_module_name name, arch::EngineId id, uint32_t cluster, FlagBoards& flags,
             trace::Recorder* recorder, const arch::Config& config);

    uint64_t operand_bytes() const { return operand_bytes_; }  // over the L0->cube link
    uint64_t link_busy_cycles() const { return link_cycles_; }

private:
    Executed execute(const arch::Command& cmd) override;
    std::optional<uint64_t> run_ahead(const arch::Command& cmd) override;  // counts its operand bytes, link cycles
    bool always_runs_ahead() const override { return true; }
    const arch::Config& config_;
    uint64_t operand_bytes_ = 0, link_cycles_ = 0;
};

}  // namespace hw
