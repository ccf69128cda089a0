// Views: operations whose output is a new name for (part of) their input's
// bytes and that emit no commands.
//
// * reshape and flatten: row-major data does not move; the output aliases
//   the input's DDR address (dsl/lower/program/lower.cpp places it there, with the role
//   "<role>, view of <input>").
// * slide(img, window, stride): the (..., OH, OW, kh, kw) patch tensor is
//   never materialised; its consumer reads the image through im2col
//   addressing. The view is placed at the image's address too, so a
//   consumer that ignores slide_view() still reads the right bytes.
//
// Aliasing is safe because every tensor is written once, by its producer,
// before any reader (the graph is SSA and lowering orders blocks by their
// producers): a view of an input, or an output that is a view, names bytes
// nobody overwrites.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dsl/ir/task_graph.h"

namespace dsl {

// The tensor whose bytes `tensor` names, following chains of views to the
// stored tensor; -1 if `tensor` is not a view.
int view_source(const TaskGraph& g, int tensor);

// A slide view: the image it windows (the stored tensor, through any
// reshape) and the window and stride. Consumers that can read patches by
// im2col addressing (arch::Im2col with a 1-channel slab per image plane)
// use this instead of treating the view as a stored tensor.
struct SlideView {
    int image = -1;
    std::vector<int64_t> window, stride;  // (kh, kw), (sh, sw)
};
std::optional<SlideView> slide_view(const TaskGraph& g, int tensor);

// A slide view's patches are never stored, and only a reduction over its
// window axes reads them (dsl/lower/vector/lower_vector_window.cpp checks the axes).
// Everything else would read the image's bytes as if they were the patches
// (a reshape or flatten of the view, relu, concat, matmul..., the view as a
// program output): this refuses them, "... is not lowered yet".
void check_slide_views(const TaskGraph& g);

}  // namespace dsl
