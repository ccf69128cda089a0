// arch::Program <-> JSON (sim/arch/program_json.h): exact round trips and the
// exact messages for malformed program files.
#include "sim/arch/program_json.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include <unistd.h>

#include "tests/support/json_parse.h"
#include "tests/support/program_builders.h"

namespace {

using namespace testprog;
using arch::DType;
using arch::VectorOp;
using nlohmann::json;

// A program using every kind of command and every optional field.
arch::Program everything() {
    arch::Command load2d = load(64, {}, {0, 0});
    load2d.dma.rows = 3;
    load2d.dma.src_stride = 4096;
    load2d.dma.dst_stride = 128;
    load2d.dma.src_addr = (uint64_t{1} << 33) - 1;  // beyond 32 bits
    load2d.tag = 1;
    arch::Command back = dma(Space::L0, Space::L1, 256, {2});
    back.dma.convert_f32_to_f16 = true;
    back.dma.narrow_to = DType::BFloat16;
    arch::Command mm = matmul(64, 32, 64, DType::Float32, {0}, {1});
    mm.mm.accumulate = true;
    mm.mm.a_addr = 1, mm.mm.b_addr = 2, mm.mm.c_addr = 3;
    mm.tag = 2;
    mm.issue_cycles = 4294967295u;  // the largest
    back.issue_cycles = 8;
    arch::Program p = program(
        {block({stream(dma_engine(1), {load2d}), stream(cube_dma(3), {back}), stream(cube(3), {mm, matmul(4, 4, 4)}),
                stream(vector_unit(0), {vec(VectorOp::Add, 2, 3), vec(VectorOp::ReduceMax, 5, 7, DType::Float32),
                                        vec(VectorOp::Cast, 1, 1), cast(2, 2, DType::Float32, DType::BFloat16)})},
               3),
         block({}, 0, {0}), block({stream(vector_unit(12), {})}, 65535, {0, 1})},
        3);
    p.source = "models/x.pto";
    p.blocks[1].cluster = 2;
    p.ops = {{"a", "relu", "", {}}, {"c", "matmul", "block#2", {0}}};
    p.tags = {{"", -1}, {"load A, panel 0", 0}, {"mm \"quoted\"", -1}};
    p.tensors.push_back({"a", {-1, 3, 224}, DType::Float32, 4096, 602112, "input"});
    p.tensors.push_back({"m", {512, 1}, DType::Float16, 0, 1024, "intermediate, kept in the Unified Buffers"});
    p.tensors.back().ub_addr = 195584;
    return p;
}

TEST(ProgramJson, RoundTripIsExact) {
    arch::Program p = everything();
    json j = arch::program_to_json(p);
    arch::Program back = arch::program_from_json(j, "x.json");
    EXPECT_EQ(arch::program_to_json(back), j);
    EXPECT_EQ(arch::format_program(back), arch::format_program(p));
    // Through text, as a file would go.
    EXPECT_EQ(arch::program_to_json(arch::program_from_json(testjson::parse(j.dump(1)), "x.json")), j);
    // Field by field where format_program does not look.
    EXPECT_EQ(back.blocks[0].streams[0].commands[0].dma.src_addr, (uint64_t{1} << 33) - 1);
    EXPECT_EQ(back.blocks[0].streams[3].commands[0].vec.src1, 0x10000u);
    EXPECT_EQ(back.blocks[0].streams[3].commands[1].vec.src1, arch::kNoAddress);
    EXPECT_EQ(back.blocks[2].num_flags, 65535u);
    EXPECT_EQ(back.blocks[1].cluster, 2);
    EXPECT_EQ(back.blocks[0].cluster, arch::Block::kAnyCluster);
    EXPECT_NE(arch::format_program(back).find(", after 0, on cluster2\n"), std::string::npos)
        << arch::format_program(back);
    EXPECT_EQ(back.blocks[2].streams[0].engine, vector_unit(12));
    EXPECT_EQ(back.tensors[0].shape, (std::vector<int64_t>{-1, 3, 224}));
    EXPECT_EQ(back.tensors[0].ub_addr, -1);
    EXPECT_FALSE(j.at("tensors").at(0).contains("ub_addr"));
    EXPECT_EQ(back.tensors[1].ub_addr, 195584);
    EXPECT_NE(arch::format_program(back).find("at UB:0x2fc00, 1024 B"), std::string::npos);
    EXPECT_EQ(back.blocks[0].streams[1].commands[0].issue_cycles, 8u);
    EXPECT_EQ(back.blocks[0].streams[2].commands[0].issue_cycles, 4294967295u);
    EXPECT_EQ(back.blocks[0].streams[2].commands[1].issue_cycles, 0u);
    EXPECT_EQ(back.blocks[0].streams[1].commands[0].dma.narrow_to, DType::BFloat16);
    EXPECT_EQ(back.blocks[0].streams[3].commands[2].vec.cast_to, DType::Float32);  // float16 -> float32: no key
    EXPECT_EQ(back.blocks[0].streams[3].commands[3].vec.cast_to, DType::BFloat16);
    const json& casts = j.at("blocks").at(0).at("streams").at(3).at("commands");
    EXPECT_FALSE(casts.at(2).contains("cast_to"));
    EXPECT_EQ(casts.at(3).at("cast_to"), "bfloat16");
    EXPECT_EQ(j.at("blocks").at(0).at("streams").at(1).at("commands").at(0).at("narrow_to"), "bfloat16");
}

// The functional model's descriptors (docs/functional.md §2) survive JSON
// exactly, and a command without them writes no keys for them.
TEST(ProgramJson, SourceDescriptorsAndTransposedB) {
    arch::Command add = vec(VectorOp::Add, 4, 6);
    arch::VectorSource strided, scalar, window;
    strided.kind = arch::VectorSource::Kind::Strided, strided.first = 12, strided.dims = {2, 4, 6},
    strided.strides = {0, -6, 1};
    scalar.kind = arch::VectorSource::Kind::Scalar, scalar.scalar = 0.1;  // not exact in binary: kept exact
    window.kind = arch::VectorSource::Kind::Window;
    window.window = {7, 9, 3, 2, 2, 2, 1, 1, 2, 1, -35, -3.4028234663852886e38};
    add.vec.in0 = std::make_shared<const arch::VectorSource>(strided);
    add.vec.in1 = std::make_shared<const arch::VectorSource>(window);
    arch::Command mul = vec(VectorOp::Mul, 4, 6);
    mul.vec.in1 = std::make_shared<const arch::VectorSource>(scalar);
    arch::Command mm = matmul(8, 8, 8);
    mm.mm.b_transposed = true;
    arch::Program p =
        program({block({stream(cube(0), {mm}), stream(vector_unit(0), {add, mul, vec(VectorOp::Relu, 1, 1)})}, 0)}, 0);
    const json j = arch::program_to_json(p);
    const arch::Program back = arch::program_from_json(testjson::parse(j.dump(1)), "x.json");
    EXPECT_EQ(arch::program_to_json(back), j);
    const auto& v = back.blocks[0].streams[1].commands;
    EXPECT_EQ(v[0].vec.source(0), strided);
    EXPECT_EQ(v[0].vec.source(1), window);
    EXPECT_EQ(v[1].vec.source(1), scalar);
    EXPECT_EQ(v[1].vec.source(1).scalar, 0.1);
    EXPECT_FALSE(v[2].vec.in0);
    EXPECT_TRUE(back.blocks[0].streams[0].commands[0].mm.b_transposed);
    EXPECT_FALSE(j["blocks"][0]["streams"][1]["commands"][2].contains("in0"));
    EXPECT_FALSE(j["blocks"][0]["streams"][1]["commands"][1].contains("in0"));
    EXPECT_EQ(arch::format_command(back, v[1]), "VECTOR mul 4x6 float16  L1:0x0, L1:0x10000 #0.1 -> L1:0x20000");
}

// JSON has no infinities: a fill of -inf (causal_mask's) and a window's
// fill of +inf are written as the strings "-inf" and "inf" and read back
// as the infinities; any other string is refused.
TEST(ProgramJson, InfinitiesRoundTripAsStrings) {
    arch::Command fill = vec(VectorOp::Copy, 1, 6);
    arch::VectorSource minus_inf, window;
    minus_inf.kind = arch::VectorSource::Kind::Scalar, minus_inf.scalar = -std::numeric_limits<double>::infinity();
    window.kind = arch::VectorSource::Kind::Window;
    window.window.fill = std::numeric_limits<double>::infinity();
    fill.vec.in0 = std::make_shared<const arch::VectorSource>(minus_inf);
    arch::Command add = vec(VectorOp::Add, 1, 6);
    add.vec.in1 = std::make_shared<const arch::VectorSource>(window);
    arch::Program p = program({block({stream(vector_unit(0), {fill, add})}, 0)}, 0);
    const json j = arch::program_to_json(p);
    const json& c = j["blocks"][0]["streams"][0]["commands"];
    EXPECT_EQ(c[0]["in0"]["scalar"], "-inf");
    EXPECT_EQ(c[1]["in1"]["window"]["fill"], "inf");
    const arch::Program back = arch::program_from_json(testjson::parse(j.dump()), "x.json");
    EXPECT_EQ(back.blocks[0].streams[0].commands[0].vec.source(0).scalar, -std::numeric_limits<double>::infinity());
    EXPECT_EQ(back.blocks[0].streams[0].commands[1].vec.source(1).window.fill, std::numeric_limits<double>::infinity());
    EXPECT_EQ(arch::program_to_json(back), j);
    EXPECT_EQ(arch::format_command(back, back.blocks[0].streams[0].commands[0]),
              "VECTOR copy 1x6 float16  L1:0x0 #-inf -> L1:0x20000");
    json bad = j;
    bad["blocks"][0]["streams"][0]["commands"][0]["in0"]["scalar"] = "-Infinity";
    try {
        arch::program_from_json(bad, "x.json");
        ADD_FAILURE() << "accepted -Infinity";
    } catch (const std::exception& e) {
        EXPECT_STREQ(e.what(),
                     "x.json: blocks[0].streams[0].commands[0].in0.scalar: expected a number, \"inf\" or "
                     "\"-inf\", got \"-Infinity\"");
    }
}

TEST(ProgramJson, Format) {
    json j = arch::program_to_json(everything());
    EXPECT_EQ(
        j["blocks"][0]["streams"][3]["commands"][0].dump(),
        R"({"cols":3,"dst":131072,"dtype":"float16","op":"vector","rows":2,"src0":0,"src1":65536,"vector_op":"add"})");
    EXPECT_EQ(j["blocks"][0]["streams"][2]["engine"], "cube3");
    EXPECT_EQ(j["blocks"][0]["streams"][1]["engine"], "cube3.dma");
    EXPECT_FALSE(j["blocks"][0]["streams"][3]["commands"][1].contains("src1"));
    // issue_cycles only when not 0.
    EXPECT_EQ(j["blocks"][0]["streams"][1]["commands"][0]["issue_cycles"], 8);
    EXPECT_FALSE(j["blocks"][0]["streams"][0]["commands"][0].contains("issue_cycles"));
    EXPECT_EQ(
        j["blocks"][0]["streams"][2]["commands"][1].dump(),
        R"({"a_addr":0,"accumulate":false,"b_addr":0,"c_addr":0,"dtype":"float16","k":4,"m":4,"n":4,"op":"matmul"})");
}

// issue_cycles on every kind of command; absent means 0.
TEST(ProgramJson, IssueCycles) {
    arch::Program p = arch::program_from_json(testjson::parse(R"({"blocks": [{"streams": [
            {"engine": "dma0", "commands": [{"op": "dma", "rows": 1, "row_bytes": 64, "issue_cycles": 8}, {"op": "dma"}]},
            {"engine": "cube0", "commands": [{"op": "matmul", "m": 4, "k": 4, "n": 4, "issue_cycles": 0}]},
            {"engine": "vector0", "commands": [{"op": "vector", "vector_op": "exp", "rows": 2, "cols": 3,
                                                "issue_cycles": 4294967295}]}]}]})"),
                                              "p.json");
    const arch::Block& b = p.blocks[0];
    EXPECT_EQ(b.streams[0].commands[0].issue_cycles, 8u);
    EXPECT_EQ(b.streams[0].commands[1].issue_cycles, 0u);
    EXPECT_EQ(b.streams[1].commands[0].issue_cycles, 0u);
    EXPECT_EQ(b.streams[2].commands[0].issue_cycles, 4294967295u);
    // --dump-program shows it before the flags, only when not 0.
    EXPECT_EQ(arch::format_command(p, b.streams[0].commands[0]), "DMA    DDR:0x0 -> L1:0x0  1x64B  issue 8");
    EXPECT_EQ(arch::format_command(p, b.streams[1].commands[0]), "MATMUL 4x4x4 float16  C:0x0 = A:0x0 * B:0x0");
}

// The slot sizes of a program with several blocks per cluster: written only
// when set, read back exactly, shown by --dump-program.
TEST(ProgramJson, SlotSizes) {
    arch::Program p = everything();
    EXPECT_FALSE(arch::program_to_json(p).contains("slot_l1_bytes"));
    p.max_parallel = 8;
    p.slot_l1_bytes = 131072;
    p.slot_l0_bytes = 16384;
    const json j = arch::program_to_json(p);
    EXPECT_EQ(j["slot_l1_bytes"], 131072);
    EXPECT_EQ(j["slot_l0_bytes"], 16384);
    const arch::Program back = arch::program_from_json(j, "x.json");
    EXPECT_EQ(back.slot_l1_bytes, 131072u);
    EXPECT_EQ(back.slot_l0_bytes, 16384u);
    const std::string listing = arch::format_program(back);
    EXPECT_NE(listing.find(", max_parallel 8, slots of 131072 B of L1 and 16384 B of L0\n"), std::string::npos)
        << listing;
}

// Only "blocks", "engine" and "op" are required.
TEST(ProgramJson, MinimalProgram) {
    arch::Program p = arch::program_from_json(
        testjson::parse(
            R"({"blocks": [{"streams": [{"engine": "vector0", "commands": [{"op": "vector", "vector_op": "exp",
                        "rows": 2, "cols": 3}]}]}]})"),
        "p.json");
    ASSERT_EQ(p.blocks.size(), 1u);
    const arch::VectorArgs& v = p.blocks[0].streams[0].commands[0].vec;
    EXPECT_EQ(v.op, VectorOp::Exp);
    EXPECT_EQ(v.dtype, DType::Float16);
    EXPECT_EQ(v.src1, arch::kNoAddress);
    EXPECT_EQ(v.elements(), 6u);
}

std::string error_of(const std::string& text) {
    try {
        arch::program_from_json(testjson::parse(text), "p.json");
    } catch (const arch::ProgramError& e) {
        return e.what();
    }
    return "(no error)";
}

std::string with_command(const std::string& command) {
    return R"({"blocks": [{"streams": [{"engine": "dma0", "commands": [{"op": "dma"}, )" + command + "]}]}]}";
}

TEST(ProgramJson, Errors) {
    EXPECT_EQ(error_of("[1]"), "p.json: expected a JSON object at the top level, got [1]");
    EXPECT_EQ(error_of("{}"), "p.json: missing key \"blocks\"");
    EXPECT_EQ(error_of(R"({"blocks": [], "version": 2})"), "p.json: version: unknown key");
    EXPECT_EQ(error_of(R"({"blocks": {}})"), "p.json: blocks: expected an array, got {}");
    EXPECT_EQ(error_of(R"({"blocks": [{"flags": 1}]})"), "p.json: blocks[0].flags: unknown key for a block");
    EXPECT_EQ(error_of(R"({"blocks": [{"num_flags": 65536}]})"),
              "p.json: blocks[0].num_flags: expected an integer from 0 to 65535, got 65536");
    EXPECT_EQ(error_of(R"({"blocks": [{"cluster": -1}]})"),
              "p.json: blocks[0].cluster: expected an integer from 0 to 2147483647, got -1");
    EXPECT_EQ(error_of(R"({"blocks": [{"deps": [0.0]}]})"),
              "p.json: blocks[0].deps[0]: expected an integer from 0 to 4294967295, got 0.0");
    EXPECT_EQ(error_of(R"({"blocks": [{"streams": [{}]}]})"), "p.json: blocks[0].streams[0]: missing key \"engine\"");
    EXPECT_EQ(error_of(R"({"blocks": [{"streams": [{"engine": "cube01"}]}]})"),
              "p.json: blocks[0].streams[0].engine: unknown engine \"cube01\" (expected dmaN, cubeN.dma, cubeN, "
              "vectorN, vectorN.load or vectorN.store)");
    EXPECT_EQ(error_of(with_command(R"({"rows": 1})")),
              "p.json: blocks[0].streams[0].commands[1]: missing key \"op\" (\"dma\", \"matmul\" or \"vector\")");
    EXPECT_EQ(error_of(with_command(R"({"op": "conv"})")),
              "p.json: blocks[0].streams[0].commands[1].op: unknown value \"conv\" (expected one of: dma, matmul, "
              "vector)");
    EXPECT_EQ(error_of(with_command(R"({"op": "dma", "m": 4})")),
              "p.json: blocks[0].streams[0].commands[1].m: unknown key for a dma command");
    EXPECT_EQ(error_of(with_command(R"({"op": "dma", "rows": -1})")),
              "p.json: blocks[0].streams[0].commands[1].rows: expected an integer from 0 to 4294967295, got -1");
    EXPECT_EQ(error_of(with_command(R"({"op": "dma", "src": "l1"})")),
              "p.json: blocks[0].streams[0].commands[1].src: unknown value \"l1\" (expected one of: DDR, L1, L0, "
              "UB)");
    EXPECT_EQ(error_of(with_command(R"({"op": "dma", "convert_f32_to_f16": 1})")),
              "p.json: blocks[0].streams[0].commands[1].convert_f32_to_f16: expected true or false, got 1");
    EXPECT_EQ(error_of(with_command(R"({"op": "dma", "waits": [1, "f2"]})")),
              "p.json: blocks[0].streams[0].commands[1].waits[1]: expected an integer from 0 to 65535, got \"f2\"");
    EXPECT_EQ(error_of(with_command(R"({"op": "dma", "tag": 1})")),
              "p.json: blocks[0].streams[0].commands[1].tag: 1 is not an index into \"tags\" (0 tags)");
    EXPECT_EQ(error_of(with_command(R"({"op": "matmul", "dtype": "bf16"})")),
              "p.json: blocks[0].streams[0].commands[1].dtype: unknown value \"bf16\" (expected one of: float16, "
              "float32, bfloat16, int8, int32)");
    EXPECT_EQ(error_of(with_command(R"({"op": "vector", "vector_op": "softmax"})")),
              "p.json: blocks[0].streams[0].commands[1].vector_op: unknown value \"softmax\" (expected one of: copy, "
              "add, sub, mul, div, maximum, minimum, select, relu, gelu, sigmoid, tanh, exp, sqrt, cast, reduce_sum, "
              "reduce_max, argmax, transpose)");
    EXPECT_EQ(error_of(with_command(R"({"op": "vector", "src_addr": 0})")),
              "p.json: blocks[0].streams[0].commands[1].src_addr: unknown key for a vector command");
    EXPECT_EQ(
        error_of(with_command(R"({"op": "dma", "issue_cycles": -1})")),
        "p.json: blocks[0].streams[0].commands[1].issue_cycles: expected an integer from 0 to 4294967295, got -1");
    EXPECT_EQ(error_of(with_command(R"({"op": "matmul", "issue_cycles": 4294967296})")),
              "p.json: blocks[0].streams[0].commands[1].issue_cycles: expected an integer from 0 to 4294967295, got "
              "4294967296");
    EXPECT_EQ(
        error_of(with_command(R"({"op": "vector", "issue_cycles": 8.0})")),
        "p.json: blocks[0].streams[0].commands[1].issue_cycles: expected an integer from 0 to 4294967295, got 8.0");
    EXPECT_EQ(
        error_of(with_command(R"({"op": "dma", "issue_cycles": "8"})")),
        "p.json: blocks[0].streams[0].commands[1].issue_cycles: expected an integer from 0 to 4294967295, got \"8\"");
    EXPECT_EQ(error_of(with_command(R"({"op": "dma", "issue": 8})")),
              "p.json: blocks[0].streams[0].commands[1].issue: unknown key for a dma command");
    EXPECT_EQ(error_of(R"({"blocks": [], "tensors": [{"shape": [1, 2.5]}]})"),
              "p.json: tensors[0].shape[1]: expected a 64-bit integer, got 2.5");
}

TEST(ProgramJson, Files) {
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("davinci_program_json_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::string bad = (dir / "bad.json").string(), good = (dir / "good.json").string();
    std::ofstream(bad) << "{\"blocks\": [}\n";
    std::ofstream(good) << arch::program_to_json(everything()).dump(1);
    try {
        arch::load_program_file(bad);
        ADD_FAILURE() << "no error";
    } catch (const arch::ProgramError& e) {
        EXPECT_EQ(std::string(e.what()), bad +
                                             ":1:13: invalid JSON: syntax error while parsing value - unexpected "
                                             "'}'; expected '[', '{', or a literal");
    }
    EXPECT_THROW(arch::load_program_file((dir / "missing.json").string()), arch::ProgramError);
    EXPECT_EQ(arch::format_program(arch::load_program_file(good)), arch::format_program(everything()));
    fs::remove_all(dir);
}

}  // namespace
