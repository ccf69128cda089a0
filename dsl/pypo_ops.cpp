// pypo.op.*: the fine-grained operations. Each checks its operands'
// shapes and types here, at compile time, so a bad program is rejected at
// the call rather than discovered by the lowering.
#include <algorithm>

#include "dsl/diagnostics.h"
#include "dsl/pypo_library.h"

namespace dsl {

namespace {

// The documents' operations that are not lowered yet: calling one is a
// clear "not supported yet", not "no such operation".
const char* const kDocumentOps[] = {"conv2d", "batch_norm", "relu",    "add",     "softmax",
                                    "transpose", "slide",   "max_pool", "avg_pool"};

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

// Messages name operands as the program spells them when it used a plain
// name ("a"), and by role otherwise ("lhs").
std::string spelling(const Arg& arg, const char* role) {
    if (arg.expr && arg.expr->is<ast::Name>()) return arg.expr->as<ast::Name>().id;
    return role;
}

}  // namespace

bool is_known_op(const std::string& name) {
    return name == "matmul" || std::find(std::begin(kDocumentOps), std::end(kDocumentOps), name) != std::end(kDocumentOps);
}

Value PypoLibrary::call_op(const CallSite& call) {
    std::string op = call.callee.substr(std::string("pypo.op.").size());
    if (op == "matmul") return matmul(call);
    fail(call.loc, call.callee + " is not supported yet: only matmul is lowered");
}

Value PypoLibrary::matmul(const CallSite& call) {
    const Signature sig{"matmul", {"a", "b"}, 2, {"tile", "prefetch", "unroll", "target"}};
    auto args = bind_args(sig, call);
    const Arg& a = *args[0];
    const Arg& b = *args[1];
    std::string an = spelling(a, "lhs"), bn = spelling(b, "rhs");
    for (const Arg* x : {&a, &b}) {
        const std::string& n = x == &a ? an : bn;
        if (!x->value.is(Value::Kind::Tensor)) fail(x->loc, "matmul: " + n + " must be a tensor, got " + type_name(x->value));
        if (graph_.tensors[size_t(x->value.tensor)].shape.size() != 2)
            fail(x->loc, "matmul: " + n + " must be 2-D, got " + describe_tensor(x->value.tensor));
    }
    const TensorNode& ta = graph_.tensors[size_t(a.value.tensor)];
    const TensorNode& tb = graph_.tensors[size_t(b.value.tensor)];
    std::string both = an + " is " + describe_tensor(a.value.tensor) + ", " + bn + " is " + describe_tensor(b.value.tensor);
    if (ta.shape[1] != tb.shape[0]) fail(call.loc, "matmul: inner dimensions differ: " + both);
    if (ta.dtype != tb.dtype) fail(call.loc, "matmul: dtypes differ: " + both);

    std::vector<int64_t> shape{ta.shape[0], tb.shape[1]};
    int out = add_op(OpKind::Matmul, {a.value.tensor, b.value.tensor}, std::move(shape), ta.dtype, {}, call.loc);
    return Value::tensor_ref(out);
}

}  // namespace dsl
