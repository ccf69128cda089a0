// Progress on stderr for long runs: simulated cycles, blocks done, elapsed
// time. Only when stderr is a terminal (never in pipes, files or CI logs),
// only once a run has taken a second, and cleared when the run ends.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "sim/trace/recorder.h"

namespace cli {

class Progress : public trace::Recorder {
public:
    explicit Progress(size_t total_blocks);
    ~Progress() override;

    // Whether anything can ever be shown (stderr is a terminal).
    bool enabled() const { return enabled_; }

    void on_command(const trace::CommandRecord&, const arch::Command&) override {}
    void on_block(uint32_t block, uint32_t cluster, uint64_t start, uint64_t end) override;

private:
    using Clock = std::chrono::steady_clock;
    size_t total_, done_ = 0;
    uint64_t cycles_ = 0;
    bool enabled_, shown_ = false;
    Clock::time_point start_, last_;
};

}  // namespace cli
