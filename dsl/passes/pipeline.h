// The graph passes between the elaborator and the lowering, declared in
// the order they run (docs/timing-model.md §10, "Compiler passes"):
//   1. moves (pass_moves.h): each `buf[:] = t` becomes a move operation;
//   2. precision (pass_precision.h): each operation's compute dtype under
//      pypo.precision, with the casts it needs;
//   3. promote (pass_promote.h): casts that widen the narrower operands of
//      an operation whose operands share one dtype (mixed float dtypes
//      promote to the wider);
//   4. layout (pass_layout.h): format_convert operations where a producer's
//      natural layout (conv2d: NHWC) is not the one the graph labels;
//   5. fusion (pass_fusion.h): a matmul or conv2d and the element-wise
//      chain that consumes its result become one group, lowered on chip;
//      so does a chain of element-wise operations after an element-wise
//      or pooling operation (a vector chain), and a row reduction with the
//      row-wise operations after it (a row group). The one fact of the target
//      a pass uses: TaskGraph::vector_buffers (the fusion pass groups the
//      tensors such vector units touch as DDR tensors).
// Each runs once per compilation: the lowering takes only a PassedGraph,
// which only run_graph_passes makes.
#pragma once

#include <utility>
#include <vector>

#include "dsl/ir/task_graph.h"

namespace dsl {

struct GraphPass {
    const char* name;  // "moves", "precision", "promote", "layout", "fusion"
    TaskGraph (*run)(const TaskGraph& g);
};

// The passes in the order they run.
const std::vector<GraphPass>& graph_passes();

// The elaborated graph after every pass. Its operations' `origin` is the
// index of the elaborated operation each implements (-1 for one a pass
// inserted); Program::ops[i] of the lowered program is its op i, and
// Program::tensors[t] its tensor t.
class PassedGraph {
public:
    const TaskGraph& graph() const { return graph_; }

private:
    friend PassedGraph run_graph_passes(const TaskGraph& elaborated);
    explicit PassedGraph(TaskGraph g) : graph_(std::move(g)) {}
    TaskGraph graph_;
};

PassedGraph run_graph_passes(const TaskGraph& elaborated);

}  // namespace dsl
