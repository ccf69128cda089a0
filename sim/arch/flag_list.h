// A command's waits or sets: a few flag numbers, held in the command itself.
// A std::vector would cost a heap allocation per list for every command the
// compiler builds, copies and the spool decodes again (40 % of lowering was
// malloc and free); nearly every list holds one to three flags, so up to
// kInline live inline and only a longer list (a drain waiting on many
// flags) goes to the heap. The same size as a std::vector, and it behaves
// as one for what commands do with their flags.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <vector>

namespace arch {

using FlagId = uint16_t;

class FlagList {
public:
    using value_type = FlagId;
    using iterator = FlagId*;
    using const_iterator = const FlagId*;
    using size_type = size_t;
    static constexpr uint32_t kInline = 8;

    FlagList() = default;
    FlagList(std::initializer_list<FlagId> flags) { append(flags.begin(), flags.size()); }
    FlagList(const std::vector<FlagId>& flags) { append(flags.data(), flags.size()); }  // NOLINT: as a vector
    FlagList(const FlagList& o) { append(o.data(), o.size_); }
    FlagList(FlagList&& o) noexcept { take(o); }
    FlagList& operator=(const FlagList& o) {
        if (this != &o) {
            size_ = 0;
            append(o.data(), o.size_);
        }
        return *this;
    }
    FlagList& operator=(FlagList&& o) noexcept {
        if (this != &o) {
            release();
            take(o);
        }
        return *this;
    }
    ~FlagList() { release(); }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    FlagId* data() { return on_heap() ? heap_ : inline_; }
    const FlagId* data() const { return on_heap() ? heap_ : inline_; }
    iterator begin() { return data(); }
    iterator end() { return data() + size_; }
    const_iterator begin() const { return data(); }
    const_iterator end() const { return data() + size_; }
    FlagId& operator[](size_t i) { return data()[i]; }
    FlagId operator[](size_t i) const { return data()[i]; }
    FlagId at(size_t i) const {
        if (i >= size_) throw std::out_of_range("FlagList::at");
        return data()[i];
    }

    void clear() { size_ = 0; }
    void push_back(FlagId f) {
        reserve(size_ + 1);
        data()[size_++] = f;
    }
    FlagId& emplace_back() {
        push_back(0);
        return data()[size_ - 1];
    }
    // Grows with zeros or shrinks.
    void resize(size_t n) {
        reserve(n);
        if (n > size_) std::fill(data() + size_, data() + n, FlagId{0});
        size_ = uint32_t(n);
    }
    iterator insert(const_iterator pos, FlagId f) {
        const size_t at = size_t(pos - data());
        reserve(size_ + 1);
        FlagId* d = data();
        std::memmove(d + at + 1, d + at, (size_ - at) * sizeof(FlagId));
        d[at] = f;
        ++size_;
        return d + at;
    }

    friend bool operator==(const FlagList& a, const FlagList& b) {
        return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
    }
    friend bool operator!=(const FlagList& a, const FlagList& b) { return !(a == b); }

private:
    bool on_heap() const { return capacity_ > kInline; }
    void reserve(size_t n) {
        if (n <= capacity_) return;
        const uint32_t grown = uint32_t(std::max<size_t>(n, size_t(capacity_) * 2));
        FlagId* bigger = new FlagId[grown];
        std::memcpy(bigger, data(), size_ * sizeof(FlagId));
        release();
        heap_ = bigger;
        capacity_ = grown;
    }
    void append(const FlagId* flags, size_t n) {
        if (!n) return;  // `flags` may be null then (an empty vector's data()), which memcpy may not take
        reserve(size_ + n);
        std::memcpy(data() + size_, flags, n * sizeof(FlagId));
        size_ += uint32_t(n);
    }
    void release() {
        if (on_heap()) delete[] heap_;
        capacity_ = kInline;
    }
    void take(FlagList& o) {
        size_ = o.size_;
        capacity_ = o.capacity_;
        if (o.on_heap()) heap_ = o.heap_;
        else std::memcpy(inline_, o.inline_, sizeof(inline_));
        o.size_ = 0;
        o.capacity_ = kInline;
    }

    uint32_t size_ = 0;
    uint32_t capacity_ = kInline;  // above kInline: the flags are on the heap
    union {
        FlagId inline_[kInline] = {};
        FlagId* heap_;
    };
};

}  // namespace arch
