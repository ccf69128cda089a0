#include "dsl/lower/block_builder.h"

namespace dsl {

namespace {

// Recycled command vectors, empty with their capacity (per thread: the
// compiler may run in several).
std::vector<std::vector<arch::Command>>& spare_streams() {
    thread_local std::vector<std::vector<arch::Command>> spare;
    return spare;
}

// Enough for the streams of a few blocks.
constexpr size_t kMaxSpareStreams = 64;

}  // namespace

void recycle(arch::Block&& block) {
    auto& spare = spare_streams();
    for (arch::Stream& s : block.streams) {
        if (spare.size() >= kMaxSpareStreams) break;
        s.commands.clear();
        spare.push_back(std::move(s.commands));
    }
}

std::vector<arch::Command>& BlockBuilder::stream(arch::EngineId e) {
    auto [it, inserted] = streams_.try_emplace(arch::engine_order(e));
    auto& slot = it->second;
    slot.first = e;
    auto& spare = spare_streams();
    if (inserted && !spare.empty()) {
        slot.second = std::move(spare.back());
        spare.pop_back();
    }
    return slot.second;
}

arch::Block BlockBuilder::finish() {
    for (auto& [order, stream] : streams_)
        if (!stream.second.empty()) block_.streams.push_back({stream.first, std::move(stream.second)});
    streams_.clear();
    return std::move(block_);
}

TagTable::TagTable(arch::Program& p) : program_(p) {
    if (program_.tags.empty()) program_.tags.push_back({});
    for (uint32_t i = 0; i < program_.tags.size(); ++i) index_[{program_.tags[i].label, program_.tags[i].op}] = i;
}

uint32_t TagTable::operator()(const std::string& label, int32_t op) {
    auto [it, inserted] = index_.emplace(std::make_pair(label, op), uint32_t(program_.tags.size()));
    if (inserted) program_.tags.push_back({label, op});
    return it->second;
}

arch::DmaArgs copy2d(arch::Space src, uint64_t src_addr, uint64_t src_stride, arch::Space dst, uint64_t dst_addr,
                     uint64_t dst_stride, int64_t rows, int64_t row_bytes) {
    arch::DmaArgs d;
    d.src = src, d.dst = dst;
    d.src_addr = src_addr, d.dst_addr = dst_addr;
    d.rows = uint32_t(rows), d.row_bytes = uint32_t(row_bytes);
    d.src_stride = src_stride, d.dst_stride = dst_stride;
    return d;
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

arch::Command vector_command(const arch::VectorArgs& args, uint32_t tag) {
    arch::Command c;
    c.op = arch::Opcode::Vector;
    c.vec = args;
    c.tag = tag;
    return c;
}

}  // namespace dsl
