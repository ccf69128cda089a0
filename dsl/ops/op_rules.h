// The rules of the pypo.op.* operations: each binds its call to the
// operation's signature, checks the operands' shapes and types, infers the
// output's shape and dtype and records the operation, so a bad program is
// rejected at the call rather than discovered by the lowering. One family
// per file (dsl/ops_*.cpp); the table that maps names to rules is in
// dsl/ops/pypo_ops.cpp.
#pragma once

#include <string>

#include "dsl/sema/call_args.h"
#include "dsl/sema/op_rule.h"
#include "dsl/sema/pypo_library.h"
#include "dsl/sema/value.h"

namespace dsl {

// The rule of operation `name` ("conv2d"), or nullptr if there is none: the
// OpRuleLookup an Elaborator is made with.
OpRule find_op_rule(const std::string& name);

// An operation name the documents define under pypo.op (lowered or not yet).
bool is_known_op(const std::string& name);

// ops_matmul.cpp
Value rule_matmul(PypoLibrary& lib, const CallSite& call);
// ops_conv.cpp
Value rule_conv2d(PypoLibrary& lib, const CallSite& call);
// ops_elementwise.cpp: relu, gelu, sigmoid, tanh, exp, sqrt; cast; add, sub, mul, div, maximum
Value rule_unary(PypoLibrary& lib, const CallSite& call);
Value rule_cast(PypoLibrary& lib, const CallSite& call);
Value rule_binary(PypoLibrary& lib, const CallSite& call);
// ops_norm.cpp
Value rule_batch_norm(PypoLibrary& lib, const CallSite& call);
Value rule_layer_norm(PypoLibrary& lib, const CallSite& call);
Value rule_softmax(PypoLibrary& lib, const CallSite& call);
// ops_reduce.cpp: reduce_sum, reduce_mean, reduce_max
Value rule_reduce(PypoLibrary& lib, const CallSite& call);
// ops_pool.cpp: max_pool, avg_pool; global_avg_pool
Value rule_pool(PypoLibrary& lib, const CallSite& call);
Value rule_global_avg_pool(PypoLibrary& lib, const CallSite& call);
// ops_layout.cpp
Value rule_transpose(PypoLibrary& lib, const CallSite& call);
Value rule_reshape(PypoLibrary& lib, const CallSite& call);
Value rule_flatten(PypoLibrary& lib, const CallSite& call);
Value rule_concat(PypoLibrary& lib, const CallSite& call);
// ops_image.cpp
Value rule_slide(PypoLibrary& lib, const CallSite& call);
Value rule_pixel_shuffle(PypoLibrary& lib, const CallSite& call);
Value rule_upsample(PypoLibrary& lib, const CallSite& call);

}  // namespace dsl
