// embedding: the graph it records; its lowering and timing are tested end
// to end in tests/cli/embedding_argmax_test.cpp.
#include "tests/dsl/ops_test_util.h"

using ops_test::diag_in;
using ops_test::error;
using ops_test::input;
using ops_test::run;

TEST(OpsEmbedding, RowsOfTheTableInTheIdsShape) {
    dsl::TaskGraph g = run({input("t", "(100, 64)"), input("i", "(2, 7)", "int32")}, "pypo.op.embedding(t, i)");
    EXPECT_EQ(g.ops[0].kind, dsl::OpKind::Embedding);
    EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{0, 1}));
    EXPECT_EQ(g.tensors[size_t(g.ops[0].output)].shape, (std::vector<int64_t>{2, 7, 64}));
    EXPECT_EQ(g.tensors[size_t(g.ops[0].output)].dtype, arch::DType::Float16);
    // An int8 table gives int8 rows.
    g = run({input("t", "(100, 64)", "int8"), input("i", "(3,)", "int32")}, "pypo.op.embedding(t, i)");
    EXPECT_EQ(g.tensors[size_t(g.ops[0].output)].shape, (std::vector<int64_t>{3, 64}));
    EXPECT_EQ(g.tensors[size_t(g.ops[0].output)].dtype, arch::DType::Int8);
}

TEST(OpsEmbedding, Errors) {
    const std::vector<std::string> decls{input("t", "(100, 64)"), input("i", "(8,)", "int32"), input("f", "(8,)")};
    std::string e = "pypo.op.embedding(i, i)";
    EXPECT_EQ(error(decls, e), diag_in(3, e, "i,", "embedding: table must have 2 axes (rows, dim): i is (8,) int32"));
    e = "pypo.op.embedding(t, f)";
    EXPECT_EQ(error(decls, e), diag_in(3, e, "f)", "embedding: ids must be an int32 tensor: f is (8,) float16"));
    e = "pypo.op.embedding(t, i, 3)";
    EXPECT_EQ(error(decls, e), diag_in(3, e, "3)", "embedding: takes 2 positional arguments but 3 were given"));
}
