// The program file written block by block (cli::write_program_file) is the
// text nlohmann::json::dump(1) makes of the whole program in memory, for
// programs with and without blocks and with every optional part.
#include "sim/cli/driver/program_file.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sim/arch/program_json.h"
#include "tests/support/program_builders.h"

namespace {

using namespace testprog;

std::string whole(const arch::Program& p) {
    nlohmann::json j = arch::program_to_json(p);
    j["schema_version"] = cli::kProgramJsonSchemaVersion;
    return j.dump(1) + "\n";
}

std::string streamed(const arch::Program& p) {
    std::string text;
    trace::TextOut out([&](std::string_view s) { text.append(s); });
    arch::ProgramBlocks blocks(p);
    cli::write_program_file(out, p, blocks);
    out.flush();
    return text;
}

TEST(ProgramFile, WrittenBlockByBlockAsDumpWritesItWhole) {
    arch::Program none = program({});
    none.source = "empty \"quoted\" \\ name.pto";
    EXPECT_EQ(streamed(none), whole(none));

    arch::Block first = block(
        {stream(dma_engine(0), {load(4096, {}, {0})}), stream(vector_unit(0), {vec(arch::VectorOp::Exp, 64, 256)})}, 1);
    first.name = "first";
    arch::Block second = block({stream(cube_dma(1), {to_l0(512)}), stream(cube(1), {matmul(16, 16, 16)})}, 0, {0});
    second.name = "second, pinned";
    second.cluster = 1;
    second.drain = 1;
    arch::Program p = program({first, second}, 8);
    p.source = "models/x.pto";
    p.blocks[1].name = "second, pinned";
    p.slot_l1_bytes = 4096;
    p.slot_l0_bytes = 1024;
    p.tensors.push_back({"a", {64, 64}, arch::DType::Float16, 0, 8192, "input"});
    p.tensors.push_back({"c", {64, 64}, arch::DType::Float32, 8192, 16384, "intermediate"});
    p.tensors.back().l1_addr = 4096;
    p.ops.push_back({"c", "matmul", "", {}});
    p.tags.push_back({"c tile (0, 0)", 0});
    EXPECT_EQ(streamed(p), whole(p));
}

}  // namespace
