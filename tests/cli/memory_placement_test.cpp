// On-chip tensors end to end (dsl/lower/buffer_plan.h): models/memory_placement.pto
// against the same program without placement, and the placement errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

nlohmann::json report(const std::string& pto_path) {
    std::string json = (scratch() / (std::filesystem::path(pto_path).filename().string() + ".json")).string();
    Outcome o = run("-q --report-json '" + json + "' '" + pto_path + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

const char* kNaive =
    "import pypto as pypo\n"
    "x = pypo.input(\"x\", shape=(128, 256), dtype=\"float16\")\n"
    "w1 = pypo.weight(\"w1\", shape=(256, 256), dtype=\"float16\")\n"
    "w2 = pypo.weight(\"w2\", shape=(256, 256), dtype=\"float16\")\n"
    "h = pypo.op.matmul(x, w1)\n"
    "gate = pypo.op.sigmoid(h)\n"
    "gated = pypo.op.mul(h, gate)\n"
    "skip = pypo.op.matmul(x, w2)\n"
    "pypo.output(\"y\", pypo.op.add(gated, skip))\n";

// Every tensor is 128 x 256 or 256 x 256 float16: 65536 or 131072 bytes.
//
// Without placement the tiling is chosen for all four clusters: each
// matmul is 4 blocks of 128 x 64 (64 x 32 C tiles on 2 x 2 cubes), each
// reading all of A (65536 B) and its quarter of the weights (32768 B):
// 4 x 65536 + 131072 = 393216 B read per matmul, 65536 written (two
// 128 x 128 blocks would read A only twice but leave two clusters idle).
// sigmoid and mul(h, gate) are one vector chain (dsl/passes/pass_fusion.h):
// it reads h once (mul reads the chain's input again from the same chunk)
// and writes gated; gate never reaches DDR. The add is fused into the
// second matmul: it reads gated as its tiles' operand and writes y; skip
// never reaches DDR. Read: 393216 + 65536 + 393216 + 65536 = 917504.
// Written: h, gated, y: 3 x 65536 = 196608 (without fusion, gate's and
// skip's writes and reads too: 1114112 and 327680).
//
// With placement (dsl/lower/cluster_placement.h, dsl/lower/row_bands.h)
// the buffer is copied in 2 bands of 64 rows, each into 2 clusters' L1
// (2 x 65536 read); the matmuls are tiled so that each of their 4 blocks,
// 64 x 128, reads one band: each reads its half of the weights (4 x 65536
// per matmul) and no A; matmul_1's blocks write h into their own
// cluster's L1, and sigmoid and mul run on each cluster over the part of
// h it holds (64 x 128, read in place), as one vector chain: it writes
// gated. The add is fused into matmul_2 (its A on chip, its result in
// DDR): it reads gated, writes y. Read: 131072 + 262144 + 262144 + 65536
// = 720896. Written: gated, y: 131072.
TEST(MemoryPlacement, OnChipTensorsCutDdrBytesAndCycles) {
    nlohmann::json naive = report(write_file("placement_naive.pto", kNaive));
    nlohmann::json placed = report(std::string(DAVINCI_SOURCE_DIR) + "/models/memory_placement.pto");
    EXPECT_EQ(naive["ddr_bytes_read"].get<uint64_t>(), 917504u);
    EXPECT_EQ(naive["ddr_bytes_written"].get<uint64_t>(), 196608u);
    EXPECT_EQ(placed["ddr_bytes_read"].get<uint64_t>(), 720896u);
    EXPECT_EQ(placed["ddr_bytes_written"].get<uint64_t>(), 131072u);
    // Placement pays: fewer bytes and fewer cycles.
    EXPECT_LT(placed["ddr_bytes_read"].get<uint64_t>(), naive["ddr_bytes_read"].get<uint64_t>());
    EXPECT_LT(placed["total_cycles"].get<uint64_t>(), naive["total_cycles"].get<uint64_t>());
    EXPECT_EQ(naive["total_cycles"].get<uint64_t>(), 77370u);
    EXPECT_EQ(placed["total_cycles"].get<uint64_t>(), 76831u);
    EXPECT_EQ(placed["macs"], naive["macs"]);
    EXPECT_TRUE(placed["notes"].empty()) << placed["notes"];
    // The copy is an operation of its own, on the DMA engines: 2 bands into 2 clusters each.
    EXPECT_EQ(placed["ops"][0]["kind"], "move");
    EXPECT_EQ(placed["ops"][0]["dma_bytes"].get<uint64_t>(), 131072u);
}

// The on-chip work spreads over every cluster: each cluster's L1 holds the
// band of the buffer and the part of h its own blocks use.
TEST(MemoryPlacement, OnChipWorkRunsWhereItsPartsAre) {
    nlohmann::json r = report(std::string(DAVINCI_SOURCE_DIR) + "/models/memory_placement.pto");
    for (const nlohmann::json& u : r["units"])
        if (u["kind"] == "cube") {
            EXPECT_EQ(u["macs"].get<uint64_t>(), 16777216u / 16) << u;
        }
    Outcome o = run("--dump-program models/memory_placement.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    // The region: 128 KiB at the top of the 256 KiB L1 of every cluster, buffer first.
    for (const char* line : {"tensor l1_buf_1 (128, 256) float16 buffer, in L1 at L1:0x20000, 65536 B",
                             "tensor matmul_1 (128, 256) float16 intermediate, in L1 at L1:0x30000, 65536 B",
                             "block 0 l1_buf_1[0:64] = x[0:64]: 0 flags, on cluster0",
                             "block 1 l1_buf_1[0:64] = x[0:64]: 0 flags, on cluster1",
                             "block 3 l1_buf_1[64:128] = x[64:128]: 0 flags, on cluster3",
                             "block 5 matmul_1[0:64, 128:256]: 32 flags, after 0 1 2 3, on cluster1",
                             "block 9 sigmoid_1[0:64, 128:256]: 3 flags, after 4 5 6 7, on cluster1",
                             // sigmoid and mul: one vector chain, named after its head.
                             "block 10 sigmoid_1[64:128, 0:128]: 3 flags, after 4 5 6 7, on cluster2",
                             // mul_1 is in DDR: y's block waits for the chain's blocks
                             // that wrote its rows (timing model §10, "Block dependencies").
                             "block 15 y[64:128, 128:256]: 40 flags, after 0 1 2 3 10 11, on cluster3"})
        EXPECT_NE(o.out.find(line), std::string::npos) << line << "\n" << o.out;
    // The functional run follows: each cluster's L1 holds its own parts.
    Outcome check = run("--check models/memory_placement.pto");
    EXPECT_EQ(check.status, 0) << check.err;
    EXPECT_NE(check.out.find("-> pass"), std::string::npos) << check.out;
}

// A consumer that cannot follow the parts keeps the tensor in DDR and says so.
TEST(MemoryPlacement, MismatchFallsBackToDdrWithANote) {
    nlohmann::json r = report(write_file("broadcast_on_chip.pto",
                                         "import pypto as pypo\n"
                                         "a = pypo.input('a', shape=(64, 64))\n"
                                         "b = pypo.input('b', shape=(1, 64))\n"
                                         "t = pypo.op.matmul(b, a, target='L1')\n"
                                         "pypo.output('y', pypo.op.add(t, a))\n"));
    ASSERT_EQ(r["notes"].size(), 1u) << r["notes"];
    EXPECT_EQ(r["notes"][0],
              "tensor 'matmul_1' (L1) kept in DDR: add 'y' broadcasts it, and a broadcast does not "
              "follow a tensor's parts");
    // A matmul split over N writes column parts; the next matmul's blocks
    // read whole rows of it, which no one cluster holds.
    const std::string chained = write_file("chained_on_chip.pto",
                                           "import pypto as pypo\n"
                                           "x = pypo.input('x', shape=(128, 256))\n"
                                           "w1 = pypo.weight('w1', shape=(256, 256))\n"
                                           "w2 = pypo.weight('w2', shape=(256, 256))\n"
                                           "h = pypo.op.matmul(x, w1, target='L1')\n"
                                           "pypo.output('y', pypo.op.matmul(h, w2))\n");
    nlohmann::json c = report(chained);
    ASSERT_EQ(c["notes"].size(), 1u) << c["notes"];
    EXPECT_EQ(c["notes"][0],
              "tensor 'matmul_1' (L1) kept in DDR: block 'y[0:64, 0:128]' of matmul reads parts of "
              "'matmul_1' that no one cluster holds (its producer's blocks are decomposed differently)");
    Outcome check = run("--check '" + chained + "'");
    EXPECT_EQ(check.status, 0) << check.err;
}

// Two blocks per cluster (MAX_PARALLEL = 8 on 4 clusters): the buffer's
// bands and the result's parts stay put in the region above the slots.
TEST(MemoryPlacement, SlotsShareTheClustersParts) {
    const std::string pto = write_file("slots_on_chip.pto",
                                       "import pypto as pypo\n"
                                       "pypo.config.MAX_PARALLEL = 8\n"
                                       "x = pypo.input('x', shape=(128, 256))\n"
                                       "w1 = pypo.weight('w1', shape=(256, 256))\n"
                                       "buf = pypo.mem.alloc_l1(shape=(128, 256))\n"
                                       "buf[:] = x\n"
                                       "h = pypo.op.matmul(buf, w1, target='L1')\n"
                                       "pypo.output('y', pypo.op.relu(h))\n");
    Outcome o = run("--dump-program '" + pto + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("block 7 matmul_1[96:128, 0:256]: 32 flags, after 0 1 2 3, on cluster3"), std::string::npos)
        << o.out;
    EXPECT_NE(o.out.find("block 9 y[32:64, 0:256]: 3 flags, after 4 5 6 7, on cluster1"), std::string::npos) << o.out;
    Outcome check = run("--check '" + pto + "'");
    EXPECT_EQ(check.status, 0) << check.err;
    EXPECT_NE(check.out.find("-> pass"), std::string::npos) << check.out;
}

// A broadcast operand too large to keep resident (over L1 / 8) is gathered
// chunk by chunk; over a part of a partitioned result, a chunk's rows are
// the part's rows, not the stream's first rows.
TEST(MemoryPlacement, GatheredBroadcastFollowsThePart) {
    const std::string pto = write_file("gathered_part.pto",
                                       "import pypto as pypo\n"
                                       "x = pypo.input('x', shape=(16400, 16))\n"
                                       "w = pypo.weight('w', shape=(16, 2))\n"
                                       "b = pypo.input('b', shape=(16400, 1))\n"
                                       "h = pypo.op.matmul(x, w, target='L1')\n"
                                       "pypo.output('y', pypo.op.add(h, b))\n");
    Outcome o = run("--dump-program '" + pto + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out.find("kept in DDR"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("; b rows -> L1"), std::string::npos) << o.out;
    Outcome check = run("--check --seed 3 '" + pto + "'");
    EXPECT_EQ(check.status, 0) << check.err;
    EXPECT_NE(check.out.find("-> pass"), std::string::npos) << check.out;
}

// A buffer only element-wise operations read is copied in one band of
// rows per cluster, and its readers follow the bands. Cycles from
// docs/timing-model.md §4-§8 on the default hardware (4 clusters, one DMA
// engine each; DDR W = 32 B/cycle, bursts of 64 B, latency 100; vector
// 128 B/cycle, pipeline 8; flag latency 1; dispatch 1):
//  * blocks 0-3 copy rows 16k..16k+15 (2048 B) into cluster k, all started
//    at 1, eligible from 2: the 128 bursts of 64 B take slots 64 .. 8256
//    round-robin from requester 0, so cluster k's last burst ends at slot
//    8256 - 64 * (3 - k) and its copy at ceil(that / 32) + 100 = 352 + 2k;
//  * the relu blocks 4-7 (pinned to cluster k, after blocks 0-3) are ready
//    at 358 and start at 359; the VECTOR reads the band in place (no load,
//    no flag): 16 x 64 float16 ends at 359 + 8 + 2048 / 128 = 383; the store
//    waits for its flag: starts 384, eligible 385; the four stores take
//    slots 12320 .. 20512 round-robin from requester 0, so cluster 3's
//    ends at 20512 / 32 + 100 = 741.
TEST(MemoryPlacement, ExactCyclesOfABandedBuffer) {
    nlohmann::json r = report(write_file("banded.pto",
                                         "import pypto as pypo\n"
                                         "a = pypo.input('a', shape=(64, 64))\n"
                                         "buf = pypo.mem.alloc_l1(shape=(64, 64))\n"
                                         "buf[:] = a\n"
                                         "pypo.output('y', pypo.op.relu(buf))\n"));
    EXPECT_EQ(r["total_cycles"].get<uint64_t>(), 741u);
    EXPECT_EQ(r["ddr_bytes_read"].get<uint64_t>(), 8192u);
    EXPECT_EQ(r["ddr_bytes_written"].get<uint64_t>(), 8192u);
    EXPECT_EQ(r["ops"][0]["end"].get<uint64_t>(), 358u);
    EXPECT_EQ(r["ops"][1]["start"].get<uint64_t>(), 359u);
    for (const nlohmann::json& u : r["units"])
        if (u["kind"] == "vector") {
            EXPECT_EQ(u["busy_cycles"].get<uint64_t>(), 24u) << u;
        }
}

// target= on any operation: an element-wise result over whole-row parts
// stays on chip; an operation that cannot keep its result on chip (softmax)
// writes it to DDR and the report says so. The add's blocks wait for
// every block of relu's on-chip result (where they ran is the placement's
// business) and for the softmax block that wrote their rows in DDR.
TEST(MemoryPlacement, TargetOnEveryOperation) {
    const std::string pto = write_file("target_any.pto",
                                       "import pypto as pypo\n"
                                       "a = pypo.input('a', shape=(64, 64))\n"
                                       "buf = pypo.mem.alloc_l1(shape=(64, 64))\n"
                                       "buf[:] = a\n"
                                       "r = pypo.op.relu(buf, target='L1')\n"
                                       "s = pypo.op.softmax(a, 1, target='L1')\n"
                                       "pypo.output('y', pypo.op.add(r, s))\n");
    nlohmann::json r = report(pto);
    ASSERT_EQ(r["notes"].size(), 1u) << r["notes"];
    EXPECT_EQ(r["notes"][0],
              "tensor 'softmax_1' (L1) kept in DDR: softmax writes its result to DDR: on-chip "
              "results are those of 2-D matmuls, element-wise operations, cast and reductions over the last axis");
    Outcome o = run("--dump-program '" + pto + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("tensor relu_1 (64, 64) float16 intermediate, in L1 at L1:0x3e000, 8192 B"), std::string::npos)
        << o.out;
    EXPECT_NE(o.out.find("block 5 relu_1[16:32, 0:64]: 3 flags, after 0 1 2 3, on cluster1"), std::string::npos)
        << o.out;
    EXPECT_NE(o.out.find("block 15 y[48:64, 0:64]: 3 flags, after 4 5 6 7 11, on cluster3"), std::string::npos)
        << o.out;
    Outcome check = run("--check '" + pto + "'");
    EXPECT_EQ(check.status, 0) << check.err;
    EXPECT_NE(check.out.find("-> pass"), std::string::npos) << check.out;
}

Outcome compile_error(const std::string& name, const std::string& text) {
    return run("--dump-program '" + write_file(name, "import pypto as pypo\n" + text) + "'");
}

// The documents' own example keeps a 256 x 256 float32 buffer (256 KiB) and
// a 256 KiB result on chip at once: twice the default L1. The result does
// not fit beside the buffer, whole or in bands of 64 rows (64 KiB per
// cluster); the buffer alone then leaves the matmul no L1 for its staging.
// Both are kept in DDR, and the report says why.
TEST(MemoryPlacement, OverCapacityKeepsTensorsInDdr) {
    const std::string pto = write_file("over.pto",
                                       "import pypto as pypo\n"
                                       "a = pypo.input('a', shape=(256, 256), dtype='float32')\n"
                                       "b = pypo.input('b', shape=(256, 256), dtype='float32')\n"
                                       "buf = pypo.mem.alloc_l1(shape=(256, 256), dtype='float32')\n"
                                       "buf[:] = a\n"
                                       "with pypo.mem.temp_cache() as cache:\n"
                                       "    temp = pypo.op.matmul(buf, b, target='L0')\n"
                                       "    y = pypo.op.relu(temp)\n"
                                       "pypo.output('y', y)\n");
    Outcome o = run("--check '" + pto + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(
        o.out.find("notes\n  on-chip results kept in bands of rows, one band per cluster: whole, tensor 'matmul_1' "
                   "did not fit (with 'l1_buf_1' (262144 B) on chip at the same time it needs 524288 bytes, a "
                   "cluster's L1 has 262144)\n  tensor 'matmul_1' (L0) kept in DDR: with 'l1_buf_1' (262144 B) on "
                   "chip at the same time it needs 327680 bytes, a cluster's L1 has 262144\n  tensor 'l1_buf_1' "
                   "(L1) kept in "
                   "DDR: the 262144 bytes of L1 kept for on-chip tensors leave too little for matmul 'matmul_1' "
                   "(7:12): matmul does not fit the hardware: the smallest block (8x8 with double-buffered panels "
                   "4 deep) needs 512 bytes of L1, the cluster has 0\n"),
        std::string::npos)
        << o.out;
    EXPECT_NE(o.out.find("-> pass"), std::string::npos) << o.out;
    Outcome d = run("--dump-program '" + pto + "'");
    EXPECT_NE(d.out.find("tensor l1_buf_1 (256, 256) float32 buffer, kept in DDR: a at DDR:0x0, 262144 B\n"),
              std::string::npos)
        << d.out;
}

// In float16 the buffer and the result fit L1 together but fill it: the
// matmul's own staging buffers would get no L1. The results are planned
// again in bands of rows, one band per cluster (docs/timing-model.md §10):
// the result takes 32 KiB of each cluster's L1 instead of 128, and the
// matmul has room; everything stays on chip, and the note says why.
TEST(MemoryPlacement, StagingRoomPutsResultsInBands) {
    const std::string pto = write_file("room.pto",
                                       "import pypto as pypo\n"
                                       "a = pypo.input('a', shape=(256, 256))\n"
                                       "b = pypo.input('b', shape=(256, 256))\n"
                                       "buf = pypo.mem.alloc_l1(shape=(256, 256))\n"
                                       "buf[:] = a\n"
                                       "temp = pypo.op.matmul(buf, b, target='L0')\n"
                                       "pypo.output('y', pypo.op.relu(temp))\n");
    Outcome o = run("--check '" + pto + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("notes\n  on-chip results kept in bands of rows, one band per cluster: whole, tensor "
                         "'matmul_1' did not fit (the 262144 bytes of L1 kept for on-chip tensors leave too little for "
                         "matmul 'matmul_1' (6:8): matmul does not fit the hardware: the smallest block (8x8 with "
                         "double-buffered panels 4 deep) needs 128 bytes of L1, the cluster has 0)\n\n"),
              std::string::npos)
        << o.out;
    EXPECT_NE(o.out.find("-> pass"), std::string::npos) << o.out;
    Outcome d = run("--dump-program '" + pto + "'");
    EXPECT_NE(d.out.find("tensor matmul_1 (256, 256) float16 intermediate, in L0, in bands of 64 rows at L1:0x38000, "
                         "131072 B\n"),
              std::string::npos)
        << d.out;
}

// A copied buffer kept in DDR is its source: the copy emits no command and
// its readers read the source (this crashed the compiler once).
TEST(MemoryPlacement, ABufferKeptInDdrIsItsSource) {
    const std::string pto = write_file("buffer_in_ddr.pto",
                                       "import pypto as pypo\n"
                                       "a = pypo.input('a', shape=(64, 64))\n"
                                       "b = pypo.input('b', shape=(1, 64))\n"
                                       "buf = pypo.mem.alloc_l1(shape=(1, 64))\n"
                                       "buf[:] = b\n"
                                       "pypo.output('y', pypo.op.add(a, buf))\n");
    Outcome d = run("--dump-program '" + pto + "'");
    ASSERT_EQ(d.status, 0) << d.err;
    EXPECT_NE(d.out.find("tensor l1_buf_1 (1, 64) float16 buffer, kept in DDR: b at DDR:0x2000, 128 B"),
              std::string::npos)
        << d.out;
    EXPECT_EQ(d.out.find("b -> l1_buf_1"), std::string::npos) << d.out;
    Outcome o = run("--check '" + pto + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("  tensor 'l1_buf_1' (L1) kept in DDR: add 'y' broadcasts it, and a broadcast does not follow "
                         "a tensor's parts\n"),
              std::string::npos)
        << o.out;
    EXPECT_NE(o.out.find("-> pass"), std::string::npos) << o.out;
}

// Two 160 KiB results kept on chip one after the other: each in its own
// temp_cache scope they reuse the same L1; without scopes, each is freed
// after its last reader and they reuse it too; read together, they
// overflow whole, and stay on chip in bands of rows: bands of 80 rows
// (320 / 4, a multiple of 16) would cut the matmuls' blocks of 64 rows, so
// the compiler takes bands of 128 (a multiple of 64): three of them, on
// clusters 0 to 2.
TEST(MemoryPlacement, TempCacheFreesForReuse) {
    const std::string head =
        "a = pypo.input('a', shape=(320, 256))\n"
        "w = pypo.weight('w', shape=(256, 256))\n";
    Outcome scoped = compile_error("scoped.pto", head +
                                                     "with pypo.mem.temp_cache():\n"
                                                     "    h = pypo.op.matmul(a, w, target='L1')\n"
                                                     "    y1 = pypo.op.relu(h)\n"
                                                     "with pypo.mem.temp_cache():\n"
                                                     "    g = pypo.op.matmul(a, w, target='L1')\n"
                                                     "    y2 = pypo.op.relu(g)\n"
                                                     "pypo.output('y', pypo.op.add(y1, y2))\n");
    EXPECT_EQ(scoped.status, 0) << scoped.err;
    EXPECT_NE(scoped.out.find("tensor matmul_1 (320, 256) float16 intermediate, in L1 at L1:0x18000, 163840 B"),
              std::string::npos)
        << scoped.out;
    EXPECT_NE(scoped.out.find("tensor matmul_2 (320, 256) float16 intermediate, in L1 at L1:0x18000, 163840 B"),
              std::string::npos)
        << scoped.out;
    Outcome freed = compile_error("freed.pto", head +
                                                   "h = pypo.op.matmul(a, w, target='L1')\n"
                                                   "y1 = pypo.op.relu(h)\n"
                                                   "g = pypo.op.matmul(a, w, target='L1')\n"
                                                   "y2 = pypo.op.relu(g)\n"
                                                   "pypo.output('y', pypo.op.add(y1, y2))\n");
    EXPECT_EQ(freed.status, 0) << freed.err;
    EXPECT_NE(freed.out.find("tensor matmul_1 (320, 256) float16 intermediate, in L1 at L1:0x18000, 163840 B"),
              std::string::npos)
        << freed.out;
    EXPECT_NE(freed.out.find("tensor matmul_2 (320, 256) float16 intermediate, in L1 at L1:0x18000, 163840 B"),
              std::string::npos)
        << freed.out;
    Outcome held = run("'" +
                       write_file("held.pto", "import pypto as pypo\n" + head +
                                                  "h = pypo.op.matmul(a, w, target='L1')\n"
                                                  "y1 = pypo.op.relu(h)\n"
                                                  "g = pypo.op.matmul(a, w, target='L1')\n"
                                                  "y2 = pypo.op.add(g, h)\n"
                                                  "pypo.output('y', pypo.op.add(y1, y2))\n") +
                       "'");
    ASSERT_EQ(held.status, 0) << held.err;
    EXPECT_NE(held.out.find("notes\n  on-chip results kept in bands of rows, one band per cluster: whole, tensor "
                            "'matmul_2' did not fit (with 'matmul_1' (163840 B) on chip at the same time it needs "
                            "327680 bytes, a cluster's L1 has 262144)\n"),
              std::string::npos)
        << held.out;
    Outcome dump = run("--dump-program '" + (scratch() / "held.pto").string() + "'");
    EXPECT_NE(dump.out.find("tensor matmul_1 (320, 256) float16 intermediate, in L1, in bands of 128 rows at "
                            "L1:0x20000, 163840 B\n"),
              std::string::npos)
        << dump.out;
}

TEST(MemoryPlacement, UseAfterTheScopeIsAnError) {
    Outcome o = compile_error("after.pto",
                              "a = pypo.input('a', shape=(64, 64))\n"
                              "with pypo.mem.temp_cache() as c:\n"
                              "    h = pypo.op.matmul(a, a, target='L1')\n"
                              "y = pypo.op.relu(h)\n"
                              "pypo.output('y', y)\n");
    EXPECT_EQ(o.status, 2);
    EXPECT_NE(o.err.find("after.pto:5:5: error: tensor 'matmul_1' in L1 was freed at the end of temp_cache scope 'c' "
                         "(3:6)\n"),
              std::string::npos)
        << o.err;
}

TEST(MemoryPlacement, UnsupportedUsesAreCompileErrors) {
    Outcome softmax = compile_error("softmax.pto",
                                    "a = pypo.input('a', shape=(64, 64))\n"
                                    "h = pypo.op.matmul(a, a, target='L1')\n"
                                    "pypo.output('y', pypo.op.softmax(h))\n");
    EXPECT_EQ(softmax.status, 2);
    EXPECT_NE(softmax.err.find("softmax.pto:4:18: error: softmax reading 'matmul_1' in L1 is not lowered yet: on-chip "
                               "tensors are used by copies, matmul, element-wise operations, cast and reductions "
                               "over the last axis\n"),
              std::string::npos)
        << softmax.err;
    // A reduction over another axis than the last (tests/cli/on_chip_reduce_test.cpp: the last).
    Outcome columns = compile_error("columns.pto",
                                    "a = pypo.input('a', shape=(64, 64))\n"
                                    "h = pypo.op.matmul(a, a, target='L1')\n"
                                    "pypo.output('y', pypo.op.reduce_sum(h, axis=0))\n");
    EXPECT_EQ(columns.status, 2);
    EXPECT_NE(columns.err.find("columns.pto:4:18: error: reduce_sum reading 'matmul_1' in L1 is not lowered yet"),
              std::string::npos)
        << columns.err;
    Outcome output = compile_error("output.pto",
                                   "a = pypo.input('a', shape=(64, 64))\n"
                                   "pypo.output('y', pypo.op.matmul(a, a, target='L1'))\n");
    EXPECT_EQ(output.status, 2);
    EXPECT_NE(output.err.find("error: tensor 'y' is a program output: it must be in DDR, not L1\n"), std::string::npos)
        << output.err;
    Outcome twice = compile_error("twice.pto",
                                  "a = pypo.input('a', shape=(64, 64))\n"
                                  "buf = pypo.mem.alloc_l1(shape=(64, 64))\n"
                                  "buf[:] = a\n"
                                  "buf[:] = a\n"
                                  "pypo.output('y', pypo.op.relu(buf))\n");
    EXPECT_EQ(twice.status, 2);
    EXPECT_NE(twice.err.find("twice.pto:5:1: error: buffer 'l1_buf_1' is already written at 4:1: a buffer is "
                             "written once (use another pypo.mem.alloc_l1)\n"),
              std::string::npos)
        << twice.err;
}

}  // namespace

// Energy (docs/timing-model.md §9): the bytes placement keeps out of DDR
// are DDR's most expensive ones, so the placed program costs less DDR
// energy, by exactly the bytes it saves at 243,750 fJ each (the documents'
// machine, configs/README.md).
TEST(MemoryPlacement, OnChipTensorsCutDdrEnergy) {
    const nlohmann::json naive = report(write_file("placement_naive_energy.pto", kNaive));
    const nlohmann::json placed = report(std::string(DAVINCI_SOURCE_DIR) + "/models/memory_placement.pto");
    auto ddr = [](const nlohmann::json& r) {
        for (const nlohmann::json& p : r["energy"]["parts"])
            if (p["key"] == "ddr") return p["femtojoules"].get<uint64_t>();
        return uint64_t(0);
    };
    EXPECT_EQ(ddr(naive) - ddr(placed), (917504ull + 196608 - 720896 - 131072) * 243750);
}
