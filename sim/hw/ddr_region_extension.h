// The TLM-2.0 extension a cluster DMA engine attaches to its payload: the
// DDR-side region of its command, which the L2 cache looks up burst by
// burst (docs/timing-model.md §6.1). The generic payload's address and
// length say where a transfer starts and how long it is, not its rows.
#pragma once

#include <tlm>

#include "sim/arch/ddr_region.h"

namespace hw {

struct DdrRegionExtension : tlm::tlm_extension<DdrRegionExtension> {
    arch::DdrRegion region;

    tlm::tlm_extension_base* clone() const override { return new DdrRegionExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        region = static_cast<const DdrRegionExtension&>(other).region;
    }
};

}  // namespace hw
