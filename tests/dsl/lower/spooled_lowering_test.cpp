// Lowering into a block sink (LowerOptions::block_sink, as the CLI does to
// spool a program to disk) emits exactly the blocks it would keep in the
// program, numbered from 0, and leaves Program::blocks empty; every model's
// blocks survive the spool's binary form.
#include <gtest/gtest.h>

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "dsl/frontend/frontend.h"
#include "dsl/lower/program/lower.h"
#include "sim/arch/block_codec.h"
#include "sim/arch/block_spool.h"
#include "sim/arch/config.h"
#include "sim/arch/program_json.h"

namespace {

struct Model {
    const char* file;
    std::map<std::string, std::vector<int64_t>> shapes;
};

void PrintTo(const Model& m, std::ostream* os) { *os << m.file; }

class SpooledLowering : public ::testing::TestWithParam<Model> {};

TEST_P(SpooledLowering, SameBlocksAsInMemory) {
    const Model& m = GetParam();
    const std::string path = std::string(DAVINCI_SOURCE_DIR) + "/models/" + m.file;
    const arch::Config config = arch::default_config();
    const dsl::TaskGraph graph = dsl::elaborate_file(path, m.shapes);
    const arch::Program whole = dsl::lower(dsl::run_graph_passes(graph), config, path);

    arch::BlockSpool spool;
    size_t next = 0;
    dsl::LowerOptions options;
    options.block_sink = [&](const arch::Program& header, size_t index, const arch::Block& block) {
        EXPECT_EQ(index, next++);
        EXPECT_TRUE(header.blocks.empty());
        spool.append(block);
    };
    arch::Program header = dsl::lower(dsl::run_graph_passes(graph), config, path, options);
    EXPECT_TRUE(header.blocks.empty());
    ASSERT_EQ(spool.size(), whole.blocks.size());
    // Block by block, in the encoded form (whose round trip is exact,
    // tests/arch/block_spool_test.cpp); then the rest of the program.
    for (size_t b = 0; b < spool.size(); ++b) {
        std::string spooled, held;
        arch::encode_block(spool.load(b), spooled);
        arch::encode_block(whole.blocks[b], held);
        ASSERT_EQ(spooled, held) << "block " << b;
        const arch::DispatchInfo info = arch::dispatch_info(whole.blocks[b]);
        EXPECT_EQ(spool.info(b).drain, info.drain);
        EXPECT_EQ(spool.info(b).cluster, info.cluster);
        EXPECT_EQ(spool.info(b).deps.size(), info.deps.size());
    }
    arch::Program rest = whole;
    rest.blocks.clear();
    EXPECT_EQ(arch::program_to_json(header), arch::program_to_json(rest));
}

INSTANTIATE_TEST_SUITE_P(Models, SpooledLowering,
                         ::testing::Values(Model{"gemm_256.pto", {}}, Model{"attention.pto", {}},
                                           Model{"resnet50.pto", {{"input", {1, 3, 224, 224}}}},
                                           Model{"memory_placement.pto", {}}, Model{"resnet_block.pto", {}},
                                           Model{"slide.pto", {}}, Model{"transpose.pto", {}},
                                           Model{"super_resolution.pto", {{"img", {1, 1, 24, 32}}}},
                                           Model{"super_resolution_naive.pto", {{"img", {1, 1, 24, 32}}}}),
                         [](const auto& info) {
                             std::string name = info.param.file;
                             name = name.substr(0, name.find('.'));
                             return name;
                         });

}  // namespace
