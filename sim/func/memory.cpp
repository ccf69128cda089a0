#include "sim/func/memory.h"

#include <algorithm>

namespace func {

Memory::Memory(const arch::Config& c, uint64_t ddr_bytes)
    : ddr_(ddr_bytes, 0),
      l1_(size_t(std::max<int64_t>(c.clusters, 1)), std::vector<uint8_t>(size_t(c.l1_bytes()), 0)),
      l0_(size_t(c.cubes_per_cluster), std::vector<uint8_t>(size_t(c.l0_bytes()), 0)),
      // NaN bytes (as poison_scratch): a block reading kept UB bytes no block
      // wrote computes NaN, not zeros.
      ub_(c.vector_buffer() ? size_t(std::max<int64_t>(c.clusters, 1) * c.vector_units) : 0,
          std::vector<uint8_t>(size_t(c.ub_bytes()), 0xff)),
      units_(c.vector_buffer() ? size_t(c.vector_units) : 0) {}

namespace {

// Unit `unit` of a cluster's `count` (its memories from `first` on).
std::vector<uint8_t>& unit_memory(std::vector<std::vector<uint8_t>>& units, size_t first, size_t count,
                                  const char* kind, int unit, const char* what) {
    if (unit < 0 || size_t(unit) >= count)
        throw FunctionalError(std::string(what) + " names " + kind + " " + std::to_string(unit) + ", the cluster has " +
                              std::to_string(count));
    return units[first + size_t(unit)];
}

}  // namespace

uint8_t* Memory::span(arch::Space space, int unit, uint64_t addr, uint64_t bytes, const char* what) {
    std::vector<uint8_t>* m = nullptr;
    switch (space) {
    case arch::Space::DDR: m = &ddr_; break;
    case arch::Space::L1: m = &l1_[cluster_]; break;
    case arch::Space::L0: m = &unit_memory(l0_, 0, l0_.size(), "cube", unit, what); break;
    case arch::Space::UB:
        m = &unit_memory(ub_, cluster_ * units_, units_, "the Unified Buffer of vector unit", unit, what);
        break;
    }
    if (addr > m->size() || bytes > m->size() - addr)
        throw FunctionalError(std::string(what) + " " + arch::space_name(space) + " [" + std::to_string(addr) + ", " +
                              std::to_string(addr + bytes) + ") outside its " + std::to_string(m->size()) + " bytes" +
                              (space == arch::Space::DDR ? " (the program's tensors)" : ""));
    return m->data() + addr;
}

void Memory::use_cluster(size_t cluster) {
    if (cluster >= l1_.size())
        throw FunctionalError("a block on cluster " + std::to_string(cluster) + ", the chip has " +
                              std::to_string(l1_.size()));
    cluster_ = cluster;
}

void Memory::poison_scratch(uint64_t keep_from, uint64_t ub_keep_from) {
    std::vector<uint8_t>& l1 = l1_[cluster_];
    std::fill(l1.begin(), l1.begin() + std::ptrdiff_t(std::min<uint64_t>(keep_from, l1.size())), uint8_t(0xff));
    for (auto& l0 : l0_) std::fill(l0.begin(), l0.end(), uint8_t(0xff));
    for (size_t u = 0; u < units_; ++u) {
        std::vector<uint8_t>& ub = ub_[cluster_ * units_ + u];
        std::fill(ub.begin(), ub.begin() + std::ptrdiff_t(std::min<uint64_t>(ub_keep_from, ub.size())), uint8_t(0xff));
    }
}

}  // namespace func
