// A cluster: its L1 (whose port its cubes' DMA engines share), its DDR-side
// DMA engines, its cubes (each a DMA engine and a MAC array with an L0) and
// its vector units (each with a private L1 port, so not bound to l1_; or,
// with Unified Buffers, computing in its own and with a load and a store
// engine of its own on the DDR side).
// It holds up to `slots` blocks at once (timing-model §4), each with its own
// flags: every engine gets its stream of the block, and the block ends when
// the last engine's last command ends (at its start if it has no commands).
// With vector.separate_cores it holds `slots` blocks on each side (its cube
// core, its vector cores): lane side * slots + k is side's slot k.
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

    // Binds the DDR-side DMA engines to the DDR channel: the cluster's,
    // then the vector units' (the requester order of timing model §6).
    template <typename Socket>
    void bind_ddr(Socket& ddr_socket) {
        for (auto& dma : cluster_dmas_) dma->socket.bind(ddr_socket);
        for (auto& dma : vector_dmas_) dma->socket.bind(ddr_socket);  // unit by unit: load, store
    }

    // Before the simulation: how many blocks a side of the cluster holds at once.
    void set_slots(size_t slots);
    void run_block(const arch::Block& block, uint32_t block_index, uint32_t lane, uint64_t start_cycle);
    std::function<void(uint32_t cluster, uint32_t lane, uint64_t end_cycle)> on_block_finished;

    uint32_t index() const { return index_; }
    const ArbitratedMemory& l1() const { return l1_; }
    const CubeUnit& cube(size_t i) const { return *cubes_[i]; }
    // Engines blocked when the simulation ran out of events.
    std::vector<std::string> stuck_engines() const;

private:
    // Every engine, in listing order (arch::engine_order).
    std::vector<Engine*> engines() const;
    void engine_finished(uint32_t lane, uint64_t end);
    // The flag boards of `side`'s engines: the vector side's own with
    // vector.separate_cores, else the cluster's.
    FlagBoards& flags_of(arch::Side side) {
        return side == arch::Side::Vector && config_.vector_separate_cores ? vector_flags_ : flags_;
    }
    void end_empty_blocks();  // blocks without commands end at their start

    uint32_t index_;
    const arch::Config& config_;
    size_t slots_ = 1;         // per side
    FlagBoards flags_;         // per slot
    FlagBoards vector_flags_;  // per slot, the vector side's with vector.separate_cores
    ArbitratedMemory l1_;
    std::vector<std::unique_ptr<DmaEngine>> cluster_dmas_;
    std::vector<std::unique_ptr<DmaEngine>> cube_dmas_;
    std::vector<std::unique_ptr<CubeUnit>> cubes_;
    std::vector<std::unique_ptr<VectorUnit>> vectors_;
    // With Unified Buffers: per vector unit its load and its store engine.
    std::vector<std::unique_ptr<DmaEngine>> vector_dmas_;
    std::vector<int> running_;                          // per lane: engines still running its block
    std::vector<uint64_t> block_end_;                   // per lane: the largest command end so far
    std::vector<std::pair<uint32_t, uint64_t>> empty_;  // lanes whose block has no commands, and its start
    sc_core::sc_event_queue empty_end_;
};

}  // namespace hw
