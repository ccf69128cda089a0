// The rules of the pypo.op.* operations: each binds its call to the
// operation's signature, checks the operands' shapes and types, infers the
// output's shape and dtype and records the operation, so a bad program is
// rejected at the call rather than discovered by the lowering. One family
// per file (dsl/ops/ops_*.cpp); the operation table (dsl/ir/op_table.def)
// names each operation's rule.
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

// Every rule of the operation table (dsl/ir/op_table.def, its `rule`
// column), each defined in its family's file dsl/ops/ops_*.cpp; no_rule is
// the internal operations' (a program cannot call them).
#define OP(e, name, unit, access, precision, on_chip, rule, lowering, reference, vector, fusion) \
    Value rule(PypoLibrary& lib, const CallSite& call);
#include "dsl/ir/op_table.def"
#undef OP

}  // namespace dsl
