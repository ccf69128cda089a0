// The streamed vector op: the pipeline every vector-unit operation is
// lowered onto (docs/timing-model.md §10, "Vector operation lowering").
//
// An operation describes its work as `units` (rows of its output, pooled
// planes, transpose tiles, ...) and the L1 buffers one chunk of units needs.
// The pipeline picks the largest chunk that fits L1, splits the units evenly
// into one block per cluster, and in every block streams the chunks:
// dma0 loads a chunk's inputs DDR -> L1, vector0 runs the chunk's VECTOR
// commands (with several vector units, the chunks take turns on them:
// docs/timing-model.md §10), and the last DMA engine stores the results
// L1 -> DDR; inputs
// and results are double-buffered (or single/triple under
// pypo.config.BUFFERS), so transfers overlap compute.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "dsl/lower/lower_context.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace dsl {

enum class BufferKind {
    Resident,  // loaded (or computed) once per block, before the first chunk
    Streamed,  // a chunk's input or output: B slots (the depth, 2 by default), chunk i uses slot i % B
    Scratch,   // vector temporaries of one chunk: a slot per vector unit the stream runs on (each runs in order)
    // A result of a stream whose chunks do not all store (VectorStream::
    // stores): B slots, the k-th storing chunk uses slot k % B. The same as
    // Streamed when every chunk stores.
    Result,
};

// A region of L1 whose size for a chunk of n units is at most
// per_unit * n + fixed bytes.
struct BufferSpec {
    BufferKind kind = BufferKind::Streamed;
    int64_t per_unit = 0;
    int64_t fixed = 0;
};

// `op`: the graph operation the command implements, for its tag (-1: the
// one being lowered; a fused chain charges each member's commands to it).
struct DmaStep {
    arch::DmaArgs dma;
    std::string label;
    int32_t op = -1;
};
struct VectorStep {
    arch::VectorArgs vec;
    std::string label;
    int32_t op = -1;
};

// What one chunk (or a block's prologue) becomes.
struct ChunkCommands {
    std::vector<DmaStep> loads;       // DDR -> L1, in order on dma0
    std::vector<VectorStep> compute;  // on vector0, in order
    std::vector<DmaStep> stores;      // L1 -> DDR, on the store engine
};

// buffer index -> its L1 address for the chunk at hand (the slot of a
// Streamed buffer already chosen).
using BufferAddrs = std::vector<uint64_t>;

struct VectorStream {
    std::string name;  // the output tensor: block names are "<name>[first:end]" in units
    int64_t units = 0;
    int64_t max_chunk_units = std::numeric_limits<int64_t>::max();
    std::vector<BufferSpec> buffers;
    // Blocks start at multiples of `group` units (units is a multiple of
    // it): a multi-pass row op's passes over one row stay in one block,
    // whose Scratch buffers carry the row's statistics from pass to pass.
    int64_t group = 1;
    // Whether the chunk starting at unit `first` stores (null: every chunk
    // does). Only storing chunks take a Result slot and its flags.
    std::function<bool(int64_t first)> stores;
    // Once per block, before its first chunk: loads of Resident buffers and
    // vector work on them (a cast). Optional. Gets the block's unit range.
    std::function<ChunkCommands(int64_t first, int64_t count, const BufferAddrs&)> prologue;
    // The commands of the chunk of units [first, first + count).
    std::function<ChunkCommands(int64_t first, int64_t count, const BufferAddrs&)> chunk;
};

// Where a chunk's buffers are: its bytes, and as messages name it: "L1",
// or "a vector unit's Unified Buffer" (vector.buffer_kib).
int64_t vector_capacity(const arch::Config& c);
const char* vector_memory_name(const arch::Config& c);

// The buffering depth of the streams: pypo.config.BUFFERS, else 2.
int64_t stream_depth(const LowerContext& ctx);

// L1 bytes the buffers take for chunks of n units (with alignment and the
// `depth` slots of Streamed buffers).
int64_t l1_bytes_needed(const std::vector<BufferSpec>& buffers, int64_t n, int64_t depth = 2);

// The most units a chunk may hold on this hardware, 0 if not even one fits.
int64_t max_chunk_units(const arch::Config& c, const std::vector<BufferSpec>& buffers, int64_t depth = 2);
// The same at the program's depth (stream_depth).
int64_t max_chunk_units(const LowerContext& ctx, const std::vector<BufferSpec>& buffers);

// Blocks that run at once (timing-model §4): MAX_PARALLEL, else chip.clusters;
// one for a stream pinned to the cluster that holds its part (LowerContext::pin).
int64_t parallel_clusters(const LowerContext& ctx);

// For streams whose chunk is one unit (tiles, bands, column blocks): the
// unit size, at most `fit`, that still gives every cluster at least
// kChunksPerCluster units to pipeline, out of `extent` (rows, columns).
constexpr int64_t kChunksPerCluster = 2;
int64_t unit_extent(const LowerContext& ctx, int64_t extent, int64_t groups, int64_t fit);

// A stream of bands of rows: `planes` planes of `rows` rows each, a unit
// one band of as many rows as fit `per_row` (bytes per row of the band,
// plus each buffer's fixed bytes per band), at least one row (if that does
// not fit, the stream reports the capacity), spread by unit_extent so every
// cluster has bands. Sets s's name, units, chunk size (one unit) and
// buffers; returns the rows per band (the last band may have fewer).
int64_t band_stream(const LowerContext& ctx, VectorStream& s, const std::string& name, int64_t rows, int64_t planes,
                    const std::vector<BufferSpec>& per_row);

// Appends the blocks of `s` for the graph operation `op`. Throws
// CompileError at the call when one unit does not fit L1.
void lower_vector_stream(LowerContext& ctx, const OpNode& op, const VectorStream& s);

// Building blocks for the per-op code.
arch::DmaArgs load_dma(uint64_t ddr, uint64_t l1, uint64_t bytes);  // one contiguous run
arch::DmaArgs store_dma(uint64_t l1, uint64_t ddr, uint64_t bytes);
// Not for a cast, which names both dtypes: cast_args.
arch::VectorArgs vector_args(arch::VectorOp op, arch::DType t, int64_t rows, int64_t cols, uint64_t src0, uint64_t src1,
                             uint64_t dst);
// A cast from `from` to `to` (a copy when they agree).
arch::VectorArgs cast_args(arch::DType from, arch::DType to, int64_t rows, int64_t cols, uint64_t src, uint64_t dst);

}  // namespace dsl
