// Python's operators on compile-time values, with int64 overflow and
// division by zero reported as compile errors at the operator.
#pragma once

#include "dsl/ast.h"
#include "dsl/value.h"

namespace dsl {

Value binary_op(ast::BinaryOp op, const Value& a, const Value& b, const SourceLoc& op_loc);
Value unary_op(ast::UnaryOp op, const Value& a, const SourceLoc& op_loc);
bool compare_op(ast::CmpOp op, const Value& a, const Value& b, const SourceLoc& op_loc);

}  // namespace dsl
