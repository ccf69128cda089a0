// With --functional, a print or pypo.log message that shows a tensor
// ("<tensor relu_1 (4, 8) float16>") also shows its values' statistics, as
// the run computed them: "<tensor relu_1 (4, 8) float16: min 0, max 0.9727,
// mean 0.4102>", with the count of NaNs and infinities when there are any
// (docs/language.md §3.11). A tensor the run did not keep in memory (an
// on-chip result, a fused intermediate, one rewritten in place later)
// says so: "<tensor t (4, 8) float16: values not kept in memory>".
#pragma once

#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/reference/reference.h"
#include "sim/cli/driver/simulated_values.h"
#include "sim/trace/messages.h"

namespace cli {

// ": min 0, max 0.9727, mean 0.4102" (and ", nan N, inf N").
std::string value_statistics(const dsl::RefValues& values);

// Adds the statistics of each tensor `mentions[i]` names to messages[i].
void add_tensor_values(std::vector<trace::Message>& messages,
                       const std::vector<std::vector<dsl::LogNode::Mention>>& mentions, SimulatedValues& values);

}  // namespace cli
