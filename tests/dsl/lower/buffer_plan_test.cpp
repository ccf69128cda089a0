// Buffer planning (dsl/lower/buffer_plan.h) and the moves pass (dsl/passes/pass_moves.h):
// lifetimes in program order, first-fit offsets, the region at the top of L1.
#include <gtest/gtest.h>

#include "dsl/lower/buffer_plan.h"
#include "dsl/lower/placement_mismatch.h"
#include "dsl/passes/pass_moves.h"
#include "tests/dsl/lower_test_util.h"

namespace {

dsl::TaskGraph graph(const std::string& body) {
    return dsl::apply_moves(dsl_test::elaborate("import pypto as pypo\n" + body));
}

int tensor(const dsl::TaskGraph& g, const std::string& name) {
    for (size_t i = 0; i < g.tensors.size(); ++i)
        if (g.tensors[i].name == name) return int(i);
    throw std::runtime_error("no tensor " + name);
}

// The copy becomes a move op before the scope's first op; the buffer lives
// to the end of the program, the scoped result to the scope's end, and a
// later result reuses the freed space (offset 0x8000 again, above the buffer).
TEST(BufferPlan, LifetimesAndFirstFit) {
    dsl::TaskGraph g = graph(
        "a = pypo.input('a', shape=(128, 128))\n"  // 32 KiB
        "buf = pypo.mem.alloc_l1(shape=(128, 128))\n"
        "buf[:] = a\n"
        "with pypo.mem.temp_cache():\n"
        "    h = pypo.op.matmul(buf, a, target='L1')\n"  // op 1, 32 KiB
        "    y1 = pypo.op.relu(h)\n"                     // op 2
        "g2 = pypo.op.matmul(buf, a, target='L1')\n"     // op 3
        "pypo.output('y', pypo.op.add(y1, pypo.op.relu(g2)))\n");
    ASSERT_EQ(g.ops.size(), 6u);
    EXPECT_EQ(dsl::op_kind_name(g.ops[0].kind), std::string("move"));
    EXPECT_EQ(g.temp_caches[0].first_op, 1);
    EXPECT_EQ(g.temp_caches[0].end_op, 3);
    dsl::BufferPlan p = dsl::plan_buffers(g, lower_test::config());
    ASSERT_EQ(p.tensors.size(), 3u);
    const dsl::OnChipTensor& buf = p.tensors[size_t(p.index_of[size_t(tensor(g, "l1_buf_1"))])];
    const dsl::OnChipTensor& h = p.tensors[size_t(p.index_of[size_t(tensor(g, "matmul_1"))])];
    const dsl::OnChipTensor& g2 = p.tensors[size_t(p.index_of[size_t(tensor(g, "matmul_2"))])];
    EXPECT_EQ(buf.first_op, 0);
    EXPECT_EQ(buf.last_op, 5);
    EXPECT_EQ(h.first_op, 1);
    EXPECT_EQ(h.last_op, 2);
    EXPECT_EQ(g2.first_op, 3);
    EXPECT_EQ(buf.offset, 0u);
    EXPECT_EQ(h.offset, 32768u);
    EXPECT_EQ(g2.offset, 32768u);
    EXPECT_EQ(p.region, 65536u);
    EXPECT_EQ(p.l1_addr(tensor(g, "l1_buf_1")), 262144u - 65536u);
    EXPECT_FALSE(p.on_chip(tensor(g, "a")));
}

TEST(BufferPlan, ReadingABufferBeforeItsCopyIsAnError) {
    EXPECT_EQ(dsl_test::error_of([] {
                  graph(
                      "buf = pypo.mem.alloc_l1(shape=(8, 8))\n"
                      "pypo.output('y', pypo.op.relu(buf))\n");
              }),
              "t.pto:3:18: error: buffer 'l1_buf_1' is read before anything is copied into it (write buf[:] = t "
              "first)\n"
              "pypo.output('y', pypo.op.relu(buf))\n"
              "                 ^\n");
}

// One tensor larger than L1 on its own: no "at the same time" with nothing else.
// Too large to keep: planning names the tensor and why, and dsl::lower
// keeps it in DDR with that note (tests/cli/memory_placement_test.cpp).
TEST(BufferPlan, OneTensorLargerThanL1IsAMismatch) {
    dsl::TaskGraph g = graph(
        "b = pypo.input('b', shape=(512, 512))\n"
        "t = pypo.op.matmul(b, b, target='L1')\n"
        "pypo.output('y', pypo.op.relu(t))\n");
    try {
        dsl::plan_buffers(g, lower_test::config());
        ADD_FAILURE() << "a 512 KiB tensor was placed in 256 KiB of L1";
    } catch (const dsl::PlacementMismatch& m) {
        EXPECT_EQ(m.tensor, tensor(g, "matmul_1"));
        EXPECT_EQ(m.why, "it needs 524288 bytes, a cluster's L1 has 262144");
    }
}

}  // namespace
