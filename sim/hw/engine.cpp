#include "sim/hw/engine.h"

#include <algorithm>

#include "sim/hw/sim_time.h"

namespace hw {

Engine::Engine(sc_core::sc_module_name name, arch::EngineId id, uint32_t cluster, FlagBoard& flags,
               trace::Recorder* recorder)
    : sc_module(name), id_(id), cluster_(cluster), flags_(flags), recorder_(recorder) {
    SC_HAS_PROCESS(Engine);
    SC_THREAD(run);
}

void Engine::start(const arch::Stream* stream, uint32_t block, uint64_t at) {
    stream_ = stream;
    block_ = block;
    start_at_ = at;
    start_event_.notify(sc_core::SC_ZERO_TIME);
}

std::string Engine::state() const {
    if (!running_) return "";
    std::string s = "command " + std::to_string(current_);
    if (waiting_flag_ >= 0) s += " waits on f" + std::to_string(waiting_flag_);
    return s;
}

void Engine::run() {
    for (;;) {
        sc_core::wait(start_event_);
        running_ = true;
        wait_until(start_at_);
        uint64_t ready = start_at_;
        size_t count = stream_ ? stream_->commands.size() : 0;
        for (current_ = 0; current_ < count; ++current_) {
            const arch::Command& cmd = stream_->commands[current_];
            // Loop control is issued while the flags are awaited (§5).
            uint64_t begin = ready + cmd.issue_cycles;
            for (arch::FlagId f : cmd.waits) {
                waiting_flag_ = f;
                begin = std::max(begin, flags_.acquire(f));
            }
            waiting_flag_ = -1;
            wait_until(begin);
            execute(cmd);
            uint64_t end = now_cycles();
            if (recorder_) recorder_->on_command({block_, cluster_, id_, uint32_t(current_), begin, end}, cmd);
            for (arch::FlagId f : cmd.sets) flags_.set(f, end);
            ready = end;
        }
        wait_until(ready);
        running_ = false;
        on_finished(ready);
    }
}

}  // namespace hw
