// What every engine of a cluster has in common: it runs one in-order command
// stream per block, starting each command once the previous one has ended
// and its issue cycles (loop control) have passed, and every flag it waits
// on has been set (docs/timing-model.md §5).
// Subclasses say how long a command takes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <systemc>

#include "sim/arch/program.h"
#include "sim/hw/flag_board.h"
#include "sim/trace/recorder.h"

namespace hw {

class Engine : public sc_core::sc_module {
public:
    Engine(sc_core::sc_module_name name, arch::EngineId id, uint32_t cluster, FlagBoard& flags,
           trace::Recorder* recorder);

    // Runs `stream` (may be null: nothing to do) of block `block` from cycle `at`.
    void start(const arch::Stream* stream, uint32_t block, uint64_t at);

    // Called at the cycle the stream's last command ends (or its start cycle).
    std::function<void(uint64_t end_cycle)> on_finished;

    arch::EngineId id() const { return id_; }
    // For deadlock reports: "" when idle, else what the engine is blocked on.
    std::string state() const;

protected:
    // Performs `cmd`, which starts now; returns when it has ended.
    virtual void execute(const arch::Command& cmd) = 0;

private:
    void run();

    arch::EngineId id_;
    uint32_t cluster_;
    FlagBoard& flags_;
    trace::Recorder* recorder_;
    sc_core::sc_event start_event_;
    const arch::Stream* stream_ = nullptr;
    uint32_t block_ = 0;
    uint64_t start_at_ = 0;
    bool running_ = false;
    size_t current_ = 0;
    int waiting_flag_ = -1;
};

}  // namespace hw
