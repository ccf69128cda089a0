// The bytes the functional model computes on: DDR (as far as the program's
// tensors reach), the L1 of every cluster, the L0 of each cube of one and
// the Unified Buffer of each vector unit of every cluster (if they have
// one).
//
// One set of L0s is enough because the functional model runs the blocks one
// after another (sim/func/executor.h): blocks exchange data only through
// DDR and through the on-chip tensors, which each cluster holds its parts
// of in its own L1 (dsl/lower/cluster_placement.h), and each vector unit
// its band of rows of a tensor kept in the Unified Buffers in its own UB
// (docs/timing-model.md §10), so every cluster's L1 and every unit's UB
// is kept.
// Every access is bounds-checked: a command outside its memory is a
// FunctionalError naming the command, never a crash.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace func {

class FunctionalError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A FunctionalError the program's data causes, not davinci-sim: a gather's
// id outside its table (an embedding's token id). The compiler cannot see
// it, so the run reports it as the user's error (exit status 2).
class DataError : public FunctionalError {
public:
    using FunctionalError::FunctionalError;
};

class Memory {
public:
    // DDR holds `ddr_bytes` (the end of the last placed tensor).
    Memory(const arch::Config& c, uint64_t ddr_bytes);

    // `bytes` bytes at `addr` of `space` (L0: of cube `unit`; UB: of vector
    // unit `unit`); throws FunctionalError "<what> L1 [a, b) outside its
    // 262144 bytes".
    uint8_t* span(arch::Space space, int unit, uint64_t addr, uint64_t bytes, const char* what);
    // Where the vector units compute: their Unified Buffers, or L1.
    arch::Space vector_space() const { return ub_.empty() ? arch::Space::L1 : arch::Space::UB; }

    std::vector<uint8_t>& ddr() { return ddr_; }
    // The L1 of the cluster the current block runs on (use_cluster).
    std::vector<uint8_t>& l1() { return l1_[cluster_]; }
    void use_cluster(size_t cluster);
    // Fills the current L1 below `keep_from`, the current cluster's UBs
    // below `ub_keep_from` and every L0 with 0xff bytes (NaN as float16
    // and float32): a block that reads what it never wrote computes NaN
    // instead of a previous block's leftovers.
    void poison_scratch(uint64_t keep_from, uint64_t ub_keep_from);

private:
    std::vector<uint8_t> ddr_;
    std::vector<std::vector<uint8_t>> l1_;  // per cluster
    size_t cluster_ = 0;
    std::vector<std::vector<uint8_t>> l0_;
    std::vector<std::vector<uint8_t>> ub_;  // per cluster and vector unit; none without vector.buffer_kib
    size_t units_ = 0;                      // vector units a cluster
};

}  // namespace func
