// How a VECTOR command reads one of its sources (part of the command ISA,
// sim/arch/program.h). Kept apart because it is the one piece of the ISA
// only the functional model reads: it never changes a command's timing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace arch {

// How a VECTOR command reads one of its sources. The timing (§8) depends
// only on the element count and dtype; these descriptors say which
// elements the command combines, for the functional model
// (docs/functional.md §2). Every form reads rows x cols elements in the
// command's row-major order; element (r, c) is number i = r * cols + c.
struct VectorSource {
    enum class Kind : uint8_t {
        Contiguous,  // element i at src + i (the default)
        Scalar,      // every element is `scalar` (an immediate of the program: a number operand, 1/n, eps)
        Strided,     // broadcasts, replications and rearrangements: see below
        Window,      // window position (ki, kj) of a pooling window over image rows, with padding
    };
    // Window: element (r, c) is output pixel (oy = r % out_h, ox = c /
    // depth) of plane p = r / out_h, channel c % depth; it reads input row
    // iy = oy * stride_h - pad_h + ki, column ix = ox * stride_w - pad_w + kj
    // of the plane's `height` rows of width x depth elements, planes one
    // after another from src + origin elements; outside the rows and
    // columns it reads `fill` (the padding).
    struct Window {
#define ISA_WINDOW(type, member, key, def, write, check, unit, doc) type member = def;
#include "sim/arch/isa_fields.def"
    };
    // Strided: i + first is decomposed row-major over `dims`; element i
    // reads src + sum_k idx_k * strides[k] elements (a stride of 0
    // broadcasts that axis). Each form reads only its own fields.
#define ISA_SOURCE(type, member, key, def, write, check, unit, doc) type member = def;
#include "sim/arch/isa_fields.def"
    bool operator==(const VectorSource& o) const;
    bool operator!=(const VectorSource& o) const { return !(*this == o); }
};
// The default descriptor, for commands whose source pointer is null.
const VectorSource& contiguous_source();
// How many elements from its address a command of `elements` elements may
// read through `s`: all of them for contiguous, scalar and window sources
// (a window's padding is not subtracted); for a strided one with strides
// of 0 and up, one past the largest offset any element number in
// [first, first + elements) can reach (a row statistic broadcast over n
// rows of a kept tensor reads n elements, not n x cols).
uint64_t source_elements_reached(const VectorSource& s, uint64_t elements);
// "" for Contiguous, else " bcast 4x16 strides 0,1 from 32", " #0.25", " window ...".
std::string format_vector_source(const VectorSource& s);

}  // namespace arch
