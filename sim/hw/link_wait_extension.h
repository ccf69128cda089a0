// The TLM-2.0 extension by which an arbitrated memory tells a DMA engine
// how many cycles its transfer waited for the link while other requesters
// had it (timing model §9, the cycle accounting). The payload owns it.
#pragma once

#include <cstdint>

#include <tlm>

namespace hw {

struct LinkWaitExtension : tlm::tlm_extension<LinkWaitExtension> {
    uint64_t cycles = 0;

    tlm::tlm_extension_base* clone() const override { return new LinkWaitExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        cycles = static_cast<const LinkWaitExtension&>(other).cycles;
    }
};

}  // namespace hw
