// The requesters' read and write paths (timing model §6.2). Each
// cluster's DMA engines reach the DDR side through one path per direction
// (Ascend: MTE2 reads, MTE3 writes), and each vector unit's DMA engine
// through paths of its own (the AIV's MTE2 and MTE3); on a cluster's L1
// port each cube's DMA engine has a read path of its own (L1 -> L0, the
// cube's MTE1). A path takes its requests one after another, in the order
// they become eligible (in one cycle, by requester number), at its own
// rate. A request leaves its path at q; its command ends no sooner than q
// plus the link's latency. The shared link (§6) still arbitrates every
// burst: the path only bounds when the command ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hw {

// The rates of one pair of paths; 0 is a path without a limit.
struct PathRates {
    uint64_t read_bytes_per_cycle = 0, write_bytes_per_cycle = 0;
};

// Which paths a cluster's requesters cross (on an L1 port the "cluster"
// is the port's own, its requesters the cubes): requester r of the link is
// requester r % group_of.size() of cluster r / group_of.size(), and crosses
// its cluster's pair of paths number group_of[r % group_of.size()], whose
// rates are rates[that number].
struct PathLayout {
    std::vector<int> group_of;
    std::vector<PathRates> rates;
    bool limited() const {
        for (const PathRates& r : rates)
            if (r.read_bytes_per_cycle || r.write_bytes_per_cycle) return true;
        return false;
    }
};

class DmaPaths {
public:
    DmaPaths(int requesters, const PathLayout& layout);

    // A request of `bytes` by `requester`, eligible from cycle `eligible`.
    void request(int requester, bool write, uint64_t bytes, uint64_t eligible);

    // The cycle `requester`'s last request leaves its path (0 on a path
    // without a limit). Every request of its cluster's path that is
    // eligible no later must have been made (true once the link has granted
    // any burst of it: requests are eligible the cycle after they are made).
    uint64_t leaves(int requester);

private:
    struct Waiting {
        uint64_t eligible;
        int requester;
        uint64_t bytes;
    };
    struct Path {
        uint64_t bytes_per_cycle = 0;
        uint64_t free_at = 0;  // the cycle the last request placed leaves it
        std::vector<Waiting> waiting;
    };
    Path& path_of(int requester, bool write) {
        const std::size_t cluster = std::size_t(requester) / group_of_.size();
        const std::size_t group = std::size_t(group_of_[std::size_t(requester) % group_of_.size()]);
        return paths_[(cluster * groups_ + group) * 2 + (write ? 1 : 0)];
    }

    std::vector<int> group_of_;
    std::size_t groups_;
    std::vector<Path> paths_;       // (cluster * groups + group) * 2 + (write ? 1 : 0)
    std::vector<uint64_t> leaves_;  // per requester: when its last request leaves its path
    std::vector<char> placed_;      // per requester: its last request has its place on the path
    std::vector<char> writes_;      // per requester: its last request writes
};

}  // namespace hw
