// The operations of the language as the task graph knows them: their kind
// and the facts of dsl/ir/op_table.def that every phase may ask for. The
// phase-specific columns (rule, lowering, reference, vector instruction) are
// read by the phase that owns them.
#pragma once

#include <string>
#include <vector>

namespace dsl {

enum class OpKind {
#define OP(e, name, unit, access, precision, on_chip, rule, lowering, reference, vector, fusion) e,
#include "dsl/ir/op_table.def"
#undef OP
};

// The unit that computes an operation.
enum class OpUnit { Cube, Vector, Dma };
// Who writes an operation: a program (pypo.op.<name>) or only the compiler.
enum class OpAccess { Program, Internal };
// What pypo.precision does to an operation (dsl/passes/pass_precision.h).
enum class OpPrecision { Keeps, Follows, Narrow, Wide };
// Whether its lowering can read and write tensors kept in L1.
enum class OpOnChip { OnChip, DdrOnly };
// What the fusion pass may do with it (dsl/passes/pass_fusion.h).
enum class OpFusion { Head, Epilogue, Alone };

const char* op_kind_name(OpKind k);  // "matmul"
OpUnit op_kind_unit_of(OpKind k);
const char* op_kind_unit(OpKind k);  // "cube", "vector", "dma"
OpPrecision op_kind_precision(OpKind k);
bool op_kind_on_chip(OpKind k);
OpFusion op_kind_fusion(OpKind k);
// The kinds whose result lives in their first input's bytes: the views
// and update.
bool is_view_kind(OpKind k);
// reduce_sum, reduce_mean and reduce_max.
bool is_reduce_kind(OpKind k);
// True for the operations only the compiler inserts (format_convert, move).
bool op_kind_is_internal(OpKind k);
// The names of the operations a program can call, in declaration order
// (for "valid operations are ...").
const std::vector<std::string>& op_kind_names();
// False if `name` is not an operation a program can call.
bool op_kind_from_name(const std::string& name, OpKind& out);

}  // namespace dsl
