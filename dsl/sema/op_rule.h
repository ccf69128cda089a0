// How the pypo library reaches the operations: the rule of each pypo.op.*
// name. The operations (dsl/ops/) build on the library (they bind calls and
// record operations through it), so the library does not link them: whoever
// makes an Elaborator hands it the operation table's lookup
// (dsl/ops/op_rules.h, find_op_rule; dsl/frontend/ does).
#pragma once

#include <string>

#include "dsl/sema/call_args.h"
#include "dsl/sema/value.h"

namespace dsl {

class PypoLibrary;

// Binds the call to the operation's signature, checks the operands, infers
// and records the output: dsl/ops/.
using OpRule = Value (*)(PypoLibrary& lib, const CallSite& call);
// The rule of operation `name` ("conv2d"), or nullptr if there is none.
using OpRuleLookup = OpRule (*)(const std::string& name);

}  // namespace dsl
