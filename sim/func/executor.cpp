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
    for (uint32_t b = 0; b < program_.blocks.size(); ++b) run_block(b, order);
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
