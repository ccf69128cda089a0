// Hand-built programs for the L2 cache (docs/timing-model.md §6.1), worked
// out by hand once and checked on the oracle (tests/oracle/oracle_l2_test.cpp)
// and on the SystemC model (tests/hw/l2_test.cpp).
//
// The machine: the default one with one request in flight per DMA engine
// (unless a case says otherwise), DDR W = 32 B/cycle, Lat = 100; an L2 of
// 1 KiB in 64-byte lines, its port 64 B/cycle with bursts of 64 B
// (ddr.burst_bytes) and a hit latency of 3. Blocks start at cycle 1.
#pragma once

#include <string>

#include "tests/support/program_builders.h"

namespace l2cases {

using namespace testprog;

// The config overrides, as a config file's text; `ways` 2 gives 8 sets,
// 1 gives 16.
inline std::string l2_config(int ways, int outstanding = 1) {
    return R"({"dma": {"max_outstanding": )" + std::to_string(outstanding) +
           R"(}, "l2": {"kib": 1, "line_bytes": 64, "ways": )" + std::to_string(ways) +
           R"(, "bytes_per_cycle": 64, "hit_latency_cycles": 3}})";
}

inline arch::Command load_from(uint64_t ddr_addr, uint32_t bytes = 64) {
    arch::Command c = load(bytes);
    c.dma.src_addr = ddr_addr;
    return c;
}

inline arch::Command store_to(uint64_t ddr_addr, uint32_t bytes = 64) {
    arch::Command c = dma(Space::L1, Space::DDR, bytes);
    c.dma.dst_addr = ddr_addr;
    return c;
}

inline arch::Program one_stream(std::vector<arch::Command> cmds) {
    arch::Program p;
    p.blocks.push_back(block({stream(dma_engine(0), std::move(cmds))}));
    return p;
}

// Read miss, then a hit on the same line. Load 0 starts at 1, its burst is
// granted at 2 (slots [128, 192)) and leaves the port at 3; the miss queues
// a fill at 2: DDR slots [96, 160), out at 5, data at 105; it ends at
// max(3 + 3, 105) = 105. Load 1 starts at 105, is granted at 106 (a hit),
// leaves at 107 and ends at 110.
inline arch::Program miss_then_hit() { return one_stream({load_from(0), load_from(0)}); }

// With two requests in flight, the same two loads: load 1 starts at 2 (load
// 0's burst granted), is granted at 3, leaves at 4, and hits a line whose
// fill arrives at 105: it waits for it and ends at 105 too.
inline arch::Program hit_under_miss() { return miss_then_hit(); }

// Direct-mapped (16 sets): a store to line 0, then a load of line 16 (DDR
// address 1024), which maps to the same set. The store is granted at 2, a
// write miss that installs line 0 dirty without a fill (ready at 2), leaves
// at 3 and ends at 6. The load starts at 6, is granted at 7 and leaves at
// 8; its miss evicts dirty line 0: a write-back queued at 7 takes DDR slots
// [256, 320) (out at 10), then its fill [320, 384) (out at 12, data at
// 112); it ends at 112. DDR: 64 bytes read, 64 written; no flush (line 16
// is clean).
inline arch::Program dirty_eviction() { return one_stream({store_to(0), load_from(1024)}); }

// A store alone: it ends at 6 and leaves its line dirty: the flush is 64
// bytes, counted in the DDR bytes written, and takes no cycles.
inline arch::Program flush_at_the_end() { return one_stream({store_to(0)}); }

// Two ways, least recently used first: lines 0, 8, 0, 16, 8 (DDR addresses
// 0, 512, 0, 1024, 512) all map to set 0. 0 misses, 8 misses, 0 hits (now
// the most recent), 16 misses and evicts 8 (the least recent), so 8 misses
// again: 1 hit, 4 misses.
inline arch::Program lru_order() {
    return one_stream({load_from(0), load_from(512), load_from(0), load_from(1024), load_from(512)});
}

// One 128-byte load from DDR address 32 crosses three lines in two bursts:
// burst 0 covers bytes [32, 96) (lines 0 and 1), burst 1 [96, 160) (lines 1
// and 2): line 1 is looked up twice, the second time a hit. Granted at 2
// and 3; misses on 0 and 1 queue fills at 2 (DDR out at 5 and 7), the miss
// on 2 one at 3 (out at 9, data at 109). It leaves the port at 4 and ends
// at 109.
inline arch::Program bursts_across_lines() { return one_stream({load_from(32, 128)}); }

// A gather's rows are timed as misses without a lookup (§6.1): a load of
// line 0 (as in miss_then_hit, it ends at 105), then a gather of 2 rows of
// 32 bytes from a table at DDR address 0, the very line now in the L2. The
// gather starts at 105, its one 64-byte burst is granted at 106 and leaves
// the port at 107; each row's part queues a 32-byte DDR read at 106: row 0
// takes slots [3424, 3456) (107 * 32, after the fill's [96, 160)), out at
// 108, data at 208; row 1 [3456, 3488), out at 109, data at 209. It ends at
// max(107 + 3, 209) = 209. The L2 saw one lookup (the load's miss); DDR read
// 64 + 64 bytes. Without an L2 it is a 64-byte read: the load ends at 104,
// the gather starts there and ends at 104 + 1 + 2 + 100 = 207.
inline arch::Program gather_after_a_load() {
    arch::Command g = load_from(0);
    g.dma.rows = 2, g.dma.row_bytes = 32, g.dma.src_stride = 32, g.dma.dst_addr = 64, g.dma.dst_stride = 32;
    g.dma.gather = arch::Gather{0, 2};
    return one_stream({load_from(0), g});
}

// A write port of its own (l2.write_bytes_per_cycle, §6.1). The machine:
// two cluster DMA engines, DDR W = 256 B/cycle (so that a fill is not held
// up by the one before), the L2's 2-way 1 KiB in 64-byte lines and its port
// as above; `write_bytes_per_cycle` 0 shares that port, 64 adds a write
// port as fast.
inline std::string two_port_config(int write_bytes_per_cycle) {
    return R"({"cluster": {"dma_engines": 2}, "ddr": {"bytes_per_cycle": 256}, "dma": {"max_outstanding": 1},)"
           R"( "l2": {"kib": 1, "line_bytes": 64, "ways": 2, "bytes_per_cycle": 64, "hit_latency_cycles": 3,)"
           R"( "write_bytes_per_cycle": )" +
           std::to_string(write_bytes_per_cycle) + "}}";
}

inline arch::Program two_streams(std::vector<arch::Command> first, std::vector<arch::Command> second) {
    arch::Program p;
    p.blocks.push_back(block({stream(dma_engine(0), std::move(first)), stream(dma_engine(1), std::move(second))}));
    return p;
}

// DMA engine 0 loads 256 bytes from DDR address 0 (lines 0..3) while engine
// 1 stores 256 bytes to 4096 (lines 64..67, the same sets' other ways).
// Both start at 1 and are eligible from 2, four bursts each.
// * One shared port: the bursts alternate, the load's granted at 2, 4, 6,
//   8 and the store's at 3, 5, 7, 9. Each of the load's misses queues a
//   fill at its grant g: DDR slots from (g + 1) x 256, out at g + 2, data at
//   g + 102; the load ends at max(9 + 3, 110) = 110. The store's write
//   misses install their lines: it leaves the port at 10 and ends at 13.
// * A write port of 64 B/cycle: each port grants its requester a burst a
//   cycle, at 2, 3, 4, 5: the load's last fill arrives at 107 and it ends
//   there; the store leaves at 6 and ends at 9.
inline arch::Program load_beside_store() { return two_streams({load_from(0, 256)}, {store_to(4096, 256)}); }

// Engine 0 loads line 0 while engine 1 stores to it, on two ports: both
// are granted at 2, and the L2 looks the read up first (§6.1): a read miss
// queues a fill (out at 4, data at 104) and installs the line; the write
// then hits it, marks it dirty and waits for its data, so both end at 104,
// and the line is the flush. (Were the write looked up first, it would miss
// and install the line dirty, the read would hit it, no fill, and both would
// end at 6.)
inline arch::Program load_and_store_one_line() { return two_streams({load_from(0)}, {store_to(0)}); }

// Link waits across the two ports (§9): a slow read port (32 B/cycle, so a
// 64-byte burst crosses it in two cycles), a write port of 64 and three DMA
// engines with requests in flight. Engine 0 loads 64 bytes (granted at 2,
// moving in cycles 2 and 3), then stores 64 (started at 2, eligible from
// 3); engines 1 and 2 store 128 bytes each from 2, taking the write port's
// cycles 2 and 3 (engine 1, then 2, in turn). Engine 0's store is granted
// at 4: cycle 3 is not one of its link waits, since its load's bytes move
// in it, on the other port; it ends with its load, whose fill arrives at
// 104 (§5: a DMA engine's commands end in start order). Engine 1's second
// burst is granted at 5 (its waits: 3 and 4), engine 2's at 6 (2, 4 and 5).
inline std::string slow_read_port_config() {
    return R"({"cluster": {"dma_engines": 3}, "ddr": {"bytes_per_cycle": 256}, "dma": {"max_outstanding": 8},)"
           R"( "l2": {"kib": 1, "line_bytes": 64, "ways": 2, "bytes_per_cycle": 32, "write_bytes_per_cycle": 64,)"
           R"( "hit_latency_cycles": 3}})";
}

inline arch::Program store_while_its_load_moves() {
    arch::Program p;
    p.blocks.push_back(
        block({stream(dma_engine(0), {load_from(0), store_to(64)}), stream(dma_engine(1), {store_to(128, 128)}),
               stream(dma_engine(2), {store_to(256, 128)})}));
    return p;
}

}  // namespace l2cases
