#include "sim/hw/dma_paths.h"

#include <algorithm>

#include "sim/arch/ceil_div.h"

namespace hw {

DmaPaths::DmaPaths(int requesters, const PathLayout& layout)
    : group_of_(layout.group_of.empty() ? std::vector<int>{0} : layout.group_of),
      groups_(std::max<size_t>(layout.rates.size(), 1)),
      leaves_(size_t(requesters), 0),
      placed_(size_t(requesters), 1),
      writes_(size_t(requesters), 0) {
    const size_t clusters = (size_t(requesters) + group_of_.size() - 1) / group_of_.size();
    for (size_t c = 0; c < clusters; ++c)
        for (size_t g = 0; g < groups_; ++g) {
            const PathRates r = g < layout.rates.size() ? layout.rates[g] : PathRates{};
            paths_.push_back(Path{r.read_bytes_per_cycle, 0, {}});
            paths_.push_back(Path{r.write_bytes_per_cycle, 0, {}});
        }
}

void DmaPaths::request(int requester, bool write, uint64_t bytes, uint64_t eligible) {
    const size_t r = size_t(requester);
    writes_[r] = write;
    leaves_[r] = 0;
    Path& p = path_of(requester, write);
    if (!p.bytes_per_cycle) {
        placed_[r] = 1;
        return;
    }
    placed_[r] = 0;
    p.waiting.push_back({eligible, requester, bytes});
}

uint64_t DmaPaths::leaves(int requester) {
    const size_t r = size_t(requester);
    if (placed_[r]) return leaves_[r];
    Path& p = path_of(requester, writes_[r]);
    // Place the waiting requests in path order up to this one: all of those
    // before it are known (see the header).
    std::sort(p.waiting.begin(), p.waiting.end(), [](const Waiting& a, const Waiting& b) {
        return a.eligible != b.eligible ? a.eligible < b.eligible : a.requester < b.requester;
    });
    size_t n = 0;
    while (!placed_[r]) {
        const Waiting& w = p.waiting[n++];
        p.free_at = std::max(w.eligible, p.free_at) + arch::ceil_div(w.bytes, p.bytes_per_cycle);
        leaves_[size_t(w.requester)] = p.free_at;
        placed_[size_t(w.requester)] = 1;
    }
    p.waiting.erase(p.waiting.begin(), p.waiting.begin() + long(n));
    return leaves_[r];
}

}  // namespace hw
