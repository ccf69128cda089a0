// Buffer planning for the tensors a program keeps on chip
// (docs/timing-model.md §10, "On-chip tensors"): pypo.mem.alloc_l1 buffers
// and results with target='L1' or 'L0'.
//
// * Each has one L1 address, the same in every cluster (L1 is per
//   cluster; the vector unit and the DMA engines reach on-chip data only
//   through L1, so target='L0' keeps a result in L1 too). Each cluster
//   holds the parts its own blocks wrote there, and every block that reads
//   one runs on a cluster holding what it reads (dsl/lower/cluster_placement.h):
//   a result is partitioned by its producer's blocks, a buffer a matmul
//   reads is copied in bands of rows into several clusters
//   (dsl/lower/row_bands.h), any other buffer in one band per cluster.
// * Lifetime, in program order: from the operation that writes the tensor
//   (a copy into a buffer, the producer) to the end of the program, or to
//   the end of the `with pypo.mem.temp_cache()` scope the writer is in; a
//   result (not a buffer) only to its last reader, through views too. An
//   operation reading it after its scope ended stops compilation; one
//   writing a tensor placed where an earlier one was waits for every block
//   that used it.
// * Placement: first fit by lifetime, 64-byte aligned, in a region at the
//   top of L1; the region, rounded up to whole KiB, is taken from the L1
//   every operation's lowering may use, on every cluster (a tensor takes
//   its whole size in every cluster, whatever part of it that cluster
//   holds, so tile addresses stay those of the whole tensor). A tensor that
//   does not fit L1 with those placed before it (in order of first use)
//   is kept in DDR instead, with a note naming them (PlacementMismatch).
// * Bands: when the tensors do not fit so (a capacity PlacementMismatch),
//   the program is planned again with every result in bands
//   (`bands` > 0): rows [k * band_rows, (k + 1) * band_rows) of a result
//   (band_rows: ceil(rows / bands) rounded up to a multiple of `granule`,
//   which the compiler doubles from 16 while operations' blocks cross
//   bands)
//   live in cluster k's L1 alone, at the same offsets in every cluster, so
//   a result takes one band's bytes instead of its whole size. Row r's
//   bytes are at l1_at(offset) = its address + offset modulo the band's
//   bytes; every block that reads or writes a band runs on its cluster
//   (the lowerings pin them; dsl/lower/cluster_placement.h refuses a block
//   that touches a band unpinned, and a block across two bands).
#pragma once

#include <cstdint>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/lower/ub_strands.h"
#include "sim/arch/config.h"

namespace dsl {

struct OnChipTensor {
    int tensor = -1;
    uint64_t bytes = 0;
    uint64_t offset = 0;            // within the region
    int first_op = 0, last_op = 0;  // lifetime, op indices, inclusive
    // A buffer a matmul reads (its blocks read whole rows or columns of
    // it): copied in `bands` bands of rows, each into clusters / bands
    // clusters' L1 (dsl/lower/row_bands.h; 1 = every cluster copies it
    // whole). Any other buffer is copied in one band per cluster.
    bool replicated = false;
    int64_t bands = 1;
    // A result kept in bands of rows, one per cluster (0: whole).
    int64_t band_rows = 0;
    uint64_t band_bytes = 0;
};

// The vector units' bands of a tensor's rows (docs/timing-model.md §10,
// "Tensors kept in the Unified Buffers"): cluster first_cluster + c holds
// rows [c * cluster_rows, (c + 1) * cluster_rows), and its vector unit u
// the unit_rows of them from c * cluster_rows + u * unit_rows on (fewer at
// the end, none past the rows). Every stream over such a tensor takes its
// rows so, whatever its chunks, so a row is always in the same unit's
// buffer. A tensor of a strand (dsl/lower/ub_strands.h) is spread over its
// strand's share of the clusters alone: `clusters` of them (those its rows
// reach) from first_cluster on.
struct UbBands {
    int64_t cluster_rows = 0, unit_rows = 0;
    int32_t first_cluster = 0;
    int64_t clusters = 0;
};
UbBands ub_bands(int64_t rows, int64_t clusters, int64_t units, int32_t first_cluster = 0);

// A tensor kept in the vector units' Unified Buffers: each unit holds its
// band of rows (UbBands) at the same UB address, row r of the band at
// `row_bytes * r` from it.
struct UbTensor {
    int tensor = -1;
    uint64_t row_bytes = 0;
    UbBands bands;
    uint64_t bytes = 0;             // one unit's band: bands.unit_rows * row_bytes
    uint64_t offset = 0;            // within the UB region
    int first_op = 0, last_op = 0;  // lifetime, in lowering positions, inclusive
    // The tensors that held its bytes last before it on its clusters (graph
    // tensors): its writer waits for the blocks that used them there.
    std::vector<int> previous;
};

struct BufferPlan {
    std::vector<OnChipTensor> tensors;
    std::vector<int> index_of;  // per graph tensor: index into `tensors`, -1 = in DDR
    uint64_t region = 0;        // bytes at the top of L1, a multiple of 1024
    uint64_t l1_bytes = 0;      // the cluster's whole L1
    // Tensors kept in the vector units' Unified Buffers, in a region at the
    // top of every unit's UB (as `region` in L1), planned over `clusters`
    // clusters of `units` vector units.
    std::vector<UbTensor> ub_tensors;
    std::vector<int> ub_index_of;  // per graph tensor: index into `ub_tensors`, -1 = not there
    uint64_t ub_region = 0;        // a multiple of 1024
    uint64_t ub_bytes = 0;         // a unit's whole UB
    int64_t ub_clusters = 0, ub_units = 0;

    // In L1 (not a tensor kept in the Unified Buffers: in_ub).
    bool on_chip(int tensor) const { return index_of[size_t(tensor)] >= 0; }
    bool in_ub(int tensor) const { return !ub_index_of.empty() && ub_index_of[size_t(tensor)] >= 0; }
    const UbTensor& ub_of(int tensor) const { return ub_tensors[size_t(ub_index_of[size_t(tensor)])]; }
    // Its UB byte address, the same in every vector unit.
    uint64_t ub_addr(int tensor) const;
    // Where byte `offset` of the tensor is in the UB of the unit holding it.
    uint64_t ub_at(int tensor, uint64_t offset) const;
    // Read and written where it is (in L1 or the UBs) rather than in DDR.
    bool in_place(int tensor) const { return on_chip(tensor) || in_ub(tensor); }
    // l1_at or ub_at, whichever holds it.
    uint64_t place_at(int tensor, uint64_t offset) const {
        return on_chip(tensor) ? l1_at(tensor, offset) : ub_at(tensor, offset);
    }
    // Its L1 byte address, the same in every cluster.
    uint64_t l1_addr(int tensor) const;
    // Where byte `offset` of the tensor is, in the L1 of the cluster that
    // holds it (in bands: the offset within its band).
    uint64_t l1_at(int tensor, uint64_t offset) const;
    // Kept in bands of rows: its band_rows, else 0.
    int64_t band_rows(int tensor) const { return on_chip(tensor) ? of(tensor).band_rows : 0; }
    const OnChipTensor& of(int tensor) const { return tensors[size_t(index_of[size_t(tensor)])]; }
};

// Throws CompileError for a tensor used after its temp_cache scope or an
// on-chip program output, and PlacementMismatch for the first tensor that
// does not fit L1 with the tensors on chip at the same time.
// `in_ddr` (per graph tensor, may be empty): tensors the placement could
// not keep on chip (dsl/lower/cluster_placement.h), planned in DDR.
// The tensor's rows as rows of its last axis (the product of the others):
// what bands of rows divide.
int64_t tensor_rows(const TensorNode& t);
// The tensor's bytes, whole.
uint64_t tensor_bytes(const TensorNode& t);

// `bands` > 0: results in at most that many bands of rows (the clusters in
// use), each a multiple of `granule` rows (ceil(rows / bands) rounded up).
BufferPlan plan_buffers(const TaskGraph& g, const arch::Config& c, const std::vector<bool>& in_ddr = {},
                        int64_t bands = 0, int64_t granule = 1);

// The tensors `in_ub` (per graph tensor) kept in the vector units' Unified
// Buffers, over `strands.clusters` clusters, each strand's over its share
// of them (dsl/lower/ub_strands.h). Each unit's band (UbBands) is placed
// in a region at the top of the UB, which must leave at least 1 KiB of it
// to the streams: the region is what first fit by lifetime (64-byte
// aligned) needs, rounded up to whole KiB, and in it each tensor takes,
// of the offsets clear of the tensors live beside it, the one whose
// previous holders on its clusters were last used earliest (the lowest on
// a tie; never used: earliest of all), so that the results of consecutive
// steps alternate where the region has room and one step's writer does
// not wait for the last step's readers, as a kernel's ping-pong buffers.
// The lifetimes are counted in steps of the lowering (per operation, from
// `first_at` to `last_at`: a deferred chain is lowered where its last
// member is, a fused member with its head or on its own). Throws
// PlacementMismatch (not a capacity one) for the first tensor that does
// not fit.
void plan_ub_tensors(BufferPlan& plan, const TaskGraph& g, const arch::Config& c, const std::vector<bool>& in_ub,
                     const UbStrands& strands, const std::vector<int>& first_at, const std::vector<int>& last_at);

}  // namespace dsl
