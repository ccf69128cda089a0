// Independent strands of work over the tensors kept in the vector units'
// Unified Buffers (docs/timing-model.md §10, "Strands").
//
// A strand is what the operations reading or writing kept tensors use
// together: every operation (with its fusion group) that touches a kept
// tensor joins all the tensors it reads and writes (not the program's
// inputs and weights, nor views of them) into one strand, transitively. A
// flash-attention query block's running maximum, sum and output, its
// scores and probabilities, are one strand; the next query block's are
// another.
//
// When a program has several strands and none reads what another computed
// (the query blocks of attention; the heads of a layer unless something
// kept in the UBs feeds them all), they share the clusters: each takes
// `share` = clusters / strands of them (at least one), strand s from
// cluster `s * share` on (modulo the clusters), as a vendor kernel gives
// each core its own query block. Its kept tensors are spread in bands over
// its share alone, and the other operations touching its tensors (the
// matmuls that make its scores and read its probabilities) run there too,
// their blocks in turn over its clusters. With one strand, or strands that
// depend on one another, every strand has all the clusters (share =
// clusters, first cluster 0).
#pragma once

#include <cstdint>
#include <vector>

#include "dsl/ir/task_graph.h"

namespace dsl {

struct UbStrands {
    std::vector<int> of;  // per graph tensor: its strand, -1 = none
    int count = 0;
    int64_t clusters = 0;  // in use
    int64_t share = 0;     // clusters per strand
    // The first of strand s's clusters.
    int32_t first_cluster(int s) const { return int32_t((int64_t(s) * share) % clusters); }
};

// The strands of `g` with the tensors `in_ub` kept in the Unified Buffers
// (per graph tensor), over `clusters` clusters; strands are numbered in
// the order the program first uses them.
UbStrands find_ub_strands(const TaskGraph& g, const std::vector<bool>& in_ub, int64_t clusters);

}  // namespace dsl
