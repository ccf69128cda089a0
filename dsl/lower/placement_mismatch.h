// An on-chip tensor the compiler keeps in DDR instead: a consumer cannot
// follow its placement (dsl/lower/cluster_placement.h), or it does not fit
// L1 with the tensors on chip at the same time (dsl/lower/buffer_plan.h).
// dsl::lower catches it, moves the tensor to DDR, lowers the program again
// and says why in a note of the report (docs/timing-model.md §10,
// "On-chip tensors").
#pragma once

#include <string>

namespace dsl {

struct PlacementMismatch {
    int tensor = -1;
    std::string why;
    // For want of L1 (the tensors together, or an operation's own staging
    // beside them), not for a consumer that cannot follow: planning the
    // results in bands (dsl/lower/buffer_plan.h) may help.
    bool capacity = false;
    // A block or a part that crosses two of the tensor's bands of rows:
    // larger bands may help.
    bool band_crossed = false;
};

}  // namespace dsl
