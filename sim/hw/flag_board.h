// The set/wait flags of the block a cluster is running. A flag is a counting
// semaphore whose tokens remember the cycle they were set; the k-th wait on
// a flag consumes the k-th set (one setter, one waiter per flag is checked
// by arch::check_program), so timing never depends on process order.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <systemc>

namespace hw {

// What an engine without a thread of its own waits with: called, inside
// FlagBoard::set, when the flag it waits on gets a token.
class FlagWaiter {
public:
    virtual void on_token() = 0;

protected:
    ~FlagWaiter() = default;
};

class FlagBoard {
public:
    explicit FlagBoard(uint64_t latency_cycles) : latency_(latency_cycles) {}

    // Clears all flags and makes room for `count` of them.
    void reset(size_t count);

    // In an SC_THREAD: blocks until flag `f` has an unconsumed token, consumes
    // it and returns the first cycle a command may start because of it (a
    // thread that blocked resumes at that cycle).
    uint64_t acquire(size_t f);

    // Adds a token to `f` that remembers `cycle`; wakes its waiter.
    void set(size_t f, uint64_t cycle);

    // For an engine that is not a thread (Engine's inline streams): `f`
    // has no unconsumed token; w->on_token() is called at its next set.
    void wait_inline(size_t f, FlagWaiter* w);

    // For an engine choosing among several blocks' commands (several blocks
    // per cluster, timing-model §5): the first cycle the `ahead`-th next
    // unconsumed set of `f` lets a command start, if that set has happened;
    // consume() takes the next one; when_set(f) fires at the first cycle the
    // next set of `f` lets a command start.
    std::optional<uint64_t> peek(size_t f, size_t ahead) const;
    void consume(size_t f) { ++flags_[f]->consumed; }
    const sc_core::sc_event& when_set(size_t f);

    // Flags some engine is blocked on (for deadlock reports).
    std::vector<size_t> blocked() const;

private:
    struct Flag {
        std::vector<uint64_t> set_cycles;
        size_t consumed = 0;
        bool waiting = false;
        FlagWaiter* waiter = nullptr;  // an inline waiter, called at the next set
        sc_core::sc_event changed;
    };
    uint64_t latency_;
    std::vector<std::unique_ptr<Flag>> flags_;
    size_t in_use_ = 0;
};

// A cluster's boards, one per block it holds at once (its slots).
using FlagBoards = std::vector<std::unique_ptr<FlagBoard>>;

}  // namespace hw
