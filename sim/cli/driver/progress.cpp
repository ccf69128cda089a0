#include "sim/cli/driver/progress.h"

#include <algorithm>
#include <cstdio>

#include <unistd.h>

namespace cli {

Progress::Progress(size_t total_blocks)
    : total_(total_blocks), enabled_(::isatty(STDERR_FILENO) == 1), start_(Clock::now()), last_(start_) {}

Progress::~Progress() {
    if (shown_) std::fputs("\r\033[K", stderr);  // leave the terminal as it was
}

void Progress::on_block(uint32_t, uint32_t, uint64_t, uint64_t end) {
    ++done_;
    cycles_ = std::max(cycles_, end);
    if (!enabled_) return;
    Clock::time_point now = Clock::now();
    if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    shown_ = true;
    double elapsed = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "\r\033[Kdavinci-sim: %llu cycles simulated, blocks %zu/%zu, %.1f s",
                 static_cast<unsigned long long>(cycles_), done_, total_, elapsed);
    std::fflush(stderr);
}

}  // namespace cli
