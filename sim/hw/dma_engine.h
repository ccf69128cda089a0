// An asynchronous DMA engine: a command queue that moves 2D regions between
// adjacent levels of the memory hierarchy. Its TLM-2.0 initiator socket is
// bound to the memory on the far side of the link it crosses (DDR for a
// cluster DMA engine, L1 for a cube's), whose port arbitrates the link.
// Up to `max_outstanding` of its commands are in flight at once (§5).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm>

#include "sim/hw/ddr_region_extension.h"
#include "sim/hw/engine.h"

namespace hw {

class DmaEngine : public Engine {
public:
    tlm_utils::simple_initiator_socket<DmaEngine> socket;

    DmaEngine(sc_core::sc_module_name name, arch::EngineId id, uint32_t cluster, FlagBoards& flags,
              trace::Recorder* recorder, size_t max_outstanding);

private:
    Executed execute(const arch::Command& cmd) override;
    tlm::tlm_generic_payload payload_;
    DdrRegionExtension* region_;  // owned by payload_
};

}  // namespace hw
