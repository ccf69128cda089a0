// The functional result must not depend on how the executor interleaves a
// block's streams (sim/func/executor.h): both interleavings are legal for a
// synchronised program. Running every compiled model both ways checks that
// the compiler's flags leave no race; a program with a missing wait shows
// the comparison can fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "dsl/frontend/frontend.h"
#include "dsl/lower/program/lower.h"
#include "sim/arch/config.h"
#include "sim/func/executor.h"
#include "sim/func/numerics.h"
#include "tests/support/model_instances.h"

namespace {

using arch::DType;
using arch::Space;

// Deterministic values in every input and weight, then a run.
std::vector<uint8_t> run(const arch::Program& p, func::Interleaving order) {
    func::Executor ex(arch::default_config(), p);
    uint32_t state = 12345;
    for (const arch::TensorPlacement& t : p.tensors) {
        if (t.l1_addr >= 0 || t.ub_addr >= 0 || (t.role.rfind("input", 0) != 0 && t.role.rfind("weight", 0) != 0))
            continue;
        const size_t n = t.bytes / size_t(arch::dtype_bytes(t.dtype));
        std::vector<float> v(n);
        for (float& x : v) x = float((state = state * 1664525u + 1013904223u) >> 8) / float(1 << 24) - 0.5f;
        func::store_run(ex.memory().span(Space::DDR, -1, t.ddr_addr, t.bytes, "input"), t.dtype, n, v.data());
    }
    ex.run(order);
    return ex.memory().ddr();
}

TEST(Interleaving, AMissingWaitIsARace) {
    arch::Program p;
    p.tensors.push_back({"x", {4}, DType::Float16, 0, 8, "input"});
    p.tensors.push_back({"y", {4}, DType::Float16, 4096, 8, "output"});
    arch::Block b;
    b.num_flags = 1;
    arch::Command load, relu, store;
    load.op = store.op = arch::Opcode::Dma;
    load.dma.src = Space::DDR, load.dma.dst = Space::L1, load.dma.rows = 1, load.dma.row_bytes = 8;
    load.sets = {0};
    relu.op = arch::Opcode::Vector;
    relu.vec.op = arch::VectorOp::Relu, relu.vec.rows = 1, relu.vec.cols = 4, relu.vec.dst = 64;
    relu.waits = {0};
    // The store should wait for the vector unit; it does not.
    store.dma.src = Space::L1, store.dma.dst = Space::DDR, store.dma.src_addr = 64, store.dma.dst_addr = 4096;
    store.dma.rows = 1, store.dma.row_bytes = 8;
    // Stream by stream runs the store last, after the relu; round robin, in
    // reverse, runs it first, before the relu has written anything.
    b.streams = {{{arch::EngineKind::ClusterDma, 0}, {load}},
                 {{arch::EngineKind::Vector, 0}, {relu}},
                 {{arch::EngineKind::ClusterDma, 1}, {store}}};
    p.blocks.push_back(b);
    EXPECT_NE(run(p, func::Interleaving::StreamByStream), run(p, func::Interleaving::RoundRobin));
    p.blocks[0].num_flags = 2;
    p.blocks[0].streams[1].commands[0].sets = {1};
    p.blocks[0].streams[2].commands[0].waits = {1};
    EXPECT_EQ(run(p, func::Interleaving::StreamByStream), run(p, func::Interleaving::RoundRobin));
}

std::vector<std::string> programs() {
    std::vector<std::string> out;
    for (const char* dir : {"models", "tests/functional"})
        for (const auto& e : std::filesystem::directory_iterator(std::string(DAVINCI_SOURCE_DIR) + "/" + dir))
            if (e.path().extension() == ".pto") out.push_back(std::string(dir) + "/" + e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

class CompiledProgram : public testing::TestWithParam<std::string> {};

TEST_P(CompiledProgram, GivesTheSameBytesInEitherInterleaving) {
    const std::string path = std::string(DAVINCI_SOURCE_DIR) + "/" + GetParam();
    // The models at the tests' small instances (tests/support/model_instances.h).
    const testmodels::Instance instance = testmodels::instance(path);
    const auto& shapes = instance.shapes;
    const auto& params = instance.params;
    const arch::Program p =
        dsl::lower(dsl::run_graph_passes(dsl::elaborate_file(path, shapes, params)), arch::default_config(), path);
    const std::vector<uint8_t> a = run(p, func::Interleaving::StreamByStream);
    const std::vector<uint8_t> b = run(p, func::Interleaving::RoundRobin);
    ASSERT_EQ(a.size(), b.size());
    EXPECT_TRUE(a == b) << "the first differing DDR byte is at "
                        << std::mismatch(a.begin(), a.end(), b.begin()).first - a.begin();
}

INSTANTIATE_TEST_SUITE_P(Programs, CompiledProgram, testing::ValuesIn(programs()),
                         [](const testing::TestParamInfo<std::string>& i) {
                             std::string n = i.param;
                             for (char& c : n)
                                 if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                             return n;
                         });

}  // namespace
