// What every operation rule needs from its call: the bound arguments by
// parameter name, tensor operands with the names messages use, the dtype=
// and layout= options the operations share, overflow-checked shape
// arithmetic, and recording the operation.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/sema/call_args.h"
#include "dsl/sema/pypo_library.h"

namespace dsl {

// A tensor argument, copied out of the graph: recording an operation grows
// the graph, so rules hold no references into it.
struct Operand {
    int tensor = -1;
    std::vector<int64_t> shape;
    arch::DType dtype = arch::DType::Float16;
    std::string layout;
    std::string name;       // the program's spelling when a plain name ("conv2"), else the role ("lhs")
    std::string described;  // "(1, 64, 28, 28) float16"
    SourceLoc loc;

    size_t rank() const { return shape.size(); }
    // "conv2 is (1, 64, 28, 28) float16": how messages show an operand.
    std::string text() const { return name + " is " + described; }
};

class OpCall {
public:
    // Binds the call to `sig`, whose name is the operation's ("conv2d").
    OpCall(PypoLibrary& lib, const CallSite& call, Signature sig);

    const std::string& op() const { return sig_.name; }
    OpKind kind() const { return kind_; }
    const CallSite& call() const { return call_; }
    PypoLibrary& lib() const { return lib_; }

    // The argument bound to `param`, or nullptr if the call did not give it.
    const Arg* get(const std::string& param) const;
    // The tensor bound to `param`: "<op>: <name> must be a tensor, got int".
    Operand tensor(const std::string& param, const std::string& role) const;
    // A tensor value written at `loc` (an element of concat's list).
    Operand tensor_at(const Value& v, const SourceLoc& loc, const std::string& name) const;

    // "<op>: <msg>" at the call, or at `loc`.
    [[noreturn]] void fail(const std::string& msg) const;
    [[noreturn]] void fail_at(const SourceLoc& loc, const std::string& msg) const;

    // dtype= when the call gives it, else `fallback`.
    arch::DType dtype_or(arch::DType fallback) const;
    // layout= when the call gives it (one of valid_layouts()), else "".
    std::string layout() const;
    // Where an image's C, H and W axes are: layout= if it names an image
    // layout, else the image's own layout; NCHW unless one says NHWC.
    struct ImageAxes {
        size_t c = 1, h = 2, w = 3;
    };
    ImageAxes image_axes(const Operand& image) const;
    // Requires a 4-D image: "<op>: x must be a 4-D image (N, C, H, W), got (64, 64) float16".
    void require_image(const Operand& image) const;

    // `axis` (negative counts from the end) as an index into x's shape:
    // "<op>: axis 4 is out of range for x (1, 64) float16".
    size_t axis(int64_t axis, const Operand& x, const SourceLoc& loc) const;

    // Shape arithmetic that fails "<op>: the result is too large" rather than overflowing.
    int64_t mul(int64_t a, int64_t b) const;
    int64_t add(int64_t a, int64_t b) const;
    int64_t elements(const std::vector<int64_t>& shape) const;

    // Records the operation and returns its output. The output's layout is
    // layout= if given (checked against the output's rank), else `inherited`.
    Value record(std::vector<int> inputs, std::vector<int64_t> shape, arch::DType dtype,
                 std::map<std::string, Attr> attrs, const std::string& inherited_layout = "") const;
    // The same as another operation than the call names (conv2d(groups=C)
    // is a depthwise_conv2d).
    Value record_as(OpKind kind, std::vector<int> inputs, std::vector<int64_t> shape, arch::DType dtype,
                    std::map<std::string, Attr> attrs, const std::string& inherited_layout = "") const;

    // Marks the operation that produced `out` as one whose tensor operands
    // share the widest of their dtypes (OpNode::promotes_operands): mixed
    // float dtypes are promoted, never an error; the promote pass inserts
    // the casts (dsl/passes/pass_promote.h).
    void promote_operands(const Value& out) const;

private:
    PypoLibrary& lib_;
    const CallSite& call_;
    Signature sig_;
    OpKind kind_ = OpKind::Matmul;
    std::vector<std::optional<Arg>> args_;
};

// The operation a call names: "relu" for pypo.op.relu.
std::string op_name(const CallSite& call);

// The name messages give an argument: its spelling when the program wrote a
// plain name, else `role`.
std::string spelling(const Arg& arg, const std::string& role);

// NumPy broadcasting of two shapes (aligned at the last axis; each pair of
// sizes equal or one of them 1), or nothing if they do not broadcast.
std::optional<std::vector<int64_t>> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// padding= of a sliding-window operation, as (ph, pw): an integer or a pair
// of integers >= 0, 'valid' (no padding) or 'same' (window // 2 on each
// side, which keeps the size at stride 1 and gives ceil(size / stride)
// otherwise; it needs an odd window: "<op>: padding='same' needs an odd
// <why>", `why` naming the window: "kernel: w is (8, 3, 2, 2) float16").
std::vector<int64_t> padding_arg(const OpCall& c, const Arg& arg, const std::vector<int64_t>& window,
                                 const std::string& why);

// How many positions a window takes along one axis:
// (size + 2 * pad - window) / stride + 1, or 0 when it does not fit at all.
int64_t window_positions(const OpCall& c, int64_t size, int64_t pad, int64_t window, int64_t stride);

}  // namespace dsl
