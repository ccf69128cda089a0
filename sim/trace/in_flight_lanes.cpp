#include "sim/trace/in_flight_lanes.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>
#include <utility>

namespace trace {

std::vector<uint32_t> in_flight_lanes(const std::vector<TimedCommand>& cmds) {
    std::vector<size_t> order(cmds.size());
    std::iota(order.begin(), order.end(), size_t{0});
    auto key = [&](size_t i) {
        const CommandRecord& r = cmds[i].rec;
        return std::make_tuple(r.cluster, arch::engine_order(r.engine), r.start, r.end);
    };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
    std::vector<uint32_t> lanes(cmds.size(), 0);
    std::vector<uint64_t> busy_until;  // per lane of the current engine
    std::pair<uint32_t, std::pair<int, int64_t>> engine{~0u, {}};
    for (size_t i : order) {
        const CommandRecord& r = cmds[i].rec;
        std::pair<uint32_t, std::pair<int, int64_t>> e{r.cluster, arch::engine_order(r.engine)};
        if (e != engine) {
            engine = e;
            busy_until.clear();
        }
        size_t lane = 0;
        while (lane < busy_until.size() && busy_until[lane] > r.start) ++lane;
        if (lane == busy_until.size()) busy_until.push_back(0);
        busy_until[lane] = r.end;
        lanes[i] = uint32_t(lane);
    }
    return lanes;
}

}  // namespace trace
