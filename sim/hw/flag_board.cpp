#include "sim/hw/flag_board.h"

#include "sim/hw/activations.h"
#include "sim/hw/sim_time.h"

namespace hw {

void FlagBoard::reset(size_t count) {
    while (flags_.size() < count) flags_.push_back(std::make_unique<Flag>());
    for (size_t i = 0; i < count; ++i) {
        flags_[i]->set_cycles.clear();
        flags_[i]->consumed = 0;
        flags_[i]->waiting = false;
        flags_[i]->waiter = nullptr;
    }
    in_use_ = count;
}

uint64_t FlagBoard::acquire(size_t f) {
    Flag& fl = *flags_[f];
    while (fl.consumed >= fl.set_cycles.size()) {
        fl.waiting = true;
        suspend(fl.changed);
    }
    fl.waiting = false;
    return fl.set_cycles[fl.consumed++] + latency_;
}

void FlagBoard::set(size_t f, uint64_t cycle) {
    Flag& fl = *flags_[f];
    fl.set_cycles.push_back(cycle);
    // The waiter is woken when the token lets it start, not before: a token
    // set ahead of its cycle (a command finished ahead of time) would
    // otherwise wake it twice, once to learn the cycle and once at it.
    // Tokens are set in the order of their cycles (one setter per flag,
    // whose commands end in order), so the first unconsumed one is the
    // earliest: a later set never delays a pending wake-up.
    if (!fl.waiting) return;
    if (FlagWaiter* w = fl.waiter) {
        fl.waiter = nullptr;
        fl.waiting = false;
        w->on_token();
        return;
    }
    const uint64_t allowed = cycle + latency_, now = now_cycles();
    fl.changed.notify(allowed > now ? cycles(allowed - now) : sc_core::SC_ZERO_TIME);
}

void FlagBoard::wait_inline(size_t f, FlagWaiter* w) {
    Flag& fl = *flags_[f];
    fl.waiting = true;
    fl.waiter = w;
}

const sc_core::sc_event& FlagBoard::when_set(size_t f) {
    Flag& fl = *flags_[f];
    fl.waiting = true;
    return fl.changed;
}

std::optional<uint64_t> FlagBoard::peek(size_t f, size_t ahead) const {
    const Flag& fl = *flags_[f];
    size_t k = fl.consumed + ahead;
    if (k >= fl.set_cycles.size()) return std::nullopt;
    return fl.set_cycles[k] + latency_;
}

std::vector<size_t> FlagBoard::blocked() const {
    std::vector<size_t> out;
    for (size_t i = 0; i < in_use_; ++i)
        if (flags_[i]->waiting) out.push_back(i);
    return out;
}

}  // namespace hw
