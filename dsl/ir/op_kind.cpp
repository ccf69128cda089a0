#include "dsl/ir/op_kind.h"

#include <iterator>

namespace dsl {

namespace {

struct OpFacts {
    const char* name;
    OpUnit unit;
    OpAccess access;
    OpPrecision precision;
    OpOnChip on_chip;
    OpFusion fusion;
};

const OpFacts kOps[] = {
#define OP(e, name, unit, access, precision, on_chip, rule, lowering, reference, vector, fusion) \
    {name, OpUnit::unit, OpAccess::access, OpPrecision::precision, OpOnChip::on_chip, OpFusion::fusion},
#include "dsl/ir/op_table.def"
#undef OP
};

}  // namespace

const char* op_kind_name(OpKind k) { return kOps[size_t(k)].name; }
OpUnit op_kind_unit_of(OpKind k) { return kOps[size_t(k)].unit; }

const char* op_kind_unit(OpKind k) {
    switch (op_kind_unit_of(k)) {
    case OpUnit::Cube: return "cube";
    case OpUnit::Vector: return "vector";
    case OpUnit::Dma: return "dma";
    }
    return "?";
}

OpPrecision op_kind_precision(OpKind k) { return kOps[size_t(k)].precision; }
bool op_kind_on_chip(OpKind k) { return kOps[size_t(k)].on_chip == OpOnChip::OnChip; }
OpFusion op_kind_fusion(OpKind k) { return kOps[size_t(k)].fusion; }

bool is_view_kind(OpKind k) {
    return k == OpKind::Reshape || k == OpKind::Flatten || k == OpKind::Slide || k == OpKind::Slice ||
           k == OpKind::Update;
}
bool is_reduce_kind(OpKind k) { return k == OpKind::ReduceSum || k == OpKind::ReduceMean || k == OpKind::ReduceMax; }
bool op_kind_is_internal(OpKind k) { return kOps[size_t(k)].access == OpAccess::Internal; }

const std::vector<std::string>& op_kind_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (size_t i = 0; i < std::size(kOps); ++i)
            if (!op_kind_is_internal(OpKind(i))) v.push_back(kOps[i].name);
        return v;
    }();
    return names;
}

bool op_kind_from_name(const std::string& name, OpKind& out) {
    for (size_t i = 0; i < std::size(kOps); ++i)
        if (name == kOps[i].name && !op_kind_is_internal(OpKind(i))) {
            out = OpKind(i);
            return true;
        }
    return false;
}

}  // namespace dsl
