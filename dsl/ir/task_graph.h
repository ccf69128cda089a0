// The elaborated program: the three levels of the user documents —
// coarse tasks, the fine operations inside them, and the data movements —
// over tensors with shape, dtype, layout and placement. Produced by the
// elaborator, printed by --dump-graph / --graph-dot, consumed by lowering.
#pragma once

#include <cstdint>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "dsl/ir/op_attrs.h"
#include "dsl/ir/op_kind.h"
#include "dsl/support/source_location.h"
#include "sim/arch/program.h"

namespace dsl {

enum class TensorRole {
    Input,         // pypo.input: in DDR before the program starts
    Weight,        // pypo.weight: constant parameters, in DDR
    Output,        // pypo.output (or returned by the entry function)
    Intermediate,  // produced by an operation
    Buffer,        // pypo.mem.alloc_l1: an explicitly placed buffer
};
const char* tensor_role_name(TensorRole r);  // "input", ...

// Where the program asked a tensor to live. Default DDR; the lowering
// decides the rest.
enum class Placement { DDR, L1, L0 };
const char* placement_name(Placement p);  // "DDR", "L1", "L0"

struct TensorNode {
    std::string name;  // program name ("a") or generated ("matmul_1")
    std::vector<int64_t> shape;
    arch::DType dtype = arch::DType::Float16;
    TensorRole role = TensorRole::Intermediate;
    std::string layout;  // "" = row-major (default); else as annotated: "NCHW", "NHWC", "fractal"
    Placement placement = Placement::DDR;
    int producer = -1;  // op index, -1 if none (inputs, weights, buffers)
    int task = -1;      // the task that declared/produced it, -1 = top level
    SourceLoc loc;      // where it was declared or produced
};

// A normalised keyword argument of an operation (stride=2 is stored as the
// Ints (2, 2) the rule means, so lowering never re-interprets the program).
struct Attr {
    // Choice: one of an enum's values (dsl/ir/op_attrs.h), i its value and s
    // its spelling.
    enum class Kind { Int, Float, Str, Bool, Ints, Choice } kind = Kind::Int;
    int64_t i = 0;
    double f = 0.0;
    std::string s;
    bool b = false;
    std::vector<int64_t> ints;

    static Attr integer(int64_t v);
    static Attr real(double v);
    static Attr str(std::string v);
    static Attr boolean(bool v);
    static Attr list(std::vector<int64_t> v);
    template <class E>
    static Attr choice(E e) {
        Attr a;
        a.kind = Kind::Choice, a.i = int64_t(e), a.s = choice_name(e);
        return a;
    }

    // The choice this attribute holds; a logic error for another kind or
    // another enum (a compiler bug, not a program's).
    template <class E>
    E as() const {
        if (kind != Kind::Choice || i < 0 || size_t(i) >= std::size(Choices<E>::names) || s != choice_name(E(i)))
            throw std::logic_error("attribute '" + s + "' is not the choice asked for");
        return E(i);
    }
};
std::string attr_text(const Attr& a);  // "2", "0.5", "'dma'", "True", "(3, 3)"

struct OpNode {
    OpKind kind = OpKind::Matmul;
    std::vector<int> inputs;            // tensor indices
    int output = -1;                    // tensor index
    std::map<std::string, Attr> attrs;  // as given or defaulted by the op's rule
    std::string precision;              // "" or the enclosing pypo.precision mode ("mixed")
    bool explicit_dtype = false;        // dtype= was given at the call (the precision pass leaves it alone)
    // Its tensor operands share one dtype, the widest of theirs: the promote
    // pass (dsl/passes/pass_promote.h) casts the narrower ones up. Set by the
    // rules whose hardware needs one dtype (matmul, conv2d, concat, and the
    // element-wise binary ops without dtype=).
    bool promotes_operands = false;
    // A cast the promote pass inserted to widen an operand (counted as a
    // promotion in the report).
    bool promotion = false;
    int task = -1;  // index into TaskGraph::tasks, -1 = top level
    SourceLoc loc;  // the call
    // After the graph passes (run_graph_passes): the index of the
    // elaborated op this one implements, -1 for one a pass inserted (a
    // cast, a format conversion, a copy). Links a compiled operation back
    // to the program's, for automatic mixed precision.
    int origin = -1;
    // Set by the fusion pass (dsl/passes/pass_fusion.h): on a group's head
    // (a cube operation, a vector chain's first operation, a row
    // reduction), the operations that run with it, in program order; on
    // each of those, the head's index. Empty and -1 otherwise
    // (dsl/ir/fusion_groups.h reads them).
    std::vector<int> epilogue;
    int fused_into = -1;
};

// An explicit data movement written in the program: `buf[:] = t` copies t
// into a buffer (moves the lowering inserts are not listed here).
struct MoveNode {
    int src = -1;  // tensor indices
    int dst = -1;
    int task = -1;
    int after_op = -1;  // the number of operations recorded before it, minus one
    SourceLoc loc;
};

// A coarse task: one call of a @pypo.task function.
struct TaskNode {
    std::string name;       // the function's name, "#k" appended from the 2nd call on: "residual_block#2"
    std::string placement;  // "cube", "vector" or "any"
    int parent = -1;        // the task whose body called it, -1 = top level
    std::vector<int> ops;   // its operations (not those of nested tasks)
    std::vector<int> moves;
    SourceLoc loc;  // the call
};

// pypo.log (asynchronous) or print (a synchronisation point), in program
// order relative to the operations.
struct LogNode {
    std::string text;
    bool synchronous = false;  // print
    int after_op = -1;         // the number of operations recorded before it, minus one
    int task = -1;
    SourceLoc loc;
    // Each tensor the message shows ("<tensor c (256, 256) float16>"): the
    // position of that text's closing '>' and the tensor, so a functional
    // run can add its values' statistics there.
    struct Mention {
        size_t at = 0;
        int tensor = -1;
    };
    std::vector<Mention> tensors;
};

// A `with pypo.mem.temp_cache() as name:` block: the operations recorded
// inside it, [first_op, end_op), whose L0/L1 results are freed at its end.
struct CacheScope {
    std::string name;
    int first_op = 0;
    int end_op = 0;
    int task = -1;
    SourceLoc loc;
};

// A constant the program declares with pypo.param("layers", 1), with the
// value it ran with (--param's, else the default), so that --dump-graph and
// the report say what a sweep's run used.
struct ProgramParam {
    enum class Type { Int, Float, Bool, Str };
    std::string name;
    Type type = Type::Int;
    std::string text;  // Python's str() of the value: 2, 0.5, True, abc
    std::string repr;  // Python's repr(): 2, 0.5, True, 'abc'
};

struct TaskGraph {
    std::vector<TensorNode> tensors;
    std::vector<OpNode> ops;  // in program order (a valid topological order)
    std::vector<MoveNode> moves;
    std::vector<TaskNode> tasks;
    std::vector<LogNode> logs;
    std::vector<CacheScope> temp_caches;
    int max_parallel = 0;        // pypo.config.MAX_PARALLEL, 0 = not set
    SourceLoc max_parallel_loc;  // the value assigned to it
    // pypo.config.BUFFERS: the buffering depth (1 single, 2 double, 3
    // triple) of every GEMM panel/tile and vector-stream chunk, overriding
    // the defaults (2; 3 for a matmul's L1 panels with prefetch=True);
    // 0 = not set.
    int buffers = 0;
    // pypo.config.WORKSPACE_BUFFERS: the buffers a strand's DDR workspace
    // keeps for one operation's results before it reuses one
    // (dsl/lower/ddr_workspace.h); 0 = no workspace. The default, 5, is
    // the vendor's flash-attention kernel's: it passes its scores,
    // probabilities and partial outputs between the cube and the vector
    // cores through global-memory FIFOs of 1 + qkPreloadNum slots, 4 by
    // default, so the cube runs up to four tiles ahead (PTO-ISA
    // kernels/manual/common/flash_atten/README.md, "qkp_tile_fifo_size").
    static constexpr int kDefaultWorkspaceBuffers = 5;
    int workspace_buffers = kDefaultWorkspaceBuffers;
    // pypo.config.FUSION (and --no-fusion): whether the fusion pass runs.
    bool fusion = true;
    // The target's vector units compute in Unified Buffers of their own
    // (vector.buffer_kib > 0), set by whoever compiles for it: the tensors
    // they touch are then kept in DDR (dsl/ir/vector_unit_tensors.h), and
    // the fusion pass groups them as DDR tensors.
    bool vector_buffers = false;
    // pypo.param constants, in the order the program declares them.
    std::vector<ProgramParam> params;
};

// The placement that governs task `task`'s operations: its own, or, for
// 'any', that of the nearest enclosing task that names one; "any" at the
// top level (task -1) and when none does.
std::string effective_placement(const TaskGraph& g, int task);

// The dtype two float dtypes promote to: the same one, or float32 (which
// holds float16 and bfloat16 alike).
arch::DType wider_dtype(arch::DType a, arch::DType b);

// Operations reading each tensor, in program order.
std::vector<std::vector<int>> tensor_consumers(const TaskGraph& g);

// Checks the graph is a DAG in program order (every op input is an input,
// weight, buffer or the output of an earlier op; indices are in range).
// Throws std::logic_error: a failure is a front-end bug, not a user error.
void check_dag(const TaskGraph& g);

}  // namespace dsl
