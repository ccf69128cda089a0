// The operation attributes that name one of a few choices, as enums: a rule
// or pass records one with Attr::choice, a phase reads it with
// Attr::as<E>(), and --dump-graph prints its spelling as the program wrote
// it ('dma'). Choices<E>::names lists the spellings in enum order, which is
// also the order messages offer them in ("'vector' or 'dma'").
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace dsl {

enum class Engine { Vector, Dma };  // transpose(engine=)

// A transpose's perm that swaps the last two axes and keeps the others: a
// (batched) matrix transpose, which the DMA engines write transposed in
// flight (dsl/lower/movement/lower_data_movement.h) and a 'cube' task
// therefore runs on them (docs/language.md §3.5).
inline bool swaps_last_two_axes(const std::vector<int64_t>& perm) {
    const size_t n = perm.size();
    if (n < 2 || perm[n - 2] != int64_t(n - 1) || perm[n - 1] != int64_t(n - 2)) return false;
    for (size_t k = 0; k + 2 < n; ++k)
        if (perm[k] != int64_t(k)) return false;
    return true;
}
enum class UpsampleMode { Nearest, Bilinear };  // upsample(mode=)
enum class ImageLayout { NCHW, NHWC };          // conv2d's input_layout, format_convert's from and to
enum class Rounding { Floor, Ceil };            // conv2d(rounding=): how the output size rounds

template <class E>
struct Choices;
template <>
struct Choices<Engine> {
    static constexpr const char* names[] = {"vector", "dma"};
};
template <>
struct Choices<UpsampleMode> {
    static constexpr const char* names[] = {"nearest", "bilinear"};
};
template <>
struct Choices<ImageLayout> {
    static constexpr const char* names[] = {"NCHW", "NHWC"};
};

template <>
struct Choices<Rounding> {
    static constexpr const char* names[] = {"floor", "ceil"};
};

template <class E>
const char* choice_name(E e) {
    return Choices<E>::names[size_t(e)];
}

template <class E>
std::vector<std::string> choice_names() {
    return {std::begin(Choices<E>::names), std::end(Choices<E>::names)};
}

// The choice spelled `name`; the callers have checked it is one.
template <class E>
E choice_from_name(const std::string& name) {
    for (size_t i = 0; i < std::size(Choices<E>::names); ++i)
        if (name == Choices<E>::names[i]) return E(i);
    throw std::logic_error("not a choice: '" + name + "'");
}

}  // namespace dsl
