#include "sim/func/executor.h"

#include <algorithm>
#include <string>
#include <vector>

#include "sim/func/effects.h"

namespace func {

uint64_t ddr_extent(const arch::Program& p) {
    uint64_t end = 0;
    for (const arch::TensorPlacement& t : p.tensors)
        if (t.l1_addr < 0 && t.ub_addr < 0 && !t.name.empty()) end = std::max(end, t.ddr_addr + t.bytes);
    return end;
}

Executor::Executor(const arch::Config& c, const arch::Program& p)
    : program_(p), memory_(c, ddr_extent(p)), on_chip_from_(uint64_t(c.l1_bytes())), ub_from_(uint64_t(c.ub_bytes())) {
    for (const arch::TensorPlacement& t : p.tensors) {
        if (t.l1_addr >= 0) on_chip_from_ = std::min(on_chip_from_, uint64_t(t.l1_addr));
        if (t.ub_addr >= 0) ub_from_ = std::min(ub_from_, uint64_t(t.ub_addr));
    }
}

void Executor::run(Interleaving order) {
    // The tensors each block completes, of those sharing their bytes.
    std::vector<std::vector<size_t>> completes(program_.blocks.size());
    const std::vector<int64_t>& after = program_.complete_after_block;
    for (size_t t = 0; t < after.size(); ++t)
        if (after[t] >= 0 && uint64_t(after[t]) < completes.size()) completes[size_t(after[t])].push_back(t);
    kept_.assign(after.size(), {});
    for (uint32_t b = 0; b < program_.blocks.size(); ++b) {
        run_block(b, order);
        for (size_t t : completes[b]) {
            const arch::TensorPlacement& p = program_.tensors[t];
            const uint8_t* bytes = memory_.span(arch::Space::DDR, -1, p.ddr_addr, p.bytes, "tensor");
            kept_[t].assign(bytes, bytes + p.bytes);
        }
    }
}

const uint8_t* Executor::tensor_bytes(const arch::Program& p, size_t t) {
    const arch::TensorPlacement& at = p.tensors[t];
    if (t < p.complete_after_block.size() && p.complete_after_block[t] != -1)
        return t < kept_.size() && !kept_[t].empty() ? kept_[t].data() : nullptr;
    return at.l1_addr >= 0 ? memory_.span(arch::Space::L1, -1, uint64_t(at.l1_addr), at.bytes, "tensor")
                           : memory_.span(arch::Space::DDR, -1, at.ddr_addr, at.bytes, "tensor");
}

void Executor::run_block(uint32_t index, Interleaving order) {
    const arch::Block& block = program_.blocks[index];
    // A block pinned to a cluster uses that cluster's L1 (where its on-chip
    // tensors' parts are); any other touches only scratch, below them.
    memory_.use_cluster(block.cluster == arch::Block::kAnyCluster ? 0 : size_t(block.cluster));
    memory_.poison_scratch(on_chip_from_, ub_from_);
    std::vector<size_t> next(block.streams.size(), 0);
    std::vector<uint32_t> tokens(block.num_flags, 0);
    auto ready = [&](const arch::Command& c) {
        for (arch::FlagId f : c.waits)
            if (f >= tokens.size() || tokens[f] < uint32_t(std::count(c.waits.begin(), c.waits.end(), f))) return false;
        return true;
    };
    for (bool progress = true; progress;) {
        progress = false;
        const bool round_robin = order == Interleaving::RoundRobin;
        for (size_t k = 0; k < block.streams.size(); ++k) {
            const size_t s = round_robin ? block.streams.size() - 1 - k : k;
            const arch::Stream& stream = block.streams[s];
            for (size_t ran = 0;
                 next[s] < stream.commands.size() && ready(stream.commands[next[s]]) && !(round_robin && ran == 1);
                 ++ran) {
                const arch::Command& c = stream.commands[next[s]];
                for (arch::FlagId f : c.waits) --tokens[f];
                try {
                    switch (c.op) {
                    case arch::Opcode::Dma:
                        apply_dma(memory_,
                                  stream.engine.kind == arch::EngineKind::ClusterDma ? -1 : stream.engine.index, c.dma);
                        break;
                    case arch::Opcode::Matmul: apply_matmul(memory_, stream.engine.index, c.mm); break;
                    case arch::Opcode::Vector: apply_vector(memory_, stream.engine.index, c.vec); break;
                    }
                } catch (const FunctionalError& e) {
                    const std::string what = "block " + std::to_string(index) + " " + block.name + ", " +
                                             arch::engine_name(stream.engine) + " command " + std::to_string(next[s]) +
                                             " (" + arch::format_command(program_, c) + "): " + e.what();
                    if (dynamic_cast<const DataError*>(&e)) throw DataError(what);
                    throw FunctionalError(what);
                }
                for (arch::FlagId f : c.sets)
                    if (f < tokens.size()) ++tokens[f];
                ++next[s];
                progress = true;
            }
        }
    }
    for (size_t s = 0; s < block.streams.size(); ++s)
        if (next[s] < block.streams[s].commands.size())
            throw FunctionalError("block " + std::to_string(index) + " " + block.name + ": " +
                                  arch::engine_name(block.streams[s].engine) + " command " + std::to_string(next[s]) +
                                  " waits for a flag no remaining command sets (the streams deadlock)");
}

}  // namespace func
