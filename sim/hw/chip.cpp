#include "sim/hw/chip.h"

#include "sim/arch/program_check.h"
#include "sim/hw/sim_time.h"

namespace hw {

namespace {

// The link the DDR-side DMA engines request: the DDR channel, or the L2's
// port when there is an L2 (§6.1).
LinkParams ddr_params(const arch::Config& c) {
    LinkParams p;
    p.capacity_bytes = uint64_t(c.ddr_bytes()), p.bytes_per_cycle = uint64_t(c.ddr_bytes_per_cycle);
    p.burst_bytes = uint64_t(c.ddr_burst_bytes), p.latency_cycles = uint64_t(c.ddr_latency_cycles);
    if (c.l2_present())
        p.bytes_per_cycle = uint64_t(c.l2_bytes_per_cycle), p.latency_cycles = uint64_t(c.l2_hit_latency_cycles);
    if (c.l2_write_port()) p.write_bytes_per_cycle = uint64_t(c.l2_write_bytes_per_cycle);
    // A cluster's requesters (Cluster::bind_ddr): its DMA engines, on the
    // cluster's paths (0), then its vector units' load and store engines,
    // each unit's on its own pair (1 + unit).
    p.paths.rates.push_back({uint64_t(c.ddr_read_bytes_per_cycle), uint64_t(c.ddr_write_bytes_per_cycle)});
    p.paths.group_of.assign(size_t(c.dma_engines), 0);
    for (int64_t v = 0; c.vector_buffer() && v < c.vector_units; ++v) {
        p.paths.group_of.insert(p.paths.group_of.end(), 2, int(1 + v));
        p.paths.rates.push_back(
            {uint64_t(c.vector_ddr_read_bytes_per_cycle), uint64_t(c.vector_ddr_write_bytes_per_cycle)});
    }
    return p;
}

std::vector<std::unique_ptr<Cluster>> make_clusters(const arch::Config& c, trace::Recorder* recorder) {
    std::vector<std::unique_ptr<Cluster>> v;
    for (int64_t i = 0; i < c.clusters; ++i)
        v.push_back(std::make_unique<Cluster>(("cluster" + std::to_string(i)).c_str(), uint32_t(i), c, recorder));
    return v;
}

}  // namespace

std::vector<Cluster*> Chip::pointers(std::vector<std::unique_ptr<Cluster>>& v) {
    std::vector<Cluster*> out;
    for (auto& c : v) out.push_back(c.get());
    return out;
}

Chip::Chip(sc_core::sc_module_name name, const arch::Config& config, const arch::Program& program,
           arch::BlockSource& blocks, trace::Recorder* recorder)
    : sc_module(name),
      config_(config),
      ddr_("ddr", ddr_params(config), config.l2_present() ? &config : nullptr, recorder),
      clusters_(make_clusters(config, recorder)),
      dispatcher_("dispatcher", program, blocks, pointers(clusters_), config, recorder) {
    // Binding order numbers the DDR requesters: cluster-major, then engine.
    for (auto& c : clusters_) c->bind_ddr(ddr_.socket);
}

std::vector<trace::LinkStats> Chip::link_stats() const {
    std::vector<trace::LinkStats> out;
    if (const L2Memory* l2 = ddr_.l2()) {
        const std::string l2_kind = config_.vector_buffer() ? "l2_l1_ub" : "l2_l1";
        if (config_.l2_write_port()) {
            // Two ports, one way each (§6.1).
            out.push_back({"l2.read", l2_kind + "_read", uint64_t(config_.l2_bytes_per_cycle), ddr_.bytes_read(), 0,
                           ddr_.busy_cycles()});
            out.push_back({"l2.write", l2_kind + "_write", uint64_t(config_.l2_write_bytes_per_cycle), 0,
                           ddr_.bytes_written(), ddr_.write_port_busy_cycles()});
        } else {
            out.push_back({"l2", l2_kind, uint64_t(config_.l2_bytes_per_cycle), ddr_.bytes_read(), ddr_.bytes_written(),
                           ddr_.busy_cycles()});
        }
        out.push_back({"ddr", "ddr_l2", uint64_t(config_.ddr_bytes_per_cycle), l2->ddr_bytes_read(),
                       l2->ddr_bytes_written(), l2->ddr_busy_cycles()});
    } else {
        out.push_back({"ddr", config_.vector_buffer() ? "ddr_l1_ub" : "ddr_l1", uint64_t(config_.ddr_bytes_per_cycle),
                       ddr_.bytes_read(), ddr_.bytes_written(), ddr_.busy_cycles()});
    }
    for (auto& c : clusters_) {
        std::string prefix = "cluster" + std::to_string(c->index());
        const ArbitratedMemory& l1 = c->l1();
        out.push_back({prefix + ".l1", "l1_l0", uint64_t(config_.l1_bytes_per_cycle), l1.bytes_read(),
                       l1.bytes_written(), l1.busy_cycles()});
    }
    for (auto& c : clusters_) {
        for (int64_t q = 0; q < config_.cubes_per_cluster; ++q) {
            const CubeUnit& cube = c->cube(size_t(q));
            out.push_back({"cluster" + std::to_string(c->index()) + ".cube" + std::to_string(q) + ".l0", "l0_cube",
                           uint64_t(config_.l0_bytes_per_cycle), cube.operand_bytes(), 0, cube.link_busy_cycles()});
        }
    }
    return out;
}

std::vector<std::string> Chip::stuck_engines() const {
    std::vector<std::string> out;
    for (auto& c : clusters_) {
        auto s = c->stuck_engines();
        out.insert(out.end(), s.begin(), s.end());
    }
    return out;
}

trace::RunStats simulate(const arch::Config& config, const arch::Program& program, trace::Recorder* recorder) {
    return *simulate_until(config, program, recorder, 0);
}

std::optional<trace::RunStats> simulate_until(const arch::Config& config, const arch::Program& program,
                                              trace::Recorder* recorder, uint64_t max_cycles) {
    arch::check_program(program, config);
    arch::ProgramBlocks blocks(program);
    return simulate_until(config, program, blocks, recorder, max_cycles);
}

std::optional<trace::RunStats> simulate_until(const arch::Config& config, const arch::Program& program,
                                              arch::BlockSource& blocks, trace::Recorder* recorder,
                                              uint64_t max_cycles) {
    arch::check_program_header(program, config);
    setup_systemc();
    trace::StatsRecorder stats(config);
    trace::OpStatsRecorder op_stats(program, config);
    trace::PowerRecorder power(config);
    trace::RecorderFan fan;
    fan.add(&stats);
    fan.add(&op_stats);
    fan.add(&power);
    if (recorder) fan.add(recorder);
    Chip chip("chip", config, program, blocks, &fan);
    if (max_cycles == 0) {
        sc_core::sc_start();
    } else {
        // One cycle more: the dispatcher learns of a block that ended at
        // cycle e at e + 1, so a program ending exactly at the bound completes.
        sc_core::sc_start(cycles(max_cycles + 1));
        const bool done = chip.dispatcher().all_done();
        if ((!done && sc_core::sc_pending_activity()) || (done && chip.dispatcher().end_cycle() > max_cycles))
            return std::nullopt;
    }
    if (!chip.dispatcher().all_done()) {
        std::string msg =
            "deadlock: the simulation stopped at cycle " + std::to_string(now_cycles()) + " with blocks unfinished";
        for (const std::string& s : chip.stuck_engines()) msg += "\n  " + s;
        throw DeadlockError(msg);
    }
    trace::RunStats r;
    r.total_cycles = chip.dispatcher().end_cycle();
    r.blocks = blocks.size();
    if (const L2Memory* l2 = chip.ddr().l2()) {
        // Behind an L2, DDR sees its fills, its write-backs and, at the end,
        // its flush (§6.1).
        r.ddr_bytes_read = l2->ddr_bytes_read();
        r.ddr_bytes_written = l2->ddr_bytes_written() + l2->flush_bytes();
        const L2Cache::Stats& s = l2->stats();
        r.l2 = trace::L2Stats{s.read_hits,  s.read_misses,     s.write_hits,    s.write_misses,
                              s.writebacks, l2->flush_bytes(), l2->line_bytes()};
    } else {
        r.ddr_bytes_read = chip.ddr().bytes_read();
        r.ddr_bytes_written = chip.ddr().bytes_written();
    }
    r.units = stats.units();
    r.links = chip.link_stats();
    r.memory = stats.memory();
    r.ops = op_stats.ops();
    r.power = power.series();
    return r;
}

}  // namespace hw
