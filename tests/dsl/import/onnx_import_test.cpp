// The ONNX importer as a library: program text from models built with the
// protobuf API, and its refusals of hostile bytes (the command line's
// messages are docs/errors.md's; tests/onnx/ runs models end to end).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <utility>

#include <onnx/onnx_pb.h>

#include "dsl/frontend/frontend.h"
#include "dsl/import/onnx_import.h"
#include "dsl/import/onnx_names.h"
#include "dsl/support/diagnostics.h"

namespace {

using onnx::TensorProto;

onnx::ModelProto model(int64_t opset = 13) {
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(opset);
    return m;
}

void input(onnx::GraphProto* g, const std::string& name, std::vector<int64_t> dims, int type = TensorProto::FLOAT16) {
    onnx::ValueInfoProto* v = g->add_input();
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(type);
    for (int64_t d : dims) {
        if (d < 0) t->mutable_shape()->add_dim()->set_dim_param("N");
        else t->mutable_shape()->add_dim()->set_dim_value(d);
    }
}

onnx::NodeProto* node(onnx::GraphProto* g, const std::string& op, std::vector<std::string> ins,
                      std::vector<std::string> outs) {
    onnx::NodeProto* n = g->add_node();
    n->set_op_type(op);
    n->set_name(op);
    for (const std::string& i : ins) n->add_input(i);
    for (const std::string& o : outs) n->add_output(o);
    return n;
}

void output(onnx::GraphProto* g, const std::string& name) { g->add_output()->set_name(name); }

std::string import_error(const std::string& bytes) {
    try {
        dsl::import_onnx_bytes("m.onnx", bytes);
    } catch (const dsl::CompileError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(OnnxImport, ReluProgramKeepsTheModelsNames) {
    onnx::ModelProto m = model();
    onnx::GraphProto* g = m.mutable_graph();
    input(g, "input.1", {-1, 16});
    node(g, "Relu", {"input.1"}, {"out:0"});
    output(g, "out:0");
    const dsl::ImportedModel im = dsl::import_onnx_bytes("m.onnx", m.SerializeAsString());
    EXPECT_EQ(im.program->path, "<import m.onnx>");
    EXPECT_EQ(im.program->text,
              "# Imported from m.onnx by davinci-sim (ONNX opset 13).\n"
              "# Inputs, weights and outputs keep the model's tensor names; weights take the model's values under "
              "--functional.\n"
              "import pypto as pypo\n\n"
              "input_1 = pypo.input(\"input.1\", shape=(None, 16), dtype=\"float16\")\n\n"
              "out_0 = pypo.op.relu(input_1)  # node 'Relu' (Relu)\n"
              "pypo.output(\"out:0\", out_0)\n");
    EXPECT_TRUE(im.weights.empty());
    // The text is a program: the front end reads it with the batch bound.
    const dsl::TaskGraph graph = dsl::elaborate_source(im.program, {{"input.1", {8, 16}}});
    ASSERT_EQ(graph.ops.size(), 1u);
}

TEST(OnnxImport, InitializerValuesBecomeTheWeights) {
    onnx::ModelProto m = model();
    onnx::GraphProto* g = m.mutable_graph();
    input(g, "x", {2, 3}, TensorProto::FLOAT);
    TensorProto* w = g->add_initializer();
    w->set_name("w");
    w->set_data_type(TensorProto::FLOAT);
    w->add_dims(3);
    w->add_dims(2);
    for (float v : {1.f, 2.f, 3.f, 4.f, 5.f, 6.f}) w->add_float_data(v);
    node(g, "MatMul", {"x", "w"}, {"y"});
    output(g, "y");
    const dsl::ImportedModel im = dsl::import_onnx_bytes("m.onnx", m.SerializeAsString());
    ASSERT_EQ(im.weights.size(), 1u);
    EXPECT_EQ(im.weights[0].name, "w");
    EXPECT_EQ(im.weights[0].shape, (std::vector<int64_t>{3, 2}));
    EXPECT_EQ(im.weights[0].dtype, arch::DType::Float32);
    EXPECT_EQ(im.weights[0].values, (std::vector<float>{1, 2, 3, 4, 5, 6}));
    EXPECT_NE(im.program->text.find("w = pypo.weight(\"w\", shape=(3, 2), dtype=\"float32\")\n"), std::string::npos);
}

TEST(OnnxImport, NodesOutOfOrderAreSorted) {
    onnx::ModelProto m = model();
    onnx::GraphProto* g = m.mutable_graph();
    input(g, "x", {4, 4});
    node(g, "Sigmoid", {"a"}, {"y"});
    node(g, "Relu", {"x"}, {"a"});
    output(g, "y");
    const std::string text = dsl::import_onnx_bytes("m.onnx", m.SerializeAsString()).program->text;
    EXPECT_LT(text.find("pypo.op.relu"), text.find("pypo.op.sigmoid"));
}

TEST(OnnxImport, EveryPrefixOfAModelIsRefusedOrImported) {
    // Truncations are the commonest hostile input: none may crash, and the
    // ones that do not parse say so in one message.
    onnx::ModelProto m = model();
    onnx::GraphProto* g = m.mutable_graph();
    input(g, "x", {4, 4});
    node(g, "Relu", {"x"}, {"y"});
    output(g, "y");
    const std::string bytes = m.SerializeAsString();
    int refused = 0;
    for (size_t n = 0; n < bytes.size(); ++n) {
        const std::string e = import_error(bytes.substr(0, n));
        EXPECT_EQ(e.rfind("m.onnx: error: ", 0), 0u) << n << ": " << e;
        refused += e.find("not an ONNX model: the bytes do not parse") != std::string::npos;
    }
    EXPECT_GT(refused, 0);
}

TEST(OnnxImport, ACycleIsNamed) {
    onnx::ModelProto m = model();
    onnx::GraphProto* g = m.mutable_graph();
    input(g, "x", {4});
    node(g, "Add", {"x", "b"}, {"a"});
    node(g, "Relu", {"a"}, {"b"});
    output(g, "b");
    EXPECT_EQ(import_error(m.SerializeAsString()),
              "m.onnx: error: node 'Add' (Add): the graph has a cycle through this node\n");
}

TEST(OnnxImport, MatMulBatchDimsBroadcast) {
    // (1, 2, 4) @ (3, 4, 5) is (3, 2, 5): equal ranks, the batch dims broadcast.
    onnx::ModelProto m = model();
    onnx::GraphProto* g = m.mutable_graph();
    input(g, "a", {1, 2, 4});
    input(g, "b", {3, 4, 5});
    node(g, "MatMul", {"a", "b"}, {"c"});
    node(g, "Shape", {"c"}, {"s"});
    node(g, "Reshape", {"c", "s"}, {"y"});
    output(g, "y");
    const dsl::ImportedModel im = dsl::import_onnx_bytes("m.onnx", m.SerializeAsString());
    EXPECT_NE(im.program->text.find("(3, 2, 5)"), std::string::npos) << im.program->text;
    const dsl::TaskGraph graph = dsl::elaborate_source(im.program);
    EXPECT_EQ(graph.ops.size(), 2u);
}

TEST(OnnxImport, AShapeElementTimesAConstantStaysAScalar) {
    // Gather(Shape(x), 0) * 2 is a 0-D shape value, which Unsqueeze takes.
    onnx::ModelProto m = model();
    onnx::GraphProto* g = m.mutable_graph();
    input(g, "x", {4, 8});
    for (auto [name, value] : {std::pair<const char*, int64_t>{"zero", 0}, {"two", 2}, {"minus1", -1}}) {
        TensorProto* t = g->add_initializer();
        t->set_name(name);
        t->set_data_type(TensorProto::INT64);
        t->add_int64_data(value);
    }
    TensorProto* axes = g->add_initializer();
    axes->set_name("axes");
    axes->set_data_type(TensorProto::INT64);
    axes->add_dims(1);
    axes->add_int64_data(0);
    node(g, "Shape", {"x"}, {"s"});
    node(g, "Gather", {"s", "zero"}, {"n"});
    node(g, "Mul", {"n", "two"}, {"n2"});
    node(g, "Unsqueeze", {"n2", "axes"}, {"u"});
    node(g, "Unsqueeze", {"minus1", "axes"}, {"v"});
    node(g, "Concat", {"u", "v"}, {"shape"})->add_attribute()->set_name("axis");
    node(g, "Reshape", {"x", "shape"}, {"y"});
    output(g, "y");
    const std::string text = dsl::import_onnx_bytes("m.onnx", m.SerializeAsString()).program->text;
    EXPECT_NE(text.find("(8, -1)"), std::string::npos) << text;
}

TEST(OnnxImport, AnInfiniteClipBoundBoundsNothing) {
    onnx::ModelProto m = model();
    onnx::GraphProto* g = m.mutable_graph();
    input(g, "x", {4, 8});
    for (auto [name, value] : {std::pair<const char*, float>{"lo", -INFINITY}, {"hi", 6.f}}) {
        TensorProto* t = g->add_initializer();
        t->set_name(name);
        t->set_data_type(TensorProto::FLOAT);
        t->add_float_data(value);
    }
    node(g, "Clip", {"x", "lo", "hi"}, {"y"});
    output(g, "y");
    const std::string text = dsl::import_onnx_bytes("m.onnx", m.SerializeAsString()).program->text;
    EXPECT_NE(text.find("pypo.op.minimum(x, 6.0)"), std::string::npos) << text;
}

TEST(OnnxImport, AFoldedCastToAnIntegerTruncates) {
    // Cast(float [8.9, 4.2]) to INT64 is [8, 4] (ONNX truncates toward zero).
    onnx::ModelProto m = model();
    onnx::GraphProto* g = m.mutable_graph();
    input(g, "x", {4, 8});
    TensorProto* c = g->add_initializer();
    c->set_name("c");
    c->set_data_type(TensorProto::FLOAT);
    c->add_dims(2);
    c->add_float_data(8.9f);
    c->add_float_data(4.2f);
    onnx::AttributeProto* to = node(g, "Cast", {"c"}, {"k"})->add_attribute();
    to->set_name("to");
    to->set_type(onnx::AttributeProto::INT);
    to->set_i(TensorProto::INT64);
    node(g, "Reshape", {"x", "k"}, {"y"});
    output(g, "y");
    const std::string text = dsl::import_onnx_bytes("m.onnx", m.SerializeAsString()).program->text;
    EXPECT_NE(text.find("(8, 4)"), std::string::npos) << text;
}

TEST(OnnxImport, SharedWeightsAreOneWeight) {
    // An Identity of an initializer, and two Gemms sharing one transposed B.
    onnx::ModelProto m = model();
    onnx::GraphProto* g = m.mutable_graph();
    input(g, "x", {2, 4}, TensorProto::FLOAT);
    for (const char* name : {"w", "v"}) {
        TensorProto* w = g->add_initializer();
        w->set_name(name);
        w->set_data_type(TensorProto::FLOAT);
        w->add_dims(4);
        w->add_dims(4);
        for (int i = 0; i < 16; ++i) w->add_float_data(float(i));
    }
    node(g, "Identity", {"w"}, {"w2"});
    node(g, "MatMul", {"x", "w"}, {"a"});
    node(g, "MatMul", {"x", "w2"}, {"b"});
    for (const char* out : {"c", "d"}) {
        onnx::AttributeProto* tb = node(g, "Gemm", {"x", "v"}, {out})->add_attribute();
        tb->set_name("transB");
        tb->set_type(onnx::AttributeProto::INT);
        tb->set_i(1);
    }
    node(g, "Add", {"a", "b"}, {"ab"});
    node(g, "Add", {"c", "d"}, {"cd"});
    node(g, "Add", {"ab", "cd"}, {"y"});
    output(g, "y");
    const dsl::ImportedModel im = dsl::import_onnx_bytes("m.onnx", m.SerializeAsString());
    ASSERT_EQ(im.weights.size(), 2u) << im.program->text;
    EXPECT_EQ(im.weights[0].name, "w");
    EXPECT_EQ(im.weights[1].name, "v.T");
    EXPECT_EQ(dsl::elaborate_source(im.program).ops.size(), 7u) << im.program->text;
}

TEST(OnnxImport, SliceToInt64MaxIsToTheEnd) {
    // PyTorch writes x[1:] as Slice(x, starts=[1], ends=[INT64_MAX]); a
    // double holding INT64_MAX is 2^63, outside int64 (saturated_int64).
    onnx::ModelProto m = model();
    onnx::GraphProto* g = m.mutable_graph();
    input(g, "x", {-1, 8});
    for (auto [name, value] : {std::pair<const char*, int64_t>{"starts", 1}, {"ends", INT64_MAX}, {"axes", 0}}) {
        TensorProto* t = g->add_initializer();
        t->set_name(name);
        t->set_data_type(TensorProto::INT64);
        t->add_dims(1);
        t->add_int64_data(value);
    }
    node(g, "Slice", {"x", "starts", "ends", "axes"}, {"y0"});
    node(g, "Relu", {"y0"}, {"y"});
    output(g, "y");
    const std::string text = dsl::import_onnx_bytes("m.onnx", m.SerializeAsString()).program->text;
    EXPECT_NE(text.find("y0 = x[1:]  # node 'Slice' (Slice)\n"), std::string::npos) << text;
}

TEST(OnnxImport, AGeluWhoseInnerTensorIsReadElsewhereStaysErf) {
    onnx::ModelProto m = model();
    onnx::GraphProto* g = m.mutable_graph();
    input(g, "x", {4, 4});
    for (auto [name, value] : {std::pair<const char*, float>{"sqrt2", 1.4142135f}, {"one", 1.f}, {"half", .5f}}) {
        TensorProto* t = g->add_initializer();
        t->set_name(name);
        t->set_data_type(TensorProto::FLOAT);
        t->add_float_data(value);
    }
    node(g, "Div", {"x", "sqrt2"}, {"d"});
    node(g, "Erf", {"d"}, {"e"});
    node(g, "Add", {"e", "one"}, {"a"});
    node(g, "Mul", {"x", "a"}, {"m"});
    node(g, "Mul", {"m", "half"}, {"y"});
    output(g, "y");
    EXPECT_NE(dsl::import_onnx_bytes("m.onnx", m.SerializeAsString()).program->text.find("pypo.op.gelu(x)"),
              std::string::npos);
    output(g, "e");  // the erf itself is an output: no longer only a GELU's inside
    EXPECT_NE(import_error(m.SerializeAsString()).find("operator Erf is not supported"), std::string::npos);
}

TEST(Identifiers, AreValidAndKeepWhatTheyCan) {
    EXPECT_EQ(dsl::identifier_of("conv1.weight"), "conv1_weight");
    EXPECT_EQ(dsl::identifier_of("0"), "t_0");
    EXPECT_EQ(dsl::identifier_of(""), "t_");
    EXPECT_EQ(dsl::identifier_of("lambda"), "lambda_");
    EXPECT_EQ(dsl::identifier_of("pypo"), "pypo_");
    EXPECT_EQ(dsl::identifier_of("onnx::Relu_3"), "onnx__Relu_3");
}

TEST(Identifiers, StringLiteralsEscapeAndRefuseBadUtf8) {
    std::string out;
    ASSERT_TRUE(dsl::string_literal("a\"b\\c\nd\xc3\xa9", out));
    EXPECT_EQ(out, "\"a\\\"b\\\\c\\x0ad\xc3\xa9\"");
    EXPECT_FALSE(dsl::string_literal("a\xff", out));
}

}  // namespace
