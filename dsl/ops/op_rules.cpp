// pypo.op.*: from an operation's name to its rule, the `rule` column of
// the operation table (dsl/ir/op_table.def).
#include <stdexcept>

#include "dsl/ops/op_rules.h"
#include "dsl/sema/pypo_library.h"

namespace dsl {

namespace {

const OpRule kRules[] = {
#define OP(e, name, unit, access, precision, on_chip, rule, lowering, reference, vector, fusion) rule,
#include "dsl/ir/op_table.def"
#undef OP
};

}  // namespace

Value no_rule(PypoLibrary&, const CallSite& call) {
    throw std::logic_error("no rule for '" + call.callee + "': only the compiler inserts it");
}

OpRule find_op_rule(const std::string& name) {
    OpKind kind;
    // Internal operations have no name a program can use.
    if (!op_kind_from_name(name, kind)) return nullptr;
    return kRules[size_t(kind)];
}

bool is_known_op(const std::string& name) { return find_op_rule(name) != nullptr; }

}  // namespace dsl
