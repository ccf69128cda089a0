#include "dsl/lower/program/op_lowering.h"

#include "dsl/lower/movement/lower_data_movement.h"
#include "dsl/lower/vector/lower_vector.h"

namespace dsl {

// Every lowering the table names, declared from it, so an operation whose
// lowering lives in a file of its own needs no header.
#define OP(e, name, unit, access, precision, on_chip, rule, lowering, reference, vector, fusion) \
    void lowering(LowerContext& ctx, const OpNode& op);
#include "dsl/ir/op_table.def"
#undef OP

namespace {

using Lowering = void (*)(LowerContext& ctx, const OpNode& op);

const Lowering kLowerings[] = {
#define OP(e, name, unit, access, precision, on_chip, rule, lowering, reference, vector, fusion) lowering,
#include "dsl/ir/op_table.def"
#undef OP
};

}  // namespace

void lower_op(LowerContext& ctx, const OpNode& op) { kLowerings[size_t(op.kind)](ctx, op); }

// Views emit nothing (dsl/lower/lower_views.h); their consumers wait for
// the view's own producers.
void lower_view(LowerContext&, const OpNode&) {}

// engine='dma' transposes in flight (dsl/lower/movement/lower_data_movement.h);
// the default runs on the vector unit.
void lower_transpose_op(LowerContext& ctx, const OpNode& op) {
    if (op.attrs.at("engine").as<Engine>() == Engine::Dma) return lower_transpose_dma_op(ctx, op);
    lower_vector_transpose(ctx, op);
}

}  // namespace dsl
