#include "sim/trace/op_stats.h"

#include "sim/trace/cycle_accounting.h"

#include <algorithm>

namespace trace {

OpStatsRecorder::OpStatsRecorder(const arch::Program& p, const arch::Config& c)
    : program_(p),
      config_(c),
      engine_busy_(size_t(c.clusters) * arch::cluster_engines(c).size(),
                   IntervalUnion(IntervalUnion::Arrival::InStartOrder)),
      active_(p.ops.size(), IntervalUnion(IntervalUnion::Arrival::AnyOrder)) {
    for (const arch::ProgramOp& o : p.ops) {
        OpStats s;
        s.name = o.name, s.kind = o.kind, s.task = o.task;
        s.inputs = o.inputs;
        s.fused_into = o.fused_into;
        ops_.push_back(s);
    }
}

void OpStatsRecorder::on_command(const CommandRecord& r, const arch::Command& c) {
    if (c.tag >= program_.tags.size()) return;
    int32_t op = program_.tags[c.tag].op;
    if (op < 0 || size_t(op) >= ops_.size()) return;
    OpStats& s = ops_[size_t(op)];
    s.start = std::min(s.start, r.start);
    s.end = std::max(s.end, r.end);
    ++s.commands;
    IntervalUnion& engine = engine_busy_[arch::engine_slot(config_, r.cluster, r.engine)];
    const WaitsBefore waits = WaitsBefore::of(r, engine.latest_end());
    s.flag_wait_cycles += waits.flag;
    s.issue_cycles += waits.issue;
    s.link_wait_cycles += r.link_wait;
    // A DMA engine's overlapping commands count once (timing model §9).
    const uint64_t busy = engine.add(r.start, r.end);
    switch (c.op) {
    case arch::Opcode::Matmul:
        s.cube_cycles += busy;
        s.macs += c.mm.macs();
        s.cube_macs += c.mm.macs();
        if (c.mm.dtype == arch::DType::Float32) s.float32_macs += c.mm.macs();
        if (c.mm.dtype == arch::DType::Int8) s.int8_macs += c.mm.macs();
        break;
    case arch::Opcode::Dma:
        s.dma_cycles += busy;
        s.dma_bytes += c.dma.bytes();
        break;
    case arch::Opcode::Vector:
        s.vector_cycles += busy;
        s.vector_bytes += c.vec.src_bytes();
        // A multiply of a window view by weights is a depthwise
        // convolution's taps: one MAC per element (the add that accumulates
        // it is the other half), counted though no cube runs them.
        if (c.vec.op == arch::VectorOp::Mul && c.vec.source(0).kind == arch::VectorSource::Kind::Window)
            s.macs += c.vec.elements();
        break;
    }
    add_command_traffic(s.memory, config_, c);
    active_[size_t(op)].add(r.start, r.end);
    s.active_cycles = active_[size_t(op)].covered();
}

std::vector<OpStats> task_stats(const std::vector<OpStats>& ops) {
    std::vector<OpStats> tasks;
    for (const OpStats& o : ops) {
        auto it = std::find_if(tasks.begin(), tasks.end(), [&](const OpStats& t) { return t.name == o.task; });
        if (it == tasks.end()) {
            OpStats t;
            t.name = o.task;
            t.kind = "task";
            tasks.push_back(t);
            it = tasks.end() - 1;
        }
        if (!o.ran()) continue;
        it->start = std::min(it->start, o.start);
        it->end = std::max(it->end, o.end);
        it->commands += o.commands;
        it->cube_cycles += o.cube_cycles;
        it->dma_cycles += o.dma_cycles;
        it->vector_cycles += o.vector_cycles;
        it->macs += o.macs;
        it->cube_macs += o.cube_macs;
        it->vector_bytes += o.vector_bytes;
        it->float32_macs += o.float32_macs;
        it->int8_macs += o.int8_macs;
        it->dma_bytes += o.dma_bytes;
        it->memory += o.memory;
        it->link_wait_cycles += o.link_wait_cycles;
        it->flag_wait_cycles += o.flag_wait_cycles;
        it->issue_cycles += o.issue_cycles;
    }
    return tasks;
}

std::vector<size_t> critical_path(const std::vector<OpStats>& ops) {
    // An operation's effective end: its own, or for a view its inputs'.
    std::vector<uint64_t> end(ops.size(), 0);
    std::vector<bool> known(ops.size(), false);
    for (size_t i = 0; i < ops.size(); ++i) {
        if (ops[i].ran()) {
            end[i] = ops[i].end, known[i] = true;
            continue;
        }
        for (int32_t in : ops[i].inputs)
            if (in >= 0 && size_t(in) < i && known[size_t(in)])
                end[i] = std::max(end[i], end[size_t(in)]), known[i] = true;
    }
    size_t last = ops.size();
    for (size_t i = 0; i < ops.size(); ++i)
        if (known[i] && (last == ops.size() || end[i] > end[last])) last = i;
    std::vector<size_t> path;
    for (size_t i = last; i < ops.size();) {
        if (ops[i].ran()) path.push_back(i);
        size_t next = ops.size();
        for (int32_t in : ops[i].inputs)
            if (in >= 0 && size_t(in) < i && known[size_t(in)] && (next == ops.size() || end[size_t(in)] > end[next]))
                next = size_t(in);
        i = next;
    }
    std::reverse(path.begin(), path.end());
    return path;
}

}  // namespace trace
