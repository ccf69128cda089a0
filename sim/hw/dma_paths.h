// The clusters' read and write paths to DDR (timing model §6.2). Each
// cluster's DMA engines reach the DDR side through one path per direction
// (Ascend: MTE2 reads, MTE3 writes), which takes their requests one after
// another, in the order they become eligible (in one cycle, by requester
// number), at its own rate. A request leaves its path at q; its command
// ends no sooner than q plus the link's latency. The shared link (§6) still
// arbitrates every burst: the path only bounds when the command ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hw {

class DmaPaths {
public:
    // `requesters_per_cluster`: requester r belongs to cluster
    // r / requesters_per_cluster. A rate of 0 is a path without a limit.
    DmaPaths(int requesters, int requesters_per_cluster, uint64_t read_bytes_per_cycle, uint64_t write_bytes_per_cycle);

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
        return paths_[std::size_t(requester / per_cluster_) * 2 + (write ? 1 : 0)];
    }

    int per_cluster_;
    std::vector<Path> paths_;       // cluster * 2 + (write ? 1 : 0)
    std::vector<uint64_t> leaves_;  // per requester: when its last request leaves its path
    std::vector<char> placed_;      // per requester: its last request has its place on the path
    std::vector<char> writes_;      // per requester: its last request writes
};

}  // namespace hw
