#include "dsl/passes/pass_moves.h"

#include "dsl/passes/pass_rewrite.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

class MovesPass {
public:
    explicit MovesPass(const TaskGraph& g) : g_(g), rw_(g), written_at_(g.tensors.size()) {}

    TaskGraph run() {
        size_t next = 0;
        for (size_t i = 0; i < g_.ops.size(); ++i) {
            // Before begin(i): a copy ahead of a temp_cache scope's first op
            // is not in the scope.
            for (; next < g_.moves.size() && g_.moves[next].after_op < int(i); ++next) emit_move(g_.moves[next]);
            rw_.begin(int(i));
            const OpNode& op = g_.ops[i];
            for (int in : op.inputs)
                if (g_.tensors[size_t(in)].role == TensorRole::Buffer && rw_.tensor(in).producer < 0)
                    throw CompileError(op.loc,
                                       "buffer '" + g_.tensors[size_t(in)].name +
                                           "' is read before anything is copied into it (write buf[:] = t first)");
            rw_.emit(op);
            rw_.end(int(i));
        }
        for (; next < g_.moves.size(); ++next) emit_move(g_.moves[next]);
        TaskGraph out = rw_.finish();
        out.moves.clear();
        for (TaskNode& t : out.tasks) t.moves.clear();
        return out;
    }

private:
    void emit_move(const MoveNode& m) {
        if (rw_.tensor(m.dst).producer >= 0) {
            const SourceLoc& first = written_at_[size_t(m.dst)];
            throw CompileError(m.loc, "buffer '" + g_.tensors[size_t(m.dst)].name + "' is already written at " +
                                          std::to_string(first.line) + ":" + std::to_string(first.col) +
                                          ": a buffer is written once (use another pypo.mem.alloc_l1)");
        }
        written_at_[size_t(m.dst)] = m.loc;
        OpNode op;
        op.kind = OpKind::Move;
        op.inputs = {m.src};
        op.output = m.dst;
        op.task = m.task;
        op.loc = m.loc;
        rw_.emit(std::move(op));
    }

    const TaskGraph& g_;
    GraphRewriter rw_;
    std::vector<SourceLoc> written_at_;
};

}  // namespace

TaskGraph apply_moves(const TaskGraph& g) { return MovesPass(g).run(); }

}  // namespace dsl
