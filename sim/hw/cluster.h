// A cluster: its L1 (whose port its cubes' DMA engines share), its DDR-side
// DMA engines, its cubes (each a DMA engine and a MAC array with an L0) and
// its vector units (each with a private L1 port, so not bound to l1_).
// It runs one block at a time: every engine gets its stream of the block,
// and the block ends when the last engine's last command ends.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/hw/arbitrated_memory.h"
#include "sim/hw/cube_unit.h"
#include "sim/hw/dma_engine.h"
#include "sim/hw/flag_board.h"
#include "sim/hw/vector_unit.h"

namespace hw {

class Cluster : public sc_core::sc_module {
public:
    Cluster(sc_core::sc_module_name name, uint32_t index, const arch::Config& config, trace::Recorder* recorder);

    // Binds the DDR-side DMA engines to the DDR channel (in engine order).
    template <typename Socket>
    void bind_ddr(Socket& ddr_socket) {
        for (auto& dma : cluster_dmas_) dma->socket.bind(ddr_socket);
    }

    void run_block(const arch::Block& block, uint32_t block_index, uint64_t start_cycle);
    std::function<void(uint32_t cluster, uint64_t end_cycle)> on_block_finished;

    uint32_t index() const { return index_; }
    const ArbitratedMemory& l1() const { return l1_; }
    const CubeUnit& cube(size_t i) const { return *cubes_[i]; }
    // Engines blocked when the simulation ran out of events.
    std::vector<std::string> stuck_engines() const;
    bool busy() const { return running_ > 0; }

private:
    // Every engine, in listing order (arch::engine_order).
    std::vector<Engine*> engines() const;
    void engine_finished(uint64_t end);

    uint32_t index_;
    const arch::Config& config_;
    FlagBoard flags_;
    ArbitratedMemory l1_;
    std::vector<std::unique_ptr<DmaEngine>> cluster_dmas_;
    std::vector<std::unique_ptr<DmaEngine>> cube_dmas_;
    std::vector<std::unique_ptr<CubeUnit>> cubes_;
    std::vector<std::unique_ptr<VectorUnit>> vectors_;
    int running_ = 0;
    uint64_t block_end_ = 0;
};

}  // namespace hw
