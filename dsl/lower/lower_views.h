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
// * slice (t[a:b, i, ...], dsl/ir/strided_view.h): an offset and strides
//   into its source's bytes. A slice that is one run of them (rows of a
//   row-major tensor, t[i] of the first axis) is read by every operation as
//   a tensor of its own; any other is read only by matmul, whose panel and
//   tile DMAs take its row stride (check_slice_views refuses the rest).
// * update (t[a:b, ...] = v): not a view but the tensor's next version in
//   the same bytes: its commands write v into the slice
//   (dsl/lower/movement/lower_update.cpp).
//
// Aliasing is safe because every tensor version is written once, by its
// producer, before any reader (the graph is SSA and lowering orders blocks
// by the blocks that wrote what they read), and an update waits for every
// earlier block that read a byte it overwrites (found by the bytes,
// dsl/lower/lower_context.cpp):
// a view of an input, or an output that is a view, names bytes that change
// only where the program says.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dsl/ir/strided_view.h"
#include "dsl/ir/task_graph.h"

namespace dsl {

// The tensor whose bytes `tensor` names, following chains of views to the
// stored tensor; -1 if `tensor` is not a view.
int view_source(const TaskGraph& g, int tensor);

// Where `tensor`'s elements are: the tensor that owns its bytes (itself
// unless it is a view or an update) and the elements' offset and strides
// in it. `strided_reshape`: a reshape or flatten of a slice that is not one
// run, whose elements no offset and strides describe (refused).
struct DdrView {
    int storage = -1;
    StridedLayout layout;
    bool strided_reshape = false;
    bool one_run() const { return !strided_reshape && layout.contiguous(); }
};
DdrView ddr_view(const TaskGraph& g, int tensor);

// Refuses readers of a slice that is not one run of bytes other than
// matmul, such a slice as a program output, and an update's value that is
// one.
void check_slice_views(const TaskGraph& g);

// The operations before update `op` (in program order) that read the
// version it overwrites, directly or through views: the report lists them
// among the operations the update comes after (arch::ProgramOp::inputs).
// (Its blocks wait for every earlier block that read a byte they write,
// found by the bytes: dsl/lower/lower_context.cpp.)
std::vector<int> update_readers(const TaskGraph& g, int op);

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
