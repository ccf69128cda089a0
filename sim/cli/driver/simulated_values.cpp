#include "sim/cli/driver/simulated_values.h"

#include <algorithm>

#include "sim/cli/driver/functional_run.h"

namespace cli {

namespace {

// The role of a buffer's tensor after an in-place update of it
// (dsl/lower/program/lower.cpp), followed by the buffer's name.
const char* const kUpdatedInPlace = "updated in place: ";

}  // namespace

SimulatedValues::SimulatedValues(const dsl::TaskGraph& moved, const std::map<int, func::HostTensor>& inputs,
                                 const dsl::TaskGraph& lowered, const arch::Program& program, func::Executor& run)
    : g_(moved),
      inputs_(inputs),
      lowered_(lowered),
      program_(program),
      run_(run),
      writes_(program),
      sim_(moved.tensors.size()),
      looked_(moved.tensors.size(), false),
      lowered_index_(moved.tensors.size(), -1) {
    // A buffer updated in place holds its last update's values at the
    // end: the buffer and every earlier update of it were rewritten
    // after they were computed (an update names the buffer it writes,
    // or the update before it).
    std::map<std::string, std::string> root, last;  // update -> buffer; buffer -> its last update
    for (const arch::TensorPlacement& p : program_.tensors)
        if (const size_t at = p.role.find(kUpdatedInPlace); at != std::string::npos) {
            const std::string source = p.role.substr(at + std::string(kUpdatedInPlace).size());
            const std::string buffer = root.count(source) ? root[source] : source;
            root[p.name] = buffer;
            rewritten_.insert(buffer);
            if (last.count(buffer)) rewritten_.insert(last[buffer]);
            last[buffer] = p.name;
        }
    for (size_t t = 0; t < g_.tensors.size(); ++t)
        for (size_t j = 0; j < lowered_.tensors.size(); ++j)
            if (lowered_.tensors[j].name == g_.tensors[t].name && lowered_.tensors[j].shape == g_.tensors[t].shape) {
                lowered_index_[t] = int(j);
                break;
            }
}

const std::optional<dsl::RefValues>& SimulatedValues::simulated(int t) {
    if (looked_[size_t(t)]) return sim_[size_t(t)];
    looked_[size_t(t)] = true;
    if (auto in = inputs_.find(t); in != inputs_.end()) {
        sim_[size_t(t)] = dsl::RefValues(in->second.values.begin(), in->second.values.end());
        return sim_[size_t(t)];
    }
    const int j = lowered_index_[size_t(t)];
    if (j < 0 || size_t(j) >= program_.tensors.size()) return sim_[size_t(t)];
    const arch::TensorPlacement& p = program_.tensors[size_t(j)];
    const int producer = lowered_.tensors[size_t(j)].producer;
    // Only a result a command wrote to DDR and nothing rewrote (above).
    if (p.name != g_.tensors[size_t(t)].name || producer < 0 || !readable(p) || p.l1_addr >= 0 || p.ub_addr >= 0 ||
        !stored(lowered_, program_, producer) || !writes_.touches(p.ddr_addr, p.bytes) || rewritten_.count(p.name) ||
        p.role.find("view of") != std::string::npos || p.role.find("kept in DDR") != std::string::npos)
        return sim_[size_t(t)];
    if (const size_t at = p.role.find(kUpdatedInPlace); at != std::string::npos) {
        const std::string source = p.role.substr(at + std::string(kUpdatedInPlace).size());
        const auto whole = std::find_if(program_.tensors.begin(), program_.tensors.end(),
                                        [&](const arch::TensorPlacement& q) { return q.name == source; });
        if (whole == program_.tensors.end() || whole->ddr_addr != p.ddr_addr || whole->bytes != p.bytes)
            return sim_[size_t(t)];
    }
    const std::optional<func::HostTensor> h = read_tensor(run_, program_, size_t(j));
    if (h) sim_[size_t(t)] = dsl::RefValues(h->values.begin(), h->values.end());
    return sim_[size_t(t)];
}

}  // namespace cli
