// sum_{i=0}^{n-1} floor((a*i + b) / m) in O(log m) steps (the Euclid-like
// reduction of the AtCoder Library's floor_sum), for counting the cycles a
// periodic pattern of byte slots touches without stepping it
// (sim/hw/round_robin_link.cpp). 128-bit throughout: the sums of a long
// skipped stretch exceed 64 bits before their differences are taken.
#pragma once

#include <cstdint>
#include <utility>

namespace hw {

using u128 = unsigned __int128;

inline u128 floor_sum(u128 n, u128 m, u128 a, u128 b) {
    u128 sum = 0;
    for (;;) {
        if (a >= m) {
            sum += (n * (n - 1) / 2) * (a / m);
            a %= m;
        }
        if (b >= m) {
            sum += n * (b / m);
            b %= m;
        }
        const u128 y_max = a * n + b;
        if (y_max < m) return sum;
        n = y_max / m;
        b = y_max % m;
        std::swap(m, a);
    }
}

}  // namespace hw
