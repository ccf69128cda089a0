#include "sim/hw/dma_engine.h"

#include <stdexcept>
#include <string>

#include "sim/hw/link_wait_extension.h"
#include "sim/hw/sim_time.h"

namespace hw {

DmaEngine::DmaEngine(sc_core::sc_module_name name, arch::EngineId id, uint32_t cluster, FlagBoards& flags,
                     trace::Recorder* recorder, size_t max_outstanding)
    : Engine(name, id, cluster, flags, recorder), socket("socket") {
    set_max_outstanding(max_outstanding);
    region_ = new DdrRegionExtension;
    payload_.set_extension(region_);
    payload_.set_extension(new LinkWaitExtension);
}

Engine::Executed DmaEngine::execute(const arch::Command& cmd) {
    const arch::DmaArgs& d = cmd.dma;
    // The far memory is the one further from the compute units: DDR, or L1
    // for a cube's engine. Data flowing towards them is a read of it.
    bool towards_cubes = d.dst > d.src;  // Space orders DDR < L1 < L0, and DDR < UB
    payload_.set_command(towards_cubes ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    payload_.set_address(towards_cubes ? d.src_addr : d.dst_addr);
    payload_.set_data_ptr(nullptr);
    payload_.set_data_length(unsigned(d.bytes()));
    payload_.set_streaming_width(unsigned(d.bytes()));
    payload_.set_byte_enable_ptr(nullptr);
    payload_.set_dmi_allowed(false);
    payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    if (d.src == arch::Space::DDR || d.dst == arch::Space::DDR) region_->region = arch::ddr_side_region(d);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(payload_, delay);
    if (payload_.get_response_status() != tlm::TLM_OK_RESPONSE)
        throw std::runtime_error(std::string(name()) + ": DMA rejected by " +
                                 arch::space_name(towards_cubes ? d.src : d.dst) + ": " +
                                 payload_.get_response_string());
    // The link returns once the last burst is granted; the data arrives
    // `delay` later (timing model §5, §6). With one command at a time the
    // engine simply waits for it: the same timing, one process wake-up
    // fewer per command.
    const uint64_t link_wait = payload_.get_extension<LinkWaitExtension>()->cycles;
    if (max_outstanding() == 1) {
        suspend(delay);
        return {now_cycles(), link_wait};
    }
    return {now_cycles() + delay.value(), link_wait};
}

}  // namespace hw
