// A cluster's vector unit: element-wise ops, row reductions and transposes
// on matrices in L1. It has its own L1 port, so its commands take a fixed
// time (docs/timing-model.md §8) and contend with nothing.
#pragma once

#include "sim/arch/config.h"
#include "sim/hw/engine.h"

namespace hw {

class VectorUnit : public Engine {
public:
    VectorUnit(sc_core::sc_module_name name, arch::EngineId id, uint32_t cluster, FlagBoards& flags,
               trace::Recorder* recorder, const arch::Config& config);

private:
    Executed execute(const arch::Command& cmd) override;
    std::optional<uint64_t> run_ahead(const arch::Command& cmd) override;
    bool always_runs_ahead() const override { return true; }
    const arch::Config& config_;
};

}  // namespace hw
