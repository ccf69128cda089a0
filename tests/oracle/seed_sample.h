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
#include <vector>

namespace oracle_test {

// The random differential tests: kTests tests of kSeedsPerTest seeds each,
// so that a failure names a small seed range.
constexpr uint64_t kSeedsPerTest = 10;
constexpr uint64_t kTests = 20;

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
    return seed % s == (seed / kSeedsPerTest) % s;
}

// The seeds test `test` runs: its range, kSeedsPerTest * test onwards, and
// the ranges kTests further on for each further round, as sampled.
inline std::vector<uint64_t> test_seeds(uint64_t test) {
    std::vector<uint64_t> seeds;
    for (uint64_t round = 0; round < rounds(); ++round) {
        const uint64_t first = (test + round * kTests) * kSeedsPerTest;
        for (uint64_t seed = first; seed < first + kSeedsPerTest; ++seed)
            if (sampled(seed)) seeds.push_back(seed);
    }
    return seeds;
}

}  // namespace oracle_test
