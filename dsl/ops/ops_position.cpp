// Operations of a transformer's positions: rope, the rotary position
// embedding (rotate-half, the Llama / Hugging Face convention), and
// causal_mask, attention's causal masking of a scores matrix.
#include "dsl/ops/op_rules.h"
#include "dsl/ops/ops_operands.h"
#include "dsl/sema/arg_checks.h"

#include <limits>

namespace dsl {

// rope(x, cos, sin) = x * cos + rotate_half(x) * sin over the last axis
// (HD, even), rotate_half(x) = concat(-x[..., HD/2:], x[..., :HD/2]); x is
// (..., S, HD) and cos and sin are (S, HD), broadcast over x's leading
// axes. Mixed float dtypes are promoted as for the binary operations.
Value rule_rope(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("rope", {"x", "cos", "sin", "dtype", "layout"}, 3, {}, 3));
    Operand x = c.tensor("x", "x");
    Operand cos = c.tensor("cos", "cos"), sin = c.tensor("sin", "sin");
    if (x.rank() < 2) c.fail_at(x.loc, "x must have at least 2 axes (..., S, HD): " + x.text());
    const std::vector<int64_t> table(x.shape.end() - 2, x.shape.end());
    if (table[1] % 2 != 0)
        c.fail_at(x.loc, "the last axis of x must be even (rotate-half splits it in two): " + x.text());
    for (const auto& [t, role] : {std::pair<const Operand*, const char*>{&cos, "cos"}, {&sin, "sin"}})
        if (t->shape != table)
            c.fail_at(t->loc, std::string(role) + " must have shape " + shape_text(table) +
                                  ", the last two axes of x: " + t->text() + ", " + x.text());
    Value out = c.record({x.tensor, cos.tensor, sin.tensor}, x.shape,
                         c.dtype_or(wider_dtype(x.dtype, wider_dtype(cos.dtype, sin.dtype))), {}, x.layout);
    if (!c.get("dtype")) c.promote_operands(out);
    return out;
}

// causal_mask(scores, offset=0): scores (..., Sq, Sk) with column j of row i
// set to -inf where j > i + offset, the rest unchanged; offset is the
// number of keys before the first query (a prefill after `offset` cached
// tokens: Sk = Sq + offset). Any integer: a negative offset masks whole
// rows (their softmax is NaN, as in NumPy). The dtype is the scores'.
Value rule_causal_mask(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("causal_mask", {"scores", "offset", "layout"}, 1, {}, 1));
    Operand x = c.tensor("scores", "scores");
    if (x.rank() < 2) c.fail_at(x.loc, "scores must have at least 2 axes (..., Sq, Sk): " + x.text());
    int64_t offset = 0;
    if (const Arg* o = c.get("offset")) offset = int_arg(c.op(), *o, "offset", std::numeric_limits<int64_t>::min());
    return c.record({x.tensor}, x.shape, x.dtype, {{"offset", Attr::integer(offset)}}, x.layout);
}

}  // namespace dsl
