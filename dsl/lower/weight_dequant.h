// Weight-only int8 (W8A16): `matmul(x, dequantize(w, scale))` with an int8
// weight is lowered as one GEMM whose B panels cross DDR as int8 and are
// dequantised in L1 by the vector unit (a cast to the compute dtype and a
// multiply by the columns' scales) before the cube reads them, as a
// deployment runs it; the dequantize then emits nothing. Without this the
// float16 weight would be written to DDR and read back: more DDR traffic
// than a float16 weight alone (docs/language.md §3.3).
#pragma once

#include <optional>

#include "dsl/lower/lower_context.h"

namespace dsl {

struct WeightDequant {
    int dequantize_op = -1;  // its index in the graph
    int q = -1, scale = -1;  // the int8 weight (K, N) and its scale, (N,) or (1,)
    bool per_column = true;  // scale (N,); (1,): one for every element
};

// The dequantize that makes `matmul`'s B, when the GEMM can take it over:
// the dequantize's result is read by this matmul alone, as B, and is
// neither a program output nor on chip; the weight is a 2-D int8 program
// input or weight and the scale one of the dequantize's dtype, which is
// the matmul's; the cube is not a weight- or input-stationary array (whose
// fold-major schedule has no panels), and the vector units compute in L1
// (not in Unified Buffers of their own).
std::optional<WeightDequant> weight_dequant(const LowerContext& ctx, const OpNode& matmul);

// Whether `dequantize` is taken over by the matmul that reads it.
bool dequantize_in_matmul(const LowerContext& ctx, const OpNode& dequantize);

}  // namespace dsl
