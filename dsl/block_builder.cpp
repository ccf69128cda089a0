#include "dsl/block_builder.h"

namespace dsl {

namespace {

// Engine order of a listing: cluster DMA engines, then cube by cube its DMA
// engine and its MAC array.
std::pair<int, int> order_key(arch::EngineId e) {
    switch (e.kind) {
    case arch::EngineKind::ClusterDma: return {0, e.index};
    case arch::EngineKind::CubeDma: return {1, 2 * e.index};
    case arch::EngineKind::Cube: break;
    }
    return {1, 2 * e.index + 1};
}

}  // namespace

std::vector<arch::Command>& BlockBuilder::stream(arch::EngineId e) { return streams_[order_key(e)]; }

arch::Block BlockBuilder::finish() {
    for (auto& [key, commands] : streams_) {
        if (commands.empty()) continue;
        arch::EngineId id;
        if (key.first == 0)
            id = {arch::EngineKind::ClusterDma, key.second};
        else
            id = {key.second % 2 ? arch::EngineKind::Cube : arch::EngineKind::CubeDma, key.second / 2};
        block_.streams.push_back({id, std::move(commands)});
    }
    streams_.clear();
    return std::move(block_);
}

TagTable::TagTable(arch::Program& p) : program_(p) {
    if (program_.tags.empty()) program_.tags.push_back("");
    for (uint32_t i = 0; i < program_.tags.size(); ++i) index_[program_.tags[i]] = i;
}

uint32_t TagTable::operator()(const std::string& label) {
    auto [it, inserted] = index_.emplace(label, uint32_t(program_.tags.size()));
    if (inserted) program_.tags.push_back(label);
    return it->second;
}

arch::Command dma_command(const arch::DmaArgs& args, uint32_t tag) {
    arch::Command c;
    c.op = arch::Opcode::Dma;
    c.dma = args;
    c.tag = tag;
    return c;
}

arch::Command matmul_command(const arch::MatmulArgs& args, uint32_t tag) {
    arch::Command c;
    c.op = arch::Opcode::Matmul;
    c.mm = args;
    c.tag = tag;
    return c;
}

}  // namespace dsl
