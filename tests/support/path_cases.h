// Hand-built programs for the clusters' read and write paths
// (docs/timing-model.md §6.2), worked out by hand once and checked on the
// oracle (tests/oracle/oracle_path_test.cpp) and on the SystemC model
// (tests/hw/cluster_path_test.cpp).
//
// The machine: the default one (DDR W = 32 B/cycle in 64 B bursts of two
// cycles, Lat = 100) with one request in flight per DMA engine. Blocks
// start at cycle 1; a command that starts at s is eligible from s + 1.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/json_parse.h"
#include "tests/support/l2_cases.h"
#include "tests/support/program_builders.h"

namespace pathcases {

using namespace testprog;

// A command's expected start and end: command `index` of `engine` in `block`.
struct Expected {
    uint32_t block;
    arch::EngineId engine;
    uint32_t index;
    uint64_t start, end;
};

inline arch::Command store(uint32_t bytes) { return dma(Space::L1, Space::DDR, bytes); }

// Two engines of one cluster, a read path of 16 B/cycle, a write path of 8.
inline std::string two_engines_config() {
    return R"({"cluster": {"dma_engines": 2, "ddr_read_bytes_per_cycle": 16, "ddr_write_bytes_per_cycle": 8},
              "dma": {"max_outstanding": 1}})";
}

// dma0 loads 256 B then 64 B; dma1 loads 128 B then stores 64 B.
// The link, from 2 (requester 0 first): dma0 [2,4) dma1 [4,6) dma0 [6,8)
// dma1 [8,10) (dma1 leaves at 10: 110) dma0 [10,12) [12,14) (leaves at 14:
// 114). The read path, both eligible at 2, requester 0 first: dma0 over
// [2, 18) (ends max(114, 18 + 100) = 118), dma1 over [18, 26) behind it
// (ends max(110, 126) = 126). dma0's 64 B load starts at 118, eligible at
// 119: link [119, 121), path [119, 123): ends 223. dma1's store starts at
// 126, eligible at 127: link [127, 129), the write path (its own, free)
// [127, 135): ends 235.
inline arch::Program two_engines_share_the_read_path() {
    arch::Program p;
    p.blocks.push_back(
        block({stream(dma_engine(0), {load(256), load(64)}), stream(dma_engine(1), {load(128), store(64)})}));
    return p;
}
inline std::vector<Expected> two_engines_share_the_read_path_ends() {
    return {{0, dma_engine(0), 0, 1, 118},
            {0, dma_engine(1), 0, 1, 126},
            {0, dma_engine(0), 1, 118, 223},
            {0, dma_engine(1), 1, 126, 235}};
}

// One engine per cluster, a read path of 16 B/cycle.
inline std::string one_engine_config() {
    return R"({"cluster": {"ddr_read_bytes_per_cycle": 16}, "dma": {"max_outstanding": 1}})";
}

// Two clusters load 256 B each, both eligible at 2. The link alternates:
// cluster 0's last burst [14, 16) (116), cluster 1's [16, 18) (118). Each
// has its own path, [2, 18): both end at 118 (one shared path would have
// put cluster 1's over [18, 34), ending at 134).
inline arch::Program clusters_have_their_own_paths() {
    arch::Program p;
    for (int i = 0; i < 2; ++i) p.blocks.push_back(block({stream(dma_engine(0), {load(256)})}));
    return p;
}
inline std::vector<Expected> clusters_have_their_own_paths_ends() {
    return {{0, dma_engine(0), 0, 1, 118}, {1, dma_engine(0), 0, 1, 118}};
}

// Behind an L2 (tests/support/l2_cases.h: port 64 B/cycle, hit latency 3)
// with a read path of 8 B/cycle: a miss, then a hit on the same line. The
// miss's data is there at 105; its path [2, 10) gives 10 + 3: it ends at
// 105. The hit starts at 105, eligible at 106, leaves the port at 107
// (110), its path [106, 114): it ends at 114 + 3 = 117, the path's latency
// being the L2 port's.
inline std::string behind_an_l2_config() {
    nlohmann::json j = testjson::parse(l2cases::l2_config(2));
    j["cluster"]["ddr_read_bytes_per_cycle"] = 8;
    return j.dump();
}
inline arch::Program behind_an_l2() { return l2cases::miss_then_hit(); }
inline std::vector<Expected> behind_an_l2_ends() {
    return {{0, dma_engine(0), 0, 1, 105}, {0, dma_engine(0), 1, 105, 117}};
}

// A vector unit with its own Unified Buffer (timing model §2) has a load
// and a store engine of its own, requesters of the DDR side after the
// cluster's DMA engines, with paths of its own: the cluster's read path
// 16 B/cycle, the vector unit's read path 8 B/cycle and its write path 4.
inline std::string vector_buffer_config() {
    return R"({"cluster": {"ddr_read_bytes_per_cycle": 16},
              "vector": {"buffer_kib": 64, "ddr_read_bytes_per_cycle": 8, "ddr_write_bytes_per_cycle": 4},
              "dma": {"max_outstanding": 1}})";
}

// dma0 loads 256 B into L1; vector0.load loads 128 B into its UB (setting
// f0), then 64 B more; vector0.store stores 64 B once f0 is set.
// Requesters: dma0 0, vector0.load 1, vector0.store 2. dma0 and the load
// are eligible at 2; the link alternates: dma0 [2,4) load [4,6) dma0
// [6,8) load [8,10) (its last: 110), dma0 [10,12) [12,14) (114). The
// paths are not shared: dma0's read path [2, 18) (ends max(114, 118) =
// 118), the vector unit's own [2, 18) (ends max(110, 118) = 118; behind
// dma0 on the cluster's path it would have waited to [18, 34): 134).
// At 118 the second load starts (eligible 119: link [119, 121), read path
// [119, 127): ends 227) and f0 is set: the store starts at 119 (the flag's
// latency), on its own engine, not behind the load. Eligible at 120, the
// link is the load's until 121: [121, 123), its write path [120, 136):
// ends 236.
inline arch::Program vector_unit_has_its_own_engines_and_paths() {
    arch::Program p;
    p.blocks.push_back(
        block({stream(dma_engine(0), {load(256)}),
               stream(vector_load(0), {dma(Space::DDR, Space::UB, 128, {}, {0}), dma(Space::DDR, Space::UB, 64)}),
               stream(vector_store(0), {dma(Space::UB, Space::DDR, 64, {0})})},
              1));
    return p;
}
inline std::vector<Expected> vector_unit_has_its_own_engines_and_paths_ends() {
    return {{0, dma_engine(0), 0, 1, 118},
            {0, vector_load(0), 0, 1, 118},
            {0, vector_load(0), 1, 118, 227},
            {0, vector_store(0), 0, 119, 236}};
}

// Each cube's read path from L1 (§6.2 on the L1 ports: the Ascend cube's
// MTE1), 16 B/cycle, on the default L1 port (W = 128 B/cycle in 128 B
// bursts, Lat = 4; 4 cubes, requesters 0 to 3). cube0.dma moves 256 B L1
// -> L0, then 256 B back L0 -> L1; cube1.dma moves 128 B L1 -> L0.
inline std::string cube_read_path_config() {
    return R"({"cube": {"l1_read_bytes_per_cycle": 16}, "dma": {"max_outstanding": 1}})";
}

// Both eligible at 2; the port, requester 0 first: cube0 [2,3) cube1
// [3,4) (leaves at 4: 8) cube0 [4,5) (leaves at 5: 9). The read paths are
// the cubes' own: cube0's [2, 18) (ends max(9, 18 + 4) = 22), cube1's
// [2, 10) (ends max(8, 14) = 14; behind cube0 on one path it would have
// waited to [18, 26): 30). cube0's L0 -> L1 copy, a write, has no path:
// it starts at 22, eligible at 23, the port [23, 25): ends 29 (the port
// alone, as without a limit, where the first copy would have ended at 9).
inline arch::Program cubes_have_their_own_read_paths() {
    arch::Program p;
    p.blocks.push_back(
        block({stream(cube_dma(0), {to_l0(256), dma(Space::L0, Space::L1, 256)}), stream(cube_dma(1), {to_l0(128)})}));
    return p;
}
inline std::vector<Expected> cubes_have_their_own_read_paths_ends() {
    return {{0, cube_dma(0), 0, 1, 22}, {0, cube_dma(1), 0, 1, 14}, {0, cube_dma(0), 1, 22, 29}};
}

}  // namespace pathcases
