// The layout pass (dsl/passes/pass_layout.h): where conv2d's NHWC result meets an
// NCHW label, a format_convert is inserted and later readers follow it.
#include <gtest/gtest.h>

#include "dsl/passes/pass_layout.h"
#include "tests/dsl/dsl_test_util.h"

namespace {

dsl::TaskGraph layout_pass(const std::string& body) {
    return dsl::apply_layout(dsl::elaborate_source(dsl_test::source("import pypto as pypo\n" + body)));
}

std::string listing(const dsl::TaskGraph& g) {
    std::string s;
    for (const dsl::OpNode& op : g.ops) {
        const dsl::TensorNode& y = g.tensors[size_t(op.output)];
        s += y.name + " = " + dsl::op_kind_name(op.kind) + "(";
        for (size_t i = 0; i < op.inputs.size(); ++i) s += (i ? ", " : "") + g.tensors[size_t(op.inputs[i])].name;
        s += ") " + (y.layout.empty() ? std::string("-") : y.layout) + "\n";
    }
    return s;
}

const char* kChain =
    "w = pypo.weight('w', shape=(8, 8, 3, 3))\n"
    "c1 = pypo.op.conv2d(x, w, padding=1)\n"
    "r = pypo.op.relu(c1)\n"
    "c2 = pypo.op.conv2d(r, w, padding=1)\n"
    "pypo.output('y', pypo.op.add(c2, r))\n";

TEST(PassLayout, NchwConvOutputsAreConvertedAndReadersFollow) {
    dsl::TaskGraph g = layout_pass("x = pypo.input('x', shape=(1, 8, 16, 16))\n" + std::string(kChain));
    EXPECT_EQ(listing(g),
              "conv2d_1 = conv2d(x, w) NHWC\n"
              "format_convert_1 = format_convert(conv2d_1) -\n"
              "relu_1 = relu(format_convert_1) -\n"
              "conv2d_2 = conv2d(relu_1, w) NHWC\n"
              "format_convert_2 = format_convert(conv2d_2) -\n"
              "y = add(format_convert_2, relu_1) -\n");
    // The conv2d's own tensor now has the NHWC shape; the conversion's the graph's.
    EXPECT_EQ(g.tensors[size_t(g.ops[0].output)].shape, (std::vector<int64_t>{1, 16, 16, 8}));
    EXPECT_EQ(g.tensors[size_t(g.ops[1].output)].shape, (std::vector<int64_t>{1, 8, 16, 16}));
    EXPECT_EQ(g.ops[0].attrs.at("input_layout").as<dsl::ImageLayout>(), dsl::ImageLayout::NCHW);
    EXPECT_EQ(g.ops[1].attrs.at("from").as<dsl::ImageLayout>(), dsl::ImageLayout::NHWC);
    EXPECT_EQ(g.ops[1].attrs.at("to").as<dsl::ImageLayout>(), dsl::ImageLayout::NCHW);
}

TEST(PassLayout, NhwcInputNeedsNoConversion) {
    dsl::TaskGraph g = layout_pass("x = pypo.input('x', shape=(1, 16, 16, 8), layout='NHWC')\n" + std::string(kChain));
    EXPECT_EQ(listing(g),
              "conv2d_1 = conv2d(x, w) NHWC\n"
              "relu_1 = relu(conv2d_1) NHWC\n"
              "conv2d_2 = conv2d(relu_1, w) NHWC\n"
              "y = add(conv2d_2, relu_1) NHWC\n");
    EXPECT_EQ(g.ops[0].attrs.at("input_layout").as<dsl::ImageLayout>(), dsl::ImageLayout::NHWC);
}

// A program output keeps its name and NCHW layout: the conv2d writes a new
// intermediate and the conversion writes the output.
TEST(PassLayout, AnOutputKeepsItsNameAndLayout) {
    dsl::TaskGraph g = layout_pass(
        "x = pypo.input('x', shape=(1, 8, 16, 16))\n"
        "w = pypo.weight('w', shape=(8, 8, 3, 3))\n"
        "pypo.output('y', pypo.op.conv2d(x, w, padding=1))\n");
    EXPECT_EQ(listing(g),
              "conv2d_1 = conv2d(x, w) NHWC\n"
              "y = format_convert(conv2d_1) -\n");
    EXPECT_EQ(g.tensors[size_t(g.ops[1].output)].role, dsl::TensorRole::Output);
}

// The pass inserts an operation no program can call.
TEST(PassLayout, FormatConvertIsNotAProgramOperation) {
    for (const std::string& name : dsl::op_kind_names()) EXPECT_NE(name, "format_convert");
    dsl::OpKind k;
    EXPECT_FALSE(dsl::op_kind_from_name("format_convert", k));
    EXPECT_TRUE(dsl::op_kind_is_internal(dsl::OpKind::FormatConvert));
}

}  // namespace
