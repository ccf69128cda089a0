// The elaborated program: the three levels of the user documents —
// coarse tasks, the fine operations inside them, and the tensors (whose
// movement the lowering plans). Produced by the elaborator, consumed by the
// lowering passes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/source_location.h"
#include "sim/arch/program.h"

namespace dsl {

enum class TensorRole { Input, Output, Intermediate };

struct TensorNode {
    std::string name;             // program name ("a") or generated ("matmul_1")
    std::vector<int64_t> shape;
    arch::DType dtype = arch::DType::Float16;
    TensorRole role = TensorRole::Intermediate;
    int producer = -1;            // index of the op that writes it, -1 for inputs
    SourceLoc loc;                // where it was declared or produced
};

enum class OpKind { Matmul };
const char* op_kind_name(OpKind k);  // "matmul"

struct OpNode {
    OpKind kind = OpKind::Matmul;
    std::vector<int> inputs;  // tensor indices
    int output = -1;          // tensor index
    int task = 0;             // index into TaskGraph::tasks
    SourceLoc loc;            // the call
};

// A coarse task. Top-level code outside any @pypo.task is task 0, "main".
struct TaskNode {
    std::string name;
    std::vector<int> ops;
};

struct TaskGraph {
    std::vector<TensorNode> tensors;
    std::vector<OpNode> ops;      // in program order (a valid topological order)
    std::vector<TaskNode> tasks;
    int max_parallel = 0;         // pypo.config.MAX_PARALLEL, 0 = not set
};

}  // namespace dsl
