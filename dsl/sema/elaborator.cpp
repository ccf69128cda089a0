#include "dsl/sema/elaborator.h"

#include "dsl/sema/value_ops.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

}  // namespace

Elaborator::Nest::Nest(Elaborator& e, const SourceLoc& loc) : e_(e) {
    // Counted before the check so the destructor's decrement balances.
    if (++e_.nesting_ > kMaxNesting) fail(loc, "program nests too deeply (calls, blocks and expressions)");
}

Elaborator::Elaborator(OpRuleLookup ops, const ShapeBindings& shapes, const ParamBindings& params)
    : library_(graph_, ops) {
    library_.set_shape_bindings(shapes);
    library_.set_param_bindings(params);
    globals_ = scope_ = std::make_shared<Scope>();
}

Elaborator::~Elaborator() {
    for (auto& s : captured_) s->vars.clear();
    globals_->vars.clear();
}

TaskGraph Elaborator::run(const ast::Module& module) {
    for (const auto& s : module.body) exec(*s);
    run_entry_function();
    library_.declare_updated_inputs();
    SourceLoc start;
    start.file = module.file;
    library_.check_shape_bindings_used(start);
    library_.check_param_bindings_used(start);
    bool has_output = false;
    for (const TensorNode& t : graph_.tensors) has_output |= t.role == TensorRole::Output;
    if (!has_output) {
        start.line = 1;
        start.col = 1;
        fail(start, "program declares no outputs (use pypo.output)");
    }
    return std::move(graph_);
}

Elaborator::Flow Elaborator::exec_block(const ast::Block& body) {
    for (const auto& s : body) {
        Flow f = exec(*s);
        if (f != Flow::Normal) return f;
    }
    return Flow::Normal;
}

Elaborator::Flow Elaborator::exec(const ast::Stmt& s) {
    Nest nest(*this, s.loc);
    switch (s.kind) {
    case ast::StmtKind::Import: bind(s.as<ast::Import>().alias, PypoLibrary::module()); break;
    case ast::StmtKind::Assign: {
        const auto& a = s.as<ast::Assign>();
        Value v = eval(*a.value);
        for (const auto& t : a.targets) assign(*t, v, a.value->loc);
        break;
    }
    case ast::StmtKind::AugAssign: {
        const auto& a = s.as<ast::AugAssign>();
        Value current = eval(*a.target);
        Value rhs = eval(*a.value);
        assign(*a.target, binary_op(a.op, current, rhs, a.op_loc), a.value->loc);
        break;
    }
    case ast::StmtKind::ExprStmt: eval(*s.as<ast::ExprStmt>().value); break;
    case ast::StmtKind::Pass: break;
    case ast::StmtKind::FunctionDef: define_function(s.as<ast::FunctionDef>()); break;
    case ast::StmtKind::Return: {
        const auto& r = s.as<ast::Return>();
        return_value_ = r.value ? eval(*r.value) : Value::none();
        return_loc_ = r.value ? r.value->loc : r.loc;
        return Flow::Return;
    }
    case ast::StmtKind::For: return exec_for(s.as<ast::For>());
    case ast::StmtKind::If: return exec_if(s.as<ast::If>());
    case ast::StmtKind::With: return exec_with(s.as<ast::With>(), 0);
    case ast::StmtKind::Break: return Flow::Break;
    case ast::StmtKind::Continue: return Flow::Continue;
    }
    return Flow::Normal;
}

void Elaborator::count_iteration(const SourceLoc& loc) {
    if (++iterations_ > kMaxIterations)
        fail(loc, "too many loop iterations (the limit is " + std::to_string(kMaxIterations) +
                      " for the whole program): loops are unrolled at compile time");
}

// Loops are unrolled: the body runs once per element, at compile time.
Elaborator::Flow Elaborator::exec_for(const ast::For& f) {
    std::vector<Value> items = iterate(eval(*f.iter), f.iter->loc);
    for (Value& item : items) {
        count_iteration(f.loc);
        assign(*f.target, item, f.iter->loc);
        Flow flow = exec_block(f.body);
        if (flow == Flow::Break) break;
        if (flow == Flow::Return) return flow;
    }
    return Flow::Normal;
}

// An elif chain is walked here rather than recursed into.
Elaborator::Flow Elaborator::exec_if(const ast::If& s) {
    const ast::If* branch = &s;
    for (;;) {
        if (truthy(eval(*branch->test))) return exec_block(branch->body);
        const ast::Block& orelse = branch->orelse;
        if (orelse.size() == 1 && orelse[0]->is<ast::If>()) {
            branch = &orelse[0]->as<ast::If>();
            continue;
        }
        return exec_block(orelse);
    }
}

void Elaborator::assign(const ast::Expr& target, const Value& value, const SourceLoc& value_loc) {
    switch (target.kind) {
    case ast::ExprKind::Name: bind(target.as<ast::Name>().id, value); return;
    case ast::ExprKind::Attribute: {
        const auto& a = target.as<ast::Attribute>();
        library_.set_attribute(eval(*a.value), a.attr, a.attr_loc, value, value_loc);
        return;
    }
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List: {
        const auto& elts = target.is<ast::Tuple>() ? target.as<ast::Tuple>().elts : target.as<ast::List>().elts;
        if (value.is(Value::Kind::Tensor) ||
            !(value.is_sequence() || value.is(Value::Kind::Str) || value.is(Value::Kind::Dict)))
            fail(value_loc, "cannot unpack non-iterable " + type_name(value) + " object");
        // A copy: `a, b = b, a` must read every value before binding any.
        std::vector<Value> items = iterate(value, value_loc);
        size_t n = items.size();
        if (n > elts.size())
            fail(target.loc, "too many values to unpack (expected " + std::to_string(elts.size()) + ", got " +
                                 std::to_string(n) + ")");
        if (n < elts.size())
            fail(target.loc, "not enough values to unpack (expected " + std::to_string(elts.size()) + ", got " +
                                 std::to_string(n) + ")");
        for (size_t k = 0; k < n; ++k) assign(*elts[k], items[k], value_loc);
        return;
    }
    case ast::ExprKind::Subscript: assign_item(target.as<ast::Subscript>(), value, value_loc); return;
    default: fail(target.loc, "cannot assign to expression");  // the parser admits no other target
    }
}

// `lst[i] = v`, `d[k] = v`, and `buf[:] = t`, the explicit copy.
void Elaborator::assign_item(const ast::Subscript& target, const Value& value, const SourceLoc& value_loc) {
    Value obj = eval(*target.value);
    if (obj.is(Value::Kind::Tensor)) return copy_into_tensor(target, obj, value, value_loc);
    if (target.index->is<ast::Slice>()) fail(target.index->loc, "slice assignment is only for tensors: buf[:] = t");
    Value index = eval(*target.index);
    if (obj.is(Value::Kind::Dict)) {
        if (!hashable(index)) fail(target.index->loc, "unhashable type: '" + type_name(index) + "'");
        dict_set(obj, index, value);
        return;
    }
    if (!obj.is(Value::Kind::List))
        fail(target.loc, "'" + type_name(obj) + "' object does not support item assignment");
    if (!index.is(Value::Kind::Int) && !index.is(Value::Kind::Bool))
        fail(target.index->loc, "list indices must be integers, not " + type_name(index));
    int64_t n = int64_t(obj.items->size());
    int64_t k = index.is(Value::Kind::Bool) ? int64_t(index.b) : index.i;
    if (k < 0) k += n;
    if (k < 0 || k >= n) fail(target.index->loc, "list assignment index out of range");
    (*obj.items)[size_t(k)] = value;
}

void Elaborator::copy_into_tensor(const ast::Subscript& target, const Value& dst, const Value& value,
                                  const SourceLoc& value_loc) {
    auto whole = [](const ast::Expr& e) {
        if (e.is<ast::EllipsisLit>()) return true;
        if (!e.is<ast::Slice>()) return false;
        const auto& s = e.as<ast::Slice>();
        return !s.lower && !s.upper && !s.step;
    };
    const TensorNode& d = graph_.tensors[size_t(dst.tensor)];
    if (d.role == TensorRole::Buffer) {
        if (!whole(*target.index))
            fail(target.index->loc, "a buffer from pypo.mem.alloc_l1 is written whole: write buf[:] = t");
        if (!value.is(Value::Kind::Tensor)) fail(value_loc, "buf[:] = t: expected a tensor, got " + type_name(value));
        const TensorNode& s = graph_.tensors[size_t(value.tensor)];
        if (s.shape != d.shape || s.dtype != d.dtype)
            fail(value_loc, "cannot copy a " + library_.describe_tensor(value.tensor) + " tensor into buffer '" +
                                d.name + "' of " + library_.describe_tensor(dst.tensor));
        library_.add_move(value.tensor, dst.tensor, target.loc);
        return;
    }
    update_tensor(target, dst, value, value_loc);
}

// `t[...] = v`: an in-place update of a tensor in DDR (dsl/sema/pypo_slices.cpp).
void Elaborator::update_tensor(const ast::Subscript& target, const Value& dst, const Value& value,
                               const SourceLoc& value_loc) {
    const TensorNode& d = graph_.tensors[size_t(dst.tensor)];
    const OpKind made_by = d.producer >= 0 ? graph_.ops[size_t(d.producer)].kind : OpKind::Update;
    if (made_by == OpKind::Slice || made_by == OpKind::Reshape || made_by == OpKind::Flatten ||
        made_by == OpKind::Slide)
        fail(target.value->loc, "'" + d.name + "' is a view: update the tensor it views, t[...] = v");
    if (d.role == TensorRole::Weight) fail(target.value->loc, "'" + d.name + "' is a weight, which is constant");
    if (d.role == TensorRole::Output)
        fail(target.value->loc, "'" + d.name + "' is already a program output: update it before pypo.output");
    if (d.placement != Placement::DDR)
        fail(target.value->loc, std::string("in-place updates write tensors in DDR; '") + d.name + "' is in " +
                                    placement_name(d.placement));
    const SliceSpec spec = tensor_index(target, dst.tensor);
    const std::string where = d.name + slice_text(spec, d.shape);
    if (!value.is(Value::Kind::Tensor)) fail(value_loc, where + " = v: expected a tensor, got " + type_name(value));
    // NumPy's rule without broadcasting: the value's shape, left-padded with 1s, is the slice's.
    std::vector<int64_t> slice = sliced_shape(spec), given = graph_.tensors[size_t(value.tensor)].shape;
    while (given.size() < slice.size()) given.insert(given.begin(), 1);
    while (slice.size() < given.size() && given.front() == 1) given.erase(given.begin());
    if (given != slice)
        fail(value_loc, "cannot write a " + library_.describe_tensor(value.tensor) + " tensor into " + where +
                            ", which is " + shape_text(sliced_shape(spec)));
    library_.add_update(dst.tensor, value.tensor, spec, target.loc);
}

}  // namespace dsl
