// --check, one operation at a time (docs/functional.md §5): each operation
// of the program as written, applied by the reference executor to the
// values its inputs had in the simulation, against the values the
// simulation computed. Rounding then does not compound from operation to
// operation, so a failure names the operation whose lowering is wrong.
// An operation whose result never reaches memory (inside a fusion group)
// is checked with the first one after it whose result does: that one's
// region.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/reference/reference.h"
#include "sim/arch/program.h"
#include "sim/cli/driver/functional_check.h"
#include "sim/func/executor.h"
#include "sim/func/npy.h"

namespace cli {

struct OpCheck {
    std::string kind;                 // "matmul"
    std::string where;                // "models/x.pto:5:7"
    std::vector<std::string> region;  // the operations checked with it, whose results are not in memory
    OutputCheck own;                  // against the reference on its simulated inputs: decides --check
    OutputCheck from_inputs;          // against the reference from the program's inputs: information
};

// `moved` is the program's graph after apply_moves, `reference` the
// reference executor's values of its tensors from the program's inputs
// (`inputs`), `lowered` and `program` what ran, and `run` the functional run.
std::vector<OpCheck> check_operations(const dsl::TaskGraph& moved, const std::vector<dsl::RefValues>& reference,
                                      const std::map<int, func::HostTensor>& inputs, const dsl::TaskGraph& lowered,
                                      const arch::Program& program, func::Executor& run);

// The precision the compiled graph `lowered` computed `tensor` in from the
// tensors marked `given` (indexed by tensor; empty: the program's inputs
// alone): the least precise float dtype (bfloat16, then float16, then
// float32) of the tensors it computed on the way and of the operands it
// computed them from (but a widening cast's); an integer result computed
// from no float on the way is its own dtype, checked exactly.
arch::DType computed_precision(const dsl::TaskGraph& lowered, int tensor, const std::vector<bool>& given = {});

// "  matmul_1 (256, 512) matmul at x.pto:5:7 (float16 ...): max error ..., from the inputs ... -> pass"
std::string format_op_check(const OpCheck& c);

}  // namespace cli
