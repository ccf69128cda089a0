#include "sim/cli/driver/stored_results.h"

#include <algorithm>

#include "dsl/ir/fusion_groups.h"

namespace cli {

bool readable(const arch::TensorPlacement& t) {
    // A tensor kept in the Unified Buffers is spread over every vector
    // unit's UB in bands of rows, and its bytes may hold a later tensor's
    // by the end of the run: not read after it.
    return !t.name.empty() && t.role.find("never written") == std::string::npos && t.bytes > 0 && t.ub_addr < 0;
}

bool ran_fused(const dsl::TaskGraph& g, const arch::Program& p, int head) {
    const dsl::OpNode& op = g.ops[size_t(head)];
    return !op.epilogue.empty() && p.ops[size_t(op.epilogue.front())].fused_into == head;
}

bool stored(const dsl::TaskGraph& g, const arch::Program& p, int i) {
    const dsl::OpNode& op = g.ops[size_t(i)];
    const int head = op.epilogue.empty() ? op.fused_into : i;
    return head < 0 || !ran_fused(g, p, head) || dsl::fused_result_stored(g, dsl::tensor_consumers(g), i);
}

DdrWrites::DdrWrites(const arch::Program& p) {
    for (const arch::Block& b : p.blocks)
        for (const arch::Stream& s : b.streams)
            for (const arch::Command& c : s.commands)
                if (c.op == arch::Opcode::Dma && c.dma.dst == arch::Space::DDR && c.dma.rows > 0)
                    ranges_.emplace_back(
                        c.dma.dst_addr, c.dma.dst_addr + uint64_t(c.dma.rows - 1) * c.dma.dst_stride + c.dma.row_bytes);
    std::sort(ranges_.begin(), ranges_.end());
    std::vector<std::pair<uint64_t, uint64_t>> merged;
    for (const auto& r : ranges_)
        if (!merged.empty() && r.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, r.second);
        else merged.push_back(r);
    ranges_ = std::move(merged);
}

bool DdrWrites::touches(uint64_t addr, uint64_t bytes) const {
    // The first range ending after addr.
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), addr,
                               [](uint64_t a, const std::pair<uint64_t, uint64_t>& r) { return a < r.second; });
    return it != ranges_.end() && it->first < addr + bytes;
}

}  // namespace cli
