// The task graph for people: a text listing (`--dump-graph`) and Graphviz
// (`--graph-dot`), both showing the documents' three levels: coarse tasks,
// the operations inside them, and the data movements, over the tensors.
#pragma once

#include <string>

#include "dsl/ir/task_graph.h"

namespace dsl {

std::string format_graph(const TaskGraph& g);
// The promotion casts of a graph after the passes (dsl/passes/pass_promote.h),
// each with the elaborated operation it widens an operand for: the section
// --dump-graph adds after the program, "" when there are none.
std::string format_promotions(const TaskGraph& passed);
std::string graph_to_dot(const TaskGraph& g);

}  // namespace dsl
