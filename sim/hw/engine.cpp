#include "sim/hw/engine.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/hw/sim_time.h"

namespace hw {

Engine::Engine(sc_core::sc_module_name name, arch::EngineId id, uint32_t cluster, FlagBoards& flags,
               trace::Recorder* recorder)
    : sc_module(name), id_(id), cluster_(cluster), flags_(flags), recorder_(recorder), slots_(1) {
    SC_HAS_PROCESS(Engine);
    SC_METHOD(complete_in_flight);
    sensitive << in_flight_end_;
    dont_initialize();
}

// The thread is made here, once set_slots has said whether the engine runs
// inline: an inline engine has none (a thread that only returned would cost a
// stack, an activation and, under AddressSanitizer, a warning about its stack).
void Engine::before_end_of_elaboration() {
    if (inline_) return;
    SC_HAS_PROCESS(Engine);
    SC_THREAD(run);
}

void Engine::set_slots(size_t slots) {
    slots_.assign(slots, Resident{});
    last_slot_ = slots - 1;  // so slot 0 is served first
    inline_ = slots == 1 && always_runs_ahead();
}

void Engine::start(const arch::Stream* stream, uint32_t block, uint32_t slot, uint64_t at) {
    slots_[slot] = Resident{stream, block, at, 0, true};
    if (inline_) {
        run_inline();
        return;
    }
    start_event_.notify(sc_core::SC_ZERO_TIME);
}

std::string Engine::state() const {
    std::string s;
    for (size_t k = 0; k < slots_.size(); ++k) {
        const Resident& r = slots_[k];
        if (!r.active) continue;
        if (!s.empty()) s += "; ";
        if (slots_.size() > 1) s += "slot " + std::to_string(k) + " block " + std::to_string(r.block) + " ";
        // run_single has taken the command it waits for; run_shared and run_inline have not.
        size_t current = slots_.size() > 1 || inline_ ? r.next : r.next - 1;
        s += "command " + std::to_string(current);
        if (waiting_flag_ >= 0) {
            s += " waits on f" + std::to_string(waiting_flag_);
        } else if (slots_.size() > 1 && current < r.stream->commands.size()) {
            std::vector<arch::FlagId> unset;
            const arch::FlagList& waits = r.stream->commands[current].waits;
            for (size_t i = 0; i < waits.size(); ++i) {
                size_t ahead = size_t(std::count(waits.begin(), waits.begin() + long(i), waits[i]));
                if (!flags_[k]->peek(waits[i], ahead)) unset.push_back(waits[i]);
            }
            for (size_t i = 0; i < unset.size(); ++i) s += (i ? ", f" : " waits on f") + std::to_string(unset[i]);
        }
    }
    return s;
}

void Engine::run() {
    count_activation();
    if (slots_.size() == 1) run_single();
    else run_shared();
}

// The same starts and ends as run_single, without a thread: every command's
// cycles depend on the command alone, so it is performed once its flags
// hold tokens, whenever that is found out (a token remembers its cycle).
void Engine::run_inline() {
    Resident& r = slots_[0];
    FlagBoard& board = *flags_[0];
    while (r.active) {
        const arch::Command& cmd = r.stream->commands[r.next];
        arch::FlagId unset = 0;
        StartTimes times;
        const std::optional<uint64_t> begin = head_start(0, &unset, &times);
        if (!begin) {
            waiting_flag_ = int(unset);
            board.wait_inline(unset, this);
            return;
        }
        waiting_flag_ = -1;
        for (arch::FlagId f : cmd.waits) board.consume(f);
        const uint64_t end = *begin + *run_ahead(cmd);
        const uint32_t index = uint32_t(r.next++);
        const bool ends_stream = r.next == r.stream->commands.size();
        const InFlight c{0, r.block, index, *begin, end, &cmd, ends_stream, times.ready, times.flags_at, 0};
        free_at_ = end;
        if (!ends_stream) {
            finish(c);
            continue;
        }
        // The dispatcher learns the stream's end at its cycle.
        r.active = false;
        const uint64_t now = now_cycles();
        if (end < now) throw std::logic_error(std::string(name()) + ": a command ends before it is performed");
        if (end == now) {
            finish(c);
            return;
        }
        in_flight_.push_back(c);
        in_flight_end_.notify(cycles(end - now));
    }
}

void Engine::perform(size_t slot, uint64_t begin, const StartTimes& times) {
    Resident& r = slots_[slot];
    const arch::Command& cmd = r.stream->commands[r.next];
    const uint32_t index = uint32_t(r.next++);
    const bool ends_stream = r.next == r.stream->commands.size();
    if (ends_stream) r.active = false;  // nothing more to start; it ends with its last command
    last_slot_ = slot;
    // Commands end in the order they started (§5): one whose data is there
    // before its predecessor's (an L2 hit behind a miss, §6.1) ends with it.
    const Executed done = execute(cmd);
    const uint64_t now = now_cycles();
    const uint64_t end = std::max(done.end, ends_.empty() ? now : ends_.back());
    const InFlight c{uint32_t(slot), r.block,     index,       begin,          end,
                     &cmd,           ends_stream, times.ready, times.flags_at, done.link_wait};
    // A command left in flight is finished at once, ahead of its end: its
    // end cycle is known and a flag token remembers its cycle (as for
    // run_ahead). A stream's last command is finished at its end, when the
    // dispatcher must learn that the stream has ended, and so is every
    // command started behind it (another resident block's): recorders see
    // an engine's commands in the order they start.
    if (end > now && (ends_stream || !in_flight_.empty())) {
        in_flight_.push_back(c);
        in_flight_end_.notify(cycles(end - now));
    } else {
        finish(c);
    }
    // The next command may start once at most max_outstanding - 1 others are
    // in flight: when the one max_outstanding places back has ended.
    while (!ends_.empty() && ends_.front() <= now) ends_.pop_front();
    if (end > now) ends_.push_back(end);
    const size_t n = ends_.size();
    free_at_ = n >= max_outstanding_ ? std::max(now, ends_[n - max_outstanding_]) : now;
}

void Engine::finish(const InFlight& c) {
    if (recorder_)
        recorder_->on_command(
            {c.block, cluster_, id_, c.index, c.begin, c.end, c.slot, c.ready, c.flags_at, c.link_wait}, *c.command);
    for (arch::FlagId f : c.command->sets) flags_[c.slot]->set(f, c.end);
    if (c.ends_stream) on_finished(c.slot, c.end);
}

void Engine::complete_in_flight() {
    count_activation();
    const uint64_t now = now_cycles();
    while (!in_flight_.empty() && in_flight_.front().end == now) {
        const InFlight c = in_flight_.front();
        in_flight_.pop_front();
        finish(c);
    }
    if (!in_flight_.empty()) in_flight_end_.notify(cycles(in_flight_.front().end - now));
}

void Engine::run_single() {
    Resident& r = slots_[0];
    for (;;) {
        suspend(start_event_);
        wait_until(r.start);
        uint64_t ready = r.start;
        while (r.active) {
            const arch::Command& cmd = r.stream->commands[r.next];
            // Loop control is issued while the flags are awaited (§5).
            StartTimes times{ready, 0};
            ++r.next;  // taken: state() reports it while its flags are awaited
            for (arch::FlagId f : cmd.waits) {
                waiting_flag_ = int(f);
                times.flags_at = std::max(times.flags_at, flags_[0]->acquire(f));
            }
            waiting_flag_ = -1;
            --r.next;
            const uint64_t begin = std::max(ready + cmd.issue_cycles, times.flags_at);
            wait_until(begin);
            perform(0, begin, times);
            ready = free_at_;
        }
    }
}

std::optional<uint64_t> Engine::head_start(size_t slot, arch::FlagId* unset, StartTimes* times) const {
    const Resident& r = slots_[slot];
    const arch::Command& cmd = r.stream->commands[r.next];
    const uint64_t ready = std::max(free_at_, r.start);
    uint64_t t = ready + cmd.issue_cycles, flags_at = 0;
    for (size_t i = 0; i < cmd.waits.size(); ++i) {
        // A command waiting twice on a flag takes its next two sets.
        size_t ahead = size_t(std::count(cmd.waits.begin(), cmd.waits.begin() + long(i), cmd.waits[i]));
        std::optional<uint64_t> allowed = flags_[slot]->peek(cmd.waits[i], ahead);
        if (!allowed) {
            if (unset) *unset = cmd.waits[i];
            return std::nullopt;
        }
        t = std::max(t, *allowed);
        flags_at = std::max(flags_at, *allowed);
    }
    if (times) *times = {ready, flags_at};
    return t;
}

// §5 with several resident blocks: at the first cycle the next command of
// some resident block may start, the engine starts the first such command in
// round-robin order of the slots after the one it served last. Every fact
// that decides cycle t is known in SystemC by t: flags need
// sync.flag_latency_cycles >= 1 (arch::check_program), so a set at t cannot
// allow a start at t; a block starting at t may only be handed over at t
// itself (the dispatcher decides at d + 1 for cycle d), in the first delta
// cycle, which is why a choice at t is made only after one delta has passed.
void Engine::run_shared() {
    constexpr uint64_t kNever = ~uint64_t{0};
    std::vector<std::pair<size_t, arch::FlagId>> awaited;  // (slot, flag) of heads waiting for a set
    for (;;) {
        const uint64_t now = now_cycles();
        const size_t n = slots_.size();
        size_t chosen = n;
        uint64_t earliest = kNever;
        awaited.clear();
        for (size_t i = 1; i <= n; ++i) {
            const size_t k = (last_slot_ + i) % n;
            if (!slots_[k].active) continue;
            arch::FlagId unset = 0;
            std::optional<uint64_t> t = head_start(k, &unset);
            if (!t) {
                awaited.emplace_back(k, unset);
                continue;
            }
            if (*t <= now && chosen == n) chosen = k;
            earliest = std::min(earliest, *t);
        }
        if (chosen < n && yielded_at_ == now) {
            const Resident& r = slots_[chosen];
            StartTimes times;
            head_start(chosen, nullptr, &times);
            for (arch::FlagId f : r.stream->commands[r.next].waits) flags_[chosen]->consume(f);
            perform(chosen, now, times);
            continue;
        }
        sc_core::sc_event_or_list wake;
        wake |= start_event_;
        for (const auto& [slot, flag] : awaited) wake |= flags_[slot]->when_set(flag);
        if (chosen < n) {
            yielded_at_ = now;
            suspend(sc_core::SC_ZERO_TIME);
        } else if (earliest != kNever) {
            suspend(cycles(earliest - now), wake);
        } else {
            suspend(wake);
        }
    }
}

}  // namespace hw
