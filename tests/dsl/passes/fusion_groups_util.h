// The fusion pass's groups of a program, as --dump-graph lists them
// (dsl::format_fusion_groups), for the pass's tests.
#pragma once

#include <string>

#include "dsl/frontend/frontend.h"
#include "dsl/passes/pass_fusion.h"
#include "dsl/passes/pipeline.h"
#include "tests/dsl/lower_test_util.h"

namespace fusion_test {

// `body` after "import pypto as pypo", elaborated and passed.
inline std::string groups(const std::string& body) {
    const dsl::TaskGraph e = dsl::elaborate_source(dsl_test::source("import pypto as pypo\n" + body));
    return dsl::format_fusion_groups(dsl::run_graph_passes(e).graph());
}

}  // namespace fusion_test
