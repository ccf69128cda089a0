// The DDR bytes a block reads and writes, so that a block waits only for
// the earlier blocks that wrote what it reads or overwrites
// (docs/timing-model.md §10, "Block dependencies").
//
// Why spans per command and not exact rows: a dependency found where none
// is needed only delays a block, a missing one would be a race, so a
// superset is safe; a command's span (its first byte to its last) is exact
// for the row bands and whole tensors most commands move, and keeps a
// block's footprint a few spans however many rows it copies.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/arch/program.h"

namespace dsl {

struct ByteSpan {
    uint64_t begin = 0, end = 0;  // [begin, end)
};

// Sorted by begin, disjoint and not touching.
using SpanList = std::vector<ByteSpan>;

struct DdrFootprint {
    SpanList reads, writes;
};

// What the DMA commands of `b` whose source (destination) is DDR read
// (write): each command's span from its first byte to its last; a gather
// reads its whole table (its ids are data the compiler does not see).
DdrFootprint ddr_footprint(const arch::Block& b);

// Sorts `spans` and joins those that overlap or touch (empty ones
// dropped): a SpanList.
void merge(SpanList& spans);

// `a` and `b` share a byte.
bool overlap(const SpanList& a, const SpanList& b);

}  // namespace dsl
