#include "sim/hw/cluster.h"

#include <algorithm>

#include "sim/hw/sim_time.h"

namespace hw {

namespace {

LinkParams l1_params(const arch::Config& c) {
    LinkParams p;
    p.capacity_bytes = uint64_t(c.l1_bytes()), p.bytes_per_cycle = uint64_t(c.l1_bytes_per_cycle);
    p.burst_bytes = uint64_t(c.l1_burst_bytes), p.latency_cycles = uint64_t(c.l1_latency_cycles);
    // The port's requesters are the cubes' DMA engines (§6); each has a
    // read path of its own (§6.2: L1 -> L0, the Ascend cube's MTE1), and
    // its L0 -> L1 writes none.
    for (int64_t i = 0; i < c.cubes_per_cluster; ++i) {
        p.paths.group_of.push_back(int(i));
        p.paths.rates.push_back({uint64_t(c.cube_l1_read_bytes_per_cycle), 0});
    }
    return p;
}

}  // namespace

Cluster::Cluster(sc_core::sc_module_name name, uint32_t index, const arch::Config& config, trace::Recorder* recorder)
    : sc_module(name), index_(index), config_(config), l1_("l1", l1_params(config)), empty_end_("empty_end") {
    auto finished = [this](uint32_t slot, uint64_t end) { engine_finished(slot, end); };
    // A vector-side engine's slot k is lane slots_ + k when the sides are apart.
    auto vector_finished = [this](uint32_t slot, uint64_t end) {
        engine_finished(uint32_t(config_.vector_separate_cores ? slots_ : 0) + slot, end);
    };
    FlagBoards& vector_flags = flags_of(arch::Side::Vector);
    for (int i = 0; i < config.dma_engines; ++i) {
        arch::EngineId id{arch::EngineKind::ClusterDma, i};
        cluster_dmas_.push_back(std::make_unique<DmaEngine>(arch::engine_name(id).c_str(), id, index, flags_, recorder,
                                                            size_t(config.dma_max_outstanding)));
        cluster_dmas_.back()->on_finished = finished;
    }
    for (int i = 0; i < config.cubes_per_cluster; ++i) {
        arch::EngineId dma_id{arch::EngineKind::CubeDma, i};
        arch::EngineId cube_id{arch::EngineKind::Cube, i};
        std::string base = "cube" + std::to_string(i);
        cube_dmas_.push_back(std::make_unique<DmaEngine>((base + "_dma").c_str(), dma_id, index, flags_, recorder,
                                                         size_t(config.dma_max_outstanding)));
        cube_dmas_.back()->on_finished = finished;
        cube_dmas_.back()->socket.bind(l1_.socket);  // requester i of the L1 port
        cubes_.push_back(std::make_unique<CubeUnit>(base.c_str(), cube_id, index, flags_, recorder, config));
        cubes_.back()->on_finished = finished;
    }
    for (int i = 0; i < config.vector_units; ++i) {
        for (arch::EngineKind k : {arch::EngineKind::VectorLoad, arch::EngineKind::VectorStore}) {
            if (!config.vector_buffer()) break;
            const std::string name =
                "vector" + std::to_string(i) + (k == arch::EngineKind::VectorLoad ? "_load" : "_store");
            vector_dmas_.push_back(std::make_unique<DmaEngine>(name.c_str(), arch::EngineId{k, i}, index, vector_flags,
                                                               recorder, size_t(config.dma_max_outstanding)));
            vector_dmas_.back()->on_finished = vector_finished;
        }
        arch::EngineId id{arch::EngineKind::Vector, i};
        vectors_.push_back(
            std::make_unique<VectorUnit>(arch::engine_name(id).c_str(), id, index, vector_flags, recorder, config));
        vectors_.back()->on_finished = vector_finished;
    }
    set_slots(1);
    SC_HAS_PROCESS(Cluster);
    SC_METHOD(end_empty_blocks);
    sensitive << empty_end_;
    dont_initialize();
}

void Cluster::set_slots(size_t slots) {
    slots_ = slots;
    flags_.clear();
    vector_flags_.clear();
    for (size_t k = 0; k < slots; ++k) {
        flags_.push_back(std::make_unique<FlagBoard>(uint64_t(config_.flag_latency_cycles)));
        if (config_.vector_separate_cores)
            vector_flags_.push_back(std::make_unique<FlagBoard>(uint64_t(config_.flag_latency_cycles)));
    }
    const size_t lanes = size_t(config_.dispatch_sides()) * slots;
    running_.assign(lanes, 0);
    block_end_.assign(lanes, 0);
    for (Engine* e : engines()) e->set_slots(slots);
}

std::vector<Engine*> Cluster::engines() const {
    std::vector<Engine*> all;
    for (auto& e : cluster_dmas_) all.push_back(e.get());
    for (size_t i = 0; i < cubes_.size(); ++i) {
        all.push_back(cube_dmas_[i].get());
        all.push_back(cubes_[i].get());
    }
    for (size_t i = 0; i < vectors_.size(); ++i) {
        if (2 * i < vector_dmas_.size()) all.push_back(vector_dmas_[2 * i].get());
        all.push_back(vectors_[i].get());
        if (2 * i + 1 < vector_dmas_.size()) all.push_back(vector_dmas_[2 * i + 1].get());
    }
    return all;
}

void Cluster::run_block(const arch::Block& block, uint32_t block_index, uint32_t lane, uint64_t start_cycle) {
    const uint32_t slot = lane % uint32_t(slots_);
    flags_of(lane < slots_ ? arch::Side::Cube : arch::Side::Vector)[slot]->reset(block.num_flags);
    block_end_[lane] = start_cycle;
    running_[lane] = 0;
    for (Engine* e : engines()) {
        for (const arch::Stream& s : block.streams) {
            if (s.engine != e->id() || s.commands.empty()) continue;
            ++running_[lane];
            e->start(&s, block_index, slot, start_cycle);
        }
    }
    if (running_[lane] == 0) {
        empty_.emplace_back(lane, start_cycle);
        empty_end_.notify(cycles(start_cycle - now_cycles()));
    }
}

void Cluster::end_empty_blocks() {
    count_activation();
    const uint64_t now = now_cycles();
    std::vector<std::pair<uint32_t, uint64_t>> later;
    for (const auto& [lane, start] : empty_) {
        if (start == now) on_block_finished(index_, lane, start);
        else later.emplace_back(lane, start);
    }
    empty_.swap(later);
}

void Cluster::engine_finished(uint32_t lane, uint64_t end) {
    block_end_[lane] = std::max(block_end_[lane], end);
    if (--running_[lane] == 0) on_block_finished(index_, lane, block_end_[lane]);
}

std::vector<std::string> Cluster::stuck_engines() const {
    std::vector<std::string> out;
    auto add = [&](const Engine& e) {
        std::string s = e.state();
        if (!s.empty()) out.push_back("cluster" + std::to_string(index_) + "." + arch::engine_name(e.id()) + ": " + s);
    };
    for (const Engine* e : engines()) add(*e);
    return out;
}

}  // namespace hw
