#include "sim/trace/bytes_in_flight.h"

#include <utility>

namespace trace {

std::vector<StepSeries> link_bytes_in_flight(const arch::Config& c, const std::vector<TimedCommand>& cmds) {
    std::vector<std::vector<std::pair<uint64_t, int64_t>>> deltas(size_t(1 + c.clusters));
    for (const TimedCommand& t : cmds) {
        if (!t.cmd || t.cmd->op != arch::Opcode::Dma) continue;
        const bool ddr_side = arch::requests_ddr(t.rec.engine.kind);
        size_t link = ddr_side ? 0 : 1 + size_t(t.rec.cluster);
        if (link >= deltas.size()) continue;
        const int64_t bytes = int64_t(t.cmd->dma.bytes());
        deltas[link].push_back({t.rec.start, bytes});
        deltas[link].push_back({t.rec.end, -bytes});
    }
    std::vector<StepSeries> out;
    for (auto& d : deltas) out.push_back(steps_from_deltas(std::move(d)));
    return out;
}

StepSeries ddr_transfer_bytes_in_flight(const std::vector<DdrTransferRecord>& transfers) {
    std::vector<std::pair<uint64_t, int64_t>> deltas;
    deltas.reserve(2 * transfers.size());
    for (const DdrTransferRecord& t : transfers) {
        deltas.push_back({t.queued, int64_t(t.bytes)});
        deltas.push_back({t.data, -int64_t(t.bytes)});
    }
    return steps_from_deltas(std::move(deltas));
}

}  // namespace trace
