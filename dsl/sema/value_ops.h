// Python's operators on compile-time values, with int64 overflow and
// division by zero reported as compile errors at the operator.
#pragma once

#include <vector>

#include "dsl/sema/value.h"
#include "dsl/syntax/ast.h"

namespace dsl {

Value binary_op(ast::BinaryOp op, const Value& a, const Value& b, const SourceLoc& op_loc);
Value unary_op(ast::UnaryOp op, const Value& a, const SourceLoc& op_loc);
bool compare_op(ast::CmpOp op, const Value& a, const Value& b, const SourceLoc& op_loc);

// The elements a `for` loop visits: a tuple's or list's items, a string's
// characters, a dict's keys. "'int' object is not iterable" at `loc`.
std::vector<Value> iterate(const Value& v, const SourceLoc& loc);

// `seq[lower:upper:step]` for a tuple, list or string, with Python's
// clamping; a null bound is an absent one.
Value slice_of(const Value& seq, const Value* lower, const Value* upper, const Value* step, const SourceLoc& loc);

}  // namespace dsl
