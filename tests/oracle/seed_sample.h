// Which seeds the random differential tests run, from the environment:
//   DAVINCI_RANDOM_ROUNDS=R  each test also runs the seed ranges R - 1 rounds
//                            further on (a longer soak, by hand);
//   DAVINCI_RANDOM_STRIDE=S  each test runs one seed in S of its range.
// scripts/test.sh --sanitize sets the stride to 5: the sanitized build runs
// about five times slower, and these tests were a quarter of its test time
// (1,272 of 4,915 s; CI has 90 minutes). Every test still runs, each on two
// of its ten seeds, a different two in each range; the normal pass runs
// every seed.
#pragma once

#include <cstdint>
#include <cstdlib>

namespace oracle_test {

inline uint64_t positive_env(const char* name) {
    const char* env = std::getenv(name);
    return env && std::atoi(env) > 0 ? uint64_t(std::atoi(env)) : 1;
}

inline uint64_t rounds() { return positive_env("DAVINCI_RANDOM_ROUNDS"); }
inline uint64_t stride() { return positive_env("DAVINCI_RANDOM_STRIDE"); }

// With stride S, seed s runs when s % S == (s / 10) % S: in each range of
// ten seeds a different residue, so that the sample moves across ranges.
inline bool sampled(uint64_t seed) {
    const uint64_t s = stride();
    return seed % s == (seed / 10) % s;
}

}  // namespace oracle_test
