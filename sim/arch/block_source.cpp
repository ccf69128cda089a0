#include "sim/arch/block_source.h"

#include <algorithm>

namespace arch {

std::vector<BlockRange> block_ranges(std::vector<uint32_t> blocks) {
    std::sort(blocks.begin(), blocks.end());
    std::vector<BlockRange> out;
    for (uint32_t b : blocks) {
        if (!out.empty() && b <= out.back().last) {
            out.back().last = std::max(out.back().last, b + 1);
            continue;
        }
        out.push_back({b, b + 1});
    }
    return out;
}

DispatchInfo dispatch_info(const Block& b) { return {block_ranges(b.deps), b.drain, b.cluster, block_side(b)}; }

}  // namespace arch
