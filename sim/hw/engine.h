// What every engine of a cluster has in common: it runs in-order command
// streams, one per block resident on its cluster, starting each command once
// the engine's previous command has ended and the command's issue cycles
// (loop control) have passed, and every flag it waits on has been set
// (docs/timing-model.md §5). With several blocks on a cluster at once (§4)
// it chooses among their next commands round-robin.
// Subclasses say how long a command takes.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "sim/arch/program.h"
#include "sim/hw/flag_board.h"
#include "sim/trace/recorder.h"

namespace hw {

class Engine : public sc_core::sc_module {
public:
    // `flags`: the cluster's flag boards, one per slot.
    Engine(sc_core::sc_module_name name, arch::EngineId id, uint32_t cluster, FlagBoards& flags,
           trace::Recorder* recorder);

    // Before the simulation: how many blocks the cluster holds at once.
    void set_slots(size_t slots);

    // Runs `stream` (non-empty) of block `block`, resident in `slot`, from cycle `at`.
    void start(const arch::Stream* stream, uint32_t block, uint32_t slot, uint64_t at);

    // Called at the cycle the stream of `slot` ends with its last command.
    std::function<void(uint32_t slot, uint64_t end_cycle)> on_finished;

    arch::EngineId id() const { return id_; }
    // For deadlock reports: "" when idle, else what the engine is blocked on.
    std::string state() const;

protected:
    // Performs `cmd`, which starts now; returns when it has ended.
    virtual void execute(const arch::Command& cmd) = 0;

private:
    // One resident block's stream and how far the engine has got in it.
    struct Resident {
        const arch::Stream* stream = nullptr;
        uint32_t block = 0;
        uint64_t start = 0;
        size_t next = 0;  // commands [0, next) have started
        bool active = false;
    };

    void run();
    void run_single();  // one block at a time: block on each flag in turn
    void run_shared();  // several: choose among the resident blocks each time
    // The first cycle the next command of `slot` may start, once its flags
    // have all been set (nullopt until then, and *unset names a flag it
    // still waits for).
    std::optional<uint64_t> head_start(size_t slot, arch::FlagId* unset = nullptr) const;
    // Starts the next command of `slot` now and returns when it has ended.
    void perform(size_t slot, uint64_t begin);

    arch::EngineId id_;
    uint32_t cluster_;
    FlagBoards& flags_;
    trace::Recorder* recorder_;
    sc_core::sc_event start_event_;
    std::vector<Resident> slots_;
    uint64_t free_at_ = 0;                // the end of the engine's last command
    size_t last_slot_ = 0;                // the slot served last (round-robin)
    uint64_t yielded_at_ = ~uint64_t{0};  // run_shared: the cycle it last deferred a choice
    int waiting_flag_ = -1;               // run_single: the flag it is blocked on
};

}  // namespace hw
