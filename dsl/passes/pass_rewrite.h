// Shared by the graph-to-graph lowering passes (dsl/passes/pass_precision.h,
// dsl/passes/pass_layout.h): rebuilds a TaskGraph op by op, so a pass can insert
// operations (a cast, a format conversion) before or after an original one
// while tensor producers, task op lists, log positions and temp_cache
// ranges follow the new numbering.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dsl/ir/task_graph.h"

namespace dsl {

class GraphRewriter {
public:
    explicit GraphRewriter(const TaskGraph& g);

    // The graph being built: all tensors of the original (indices kept),
    // the ops emitted so far.
    TaskGraph& graph() { return out_; }
    TensorNode& tensor(int t) { return out_.tensors[size_t(t)]; }

    // Brackets the ops emitted for original op `old` (itself plus the ops
    // inserted around it), in original order.
    void begin(int old);
    void end(int old);

    // Appends an op (its output's producer and its task's op list follow).
    int emit(OpNode op);
    // Appends a tensor, returns its index.
    int add_tensor(TensorNode t);
    // "<base>_<k>" for the smallest k >= 1 no tensor is named yet.
    std::string fresh_name(const std::string& base);

    // The finished graph (check_dag'd).
    TaskGraph finish();

    // The usual pass: `rewrite` emits what replaces each original op, in
    // order, bracketed by begin/end; then finish().
    TaskGraph rewrite_each(const std::function<void(const OpNode&)>& rewrite);

private:
    const TaskGraph& in_;
    TaskGraph out_;
    std::set<std::string> names_;
    std::vector<int> first_, last_;  // per original op: first and one-past-last new index
};

// A cast op from tensor `in` to tensor `out` of dtype `d`, in the task, at
// the location and under the precision scope of op `at`.
OpNode cast_op(int in, int out, arch::DType d, const OpNode& at);

// The casts a pass inserts before the ops that read a tensor in another
// dtype, one per (tensor, dtype) and shared by its later readers: an
// intermediate in DDR, named cast_<k>. A promotion cast (pass_promote.h) is
// marked as one and keeps its dtype through later passes.
class SharedCasts {
public:
    SharedCasts(GraphRewriter& rw, bool promotions) : rw_(rw), promotions_(promotions) {}

    // `t` in dtype `d`: itself, or the output of a cast emitted before `consumer`.
    int of(int t, arch::DType d, const OpNode& consumer);

private:
    GraphRewriter& rw_;
    bool promotions_;
    std::map<std::pair<int, arch::DType>, int> casts_;
};

}  // namespace dsl
