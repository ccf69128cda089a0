// The command field table (sim/arch/isa_fields.def) and what is derived from
// it: the JSON reader keeps the order in which it has always met bad fields
// (so a file with two faults gets the same message as before the table), the
// spool codec stores a field at its default in one byte, and vector sources
// compare only the fields of their kind.
#include "sim/arch/isa_fields.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sim/arch/block_codec.h"
#include "sim/arch/program_json.h"
#include "tests/support/program_builders.h"

namespace {

using namespace testprog;
using nlohmann::json;

std::string error_of(const std::string& command, const std::string& engine) {
    const std::string text =
        R"({"blocks": [{"streams": [{"engine": ")" + engine + R"(", "commands": [)" + command + "]}]}]}";
    try {
        arch::program_from_text(text, "p.json");
    } catch (const arch::ProgramError& e) {
        return e.what();
    }
    return "(accepted)";
}

// An im2col descriptor is read in its keys' sorted order: pad_h before stride_h.
TEST(IsaFields, Im2colFaultsInKeyOrder) {
    EXPECT_EQ(
        error_of(R"({"op": "dma", "src": "L1", "dst": "L0", "im2col": {"stride_h": -1, "pad_h": -2}})", "cube0.dma"),
        "p.json: blocks[0].streams[0].commands[0].im2col.pad_h: expected an integer from 0 to 4294967295, got -2");
}

// A rearrangement is read in the table's order: its kind first.
TEST(IsaFields, RearrangeKindFirst) {
    EXPECT_EQ(error_of(R"({"op": "dma", "rearrange": {"element_bytes": -1, "kind": "bogus"}})", "dma0"),
              "p.json: blocks[0].streams[0].commands[0].rearrange.kind: unknown value \"bogus\" (expected one of: "
              "transpose, pixel_shuffle)");
}

// A vector source's dims and strides are checked as a pair before its window is read.
TEST(IsaFields, SourceDimsBeforeWindow) {
    EXPECT_EQ(
        error_of(R"({"op": "vector", "in0": {"kind": "strided", "dims": [1], "window": {"bogus": 1}}})", "vector0"),
        "p.json: blocks[0].streams[0].commands[0].in0: \"dims\" and \"strides\" differ in length");
}

// Each op accepts exactly its table's keys, the common ones and "op".
TEST(IsaFields, UnknownKeyNamesTheOp) {
    EXPECT_EQ(error_of(R"({"op": "matmul", "rows": 4})", "cube0"),
              "p.json: blocks[0].streams[0].commands[0].rows: unknown key for a matmul command");
    EXPECT_EQ(error_of(R"({"op": "vector", "m": 4})", "vector0"),
              "p.json: blocks[0].streams[0].commands[0].m: unknown key for a vector command");
}

// A block of one all-default vector command: every field takes one byte,
// the absent src1 and src2 (all ones) too, as it is stored relative to its default.
TEST(IsaFields, DefaultFieldsTakeOneByteInTheSpool) {
    arch::Command c;
    c.op = arch::Opcode::Vector;
    std::string bytes;
    arch::encode_block(block({stream(vector_unit(0), {c})}, 0), bytes);
    // block: name, deps, drain, cluster, flags, streams; stream: kind, index,
    // commands; command: op, 9 numbers, 3 sources, waits, sets, tag, issue.
    EXPECT_EQ(bytes.size(), 6u + 3u + 17u);
    const arch::Block back = arch::decode_block(bytes.data(), bytes.size());
    EXPECT_EQ(back.streams[0].commands[0].vec.src1, arch::kNoAddress);
}

// Sources are equal when they read the same elements: the fields of another kind do not count.
TEST(IsaFields, SourcesCompareTheirKindsFields) {
    arch::VectorSource a, b;
    a.kind = b.kind = arch::VectorSource::Kind::Scalar;
    a.scalar = b.scalar = 0.5;
    b.first = 7, b.window.height = 3;
    EXPECT_EQ(a, b);
    b.scalar = 0.25;
    EXPECT_NE(a, b);
    a.kind = b.kind = arch::VectorSource::Kind::Window;
    EXPECT_NE(a, b);  // window.height differs
    b.window.height = 0;
    EXPECT_EQ(a, b);
}

// Keys are unique within each struct and within each op's command object.
TEST(IsaFields, KeysAreUnique) {
    auto keys = [](const auto& s, std::set<std::string>& seen) {
        arch::isa::for_each_field(s, [&](const arch::isa::Field& f, const auto&, const auto&) {
            EXPECT_TRUE(seen.insert(f.key).second) << f.key;
        });
    };
    for (int op = 0; op < 3; ++op) {
        std::set<std::string> seen{"op"};
        arch::Command c;
        c.op = arch::Opcode(op);
        keys(c, seen);
        arch::isa::with_args(c, [&](const auto& args) { keys(args, seen); });
    }
    std::set<std::string> im2col, rearrange, source, window;
    keys(arch::Im2col{}, im2col);
    keys(arch::Rearrange{}, rearrange);
    keys(arch::VectorSource{}, source);
    keys(arch::VectorSource::Window{}, window);
}

}  // namespace
