// pypo.op.*: dispatch from an operation's name to its rule (dsl/ops_*.cpp).
// Every operation of op_kinds.def has a rule; tests/dsl/ops_args_test.cpp
// checks the table is complete.
#include <utility>

#include "dsl/ops/op_rules.h"
#include "dsl/sema/pypo_library.h"

namespace dsl {

namespace {

const std::pair<const char*, OpRule> kRules[] = {
    {"matmul", rule_matmul},
    {"conv2d", rule_conv2d},
    {"relu", rule_unary},
    {"gelu", rule_unary},
    {"sigmoid", rule_unary},
    {"tanh", rule_unary},
    {"exp", rule_unary},
    {"sqrt", rule_unary},
    {"cast", rule_cast},
    {"add", rule_binary},
    {"sub", rule_binary},
    {"mul", rule_binary},
    {"div", rule_binary},
    {"maximum", rule_binary},
    {"batch_norm", rule_batch_norm},
    {"layer_norm", rule_layer_norm},
    {"softmax", rule_softmax},
    {"reduce_sum", rule_reduce},
    {"reduce_mean", rule_reduce},
    {"reduce_max", rule_reduce},
    {"max_pool", rule_pool},
    {"avg_pool", rule_pool},
    {"global_avg_pool", rule_global_avg_pool},
    {"transpose", rule_transpose},
    {"reshape", rule_reshape},
    {"flatten", rule_flatten},
    {"concat", rule_concat},
    {"slide", rule_slide},
    {"pixel_shuffle", rule_pixel_shuffle},
    {"upsample", rule_upsample},
};

}  // namespace

OpRule find_op_rule(const std::string& name) {
    OpKind kind;
    if (!op_kind_from_name(name, kind)) return nullptr;
    for (const auto& [op, rule] : kRules)
        if (name == op) return rule;
    return nullptr;
}

bool is_known_op(const std::string& name) { return find_op_rule(name) != nullptr; }

}  // namespace dsl
