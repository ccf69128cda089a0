// What every engine of a cluster has in common: it runs in-order command
// streams, one per block resident on its cluster, starting each command once
// the engine's previous command has ended and the command's issue cycles
// (loop control) have passed, and every flag it waits on has been set
// (docs/timing-model.md §5). With several blocks on a cluster at once (§4)
// it chooses among their next commands round-robin. A DMA engine keeps up to
// `max_outstanding` commands in flight: it may start the next once the
// previous one's last burst has been granted; commands end in order.
// Subclasses say how long a command takes.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "sim/arch/program.h"
#include "sim/hw/flag_board.h"
#include "sim/trace/recorder.h"

namespace hw {

class Engine : public sc_core::sc_module, private FlagWaiter {
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
    // What execute() tells the engine: the cycle the command ends (>= now;
    // later than now only for a command left in flight) and, for a DMA, the
    // cycles its request waited for the link (§9).
    struct Executed {
        uint64_t end = 0;
        uint64_t link_wait = 0;
    };
    // Performs `cmd`, which starts now; returns when the engine may take its
    // next command.
    virtual Executed execute(const arch::Command& cmd) = 0;
    // For an engine whose commands take cycles that depend on the command
    // alone (a cube, a vector unit): performs `cmd` without waiting and
    // returns its cycles, so the engine may run it ahead of simulated time.
    // nullopt (the default) for one whose timing depends on what else
    // happens meanwhile (a DMA engine on a shared link).
    virtual std::optional<uint64_t> run_ahead(const arch::Command& /*cmd*/) { return std::nullopt; }
    // Whether run_ahead answers for every command (a cube, a vector unit):
    // with one block per cluster such an engine runs inline (run_inline).
    virtual bool always_runs_ahead() const { return false; }
    // At most this many commands in flight at once (§5): 1 but for DMA engines.
    void set_max_outstanding(size_t n) { max_outstanding_ = n; }
    size_t max_outstanding() const { return max_outstanding_; }

private:
    // One resident block's stream and how far the engine has got in it.
    struct Resident {
        const arch::Stream* stream = nullptr;
        uint32_t block = 0;
        uint64_t start = 0;
        size_t next = 0;  // commands [0, next) have started
        bool active = false;
    };

    // A command started but not yet ended.
    struct InFlight {
        uint32_t slot = 0, block = 0, index = 0;
        uint64_t begin = 0, end = 0;
        const arch::Command* command = nullptr;
        bool ends_stream = false;
        uint64_t ready = 0, flags_at = 0, link_wait = 0;  // trace::CommandRecord's
    };
    // When a command could start, as far as the engine and its flags go (§5).
    struct StartTimes {
        uint64_t ready = 0;     // the engine's ready cycle: max(block start, free_at_)
        uint64_t flags_at = 0;  // its flags' latest allowed cycle (0 without waits)
    };

    void before_end_of_elaboration() override;
    void run();         // SC_THREAD, made only for an engine that does not run inline
    void run_single();  // one block at a time: block on each flag in turn (a DMA engine)
    void run_shared();  // several: choose among the resident blocks each time
    // One block at a time, for an engine that always runs ahead: no thread.
    // Performs the stream's commands while their flags hold tokens, from
    // start() and then from the set of each missing token (on_token); the
    // stream's last command is finished at its end by complete_in_flight.
    void run_inline();
    void on_token() override { run_inline(); }
    // The first cycle the next command of `slot` may start, once its flags
    // have all been set (nullopt until then, and *unset names a flag it
    // still waits for).
    std::optional<uint64_t> head_start(size_t slot, arch::FlagId* unset = nullptr, StartTimes* times = nullptr) const;
    // Starts the next command of `slot` now and returns when the engine may
    // take its next one (free_at_).
    void perform(size_t slot, uint64_t begin, const StartTimes& times);
    // A command ends now: record it, set its flags, maybe end its stream.
    void finish(const InFlight& c);
    void complete_in_flight();  // SC_METHOD at the end of a stream's last command

    arch::EngineId id_;
    uint32_t cluster_;
    FlagBoards& flags_;
    trace::Recorder* recorder_;
    sc_core::sc_event start_event_;
    sc_core::sc_event in_flight_end_;
    std::vector<Resident> slots_;
    std::deque<InFlight> in_flight_;  // streams' last commands not yet ended, in end order
    std::deque<uint64_t> ends_;       // the end cycles of the commands in flight, in order
    size_t max_outstanding_ = 1;
    uint64_t free_at_ = 0;                // when the engine may start its next command
    size_t last_slot_ = 0;                // the slot served last (round-robin)
    uint64_t yielded_at_ = ~uint64_t{0};  // run_shared: the cycle it last deferred a choice
    int waiting_flag_ = -1;               // run_single, run_inline: the flag it is blocked on
    bool inline_ = false;                 // runs inline (run_inline), not in its thread
};

}  // namespace hw
