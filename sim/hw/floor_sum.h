// sum_{i=0}^{n-1} floor((a*i + b) / m) in O(log m) steps (the Euclid-like
// reduction of the AtCoder Library's floor_sum), for counting the cycles a
// periodic pattern of byte slots touches without stepping it
// (sim/hw/round_robin_link.cpp). `T` is uint64_t when n, m, a and b are
// all below 2^20 (no intermediate reaches 2^64), else unsigned __int128: the
// sums of a long skipped stretch exceed 64 bits before their differences
// are taken.
#pragma once

#include <cstdint>
#include <utility>

namespace hw {

using u128 = unsigned __int128;

template <typename T>
T floor_sum(T n, T m, T a, T b) {
    T sum = 0;
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
