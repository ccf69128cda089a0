#include "dsl/passes/pipeline.h"

#include "dsl/passes/pass_fusion.h"
#include "dsl/passes/pass_layout.h"
#include "dsl/passes/pass_moves.h"
#include "dsl/passes/pass_precision.h"
#include "dsl/passes/pass_promote.h"

namespace dsl {

const std::vector<GraphPass>& graph_passes() {
    static const std::vector<GraphPass> passes = {
        {"moves", apply_moves},   {"precision", apply_precision}, {"promote", apply_promotion},
        {"layout", apply_layout}, {"fusion", apply_fusion},
    };
    return passes;
}

PassedGraph run_graph_passes(const TaskGraph& elaborated) {
    TaskGraph g = elaborated;
    for (size_t i = 0; i < g.ops.size(); ++i) g.ops[i].origin = int(i);
    for (const GraphPass& pass : graph_passes()) g = pass.run(g);
    return PassedGraph(std::move(g));
}

}  // namespace dsl
