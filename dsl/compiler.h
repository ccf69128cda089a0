// The compiler's public entry: what a driver (the davinci-sim command, the
// tests, a future Python module) needs to turn a program into commands.
//   source text  -> TaskGraph       dsl/frontend/frontend.h (elaborate_file, elaborate_source)
//   TaskGraph    -> PassedGraph     dsl/passes/pipeline.h (run_graph_passes)
//   PassedGraph  -> arch::Program   dsl/lower/program/lower.h (lower)
// and beside them the graph's printing (--dump-graph, --graph-dot), the
// reference executor of --check, the --op programs and the diagnostics.
#pragma once

#include "dsl/frontend/frontend.h"
#include "dsl/frontend/single_op.h"
#include "dsl/ir/graph_format.h"
#include "dsl/lower/program/lower.h"
#include "dsl/passes/pipeline.h"
#include "dsl/reference/reference.h"
#include "dsl/support/diagnostics.h"
