// --dump-graph and --graph-dot: the task graph as text and as Graphviz.
#include <gtest/gtest.h>

#include "cli_util.h"

using namespace clitest;

namespace {

TEST(GraphViews, DumpGraphListsTensorsAndOperations) {
    Outcome o = run("--dump-graph models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out,
              "task graph: 0 tasks, 1 operations, 0 data movements, 3 tensors\n"
              "\n"
              "tensors\n"
              "  a  input  (256, 256) float16  to op 0\n"
              "  b  input  (256, 256) float16  to op 0\n"
              "  c  output  (256, 256) float16  from op 0\n"
              "\n"
              "program\n"
              "  op 0: c = matmul(a, b)  -> (256, 256) float16  [cube]  @8:5\n");
}

// The DOT file renders with Graphviz (installed by scripts/bootstrap.sh).
TEST(GraphViews, GraphDotRendersWithDot) {
    std::string dot = (scratch() / "g.dot").string(), svg = (scratch() / "g.svg").string();
    Outcome o = run("--graph-dot '" + dot + "' models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out, "");
    std::string text = slurp(dot);
    EXPECT_EQ(text.rfind("digraph pypto {\n", 0), 0u);
    EXPECT_NE(text.find("op0 -> t2;"), std::string::npos) << text;
    ASSERT_EQ(std::system(("dot -Tsvg '" + dot + "' -o '" + svg + "'").c_str()), 0);
    EXPECT_NE(slurp(svg).find("<svg"), std::string::npos);
}

}  // namespace
