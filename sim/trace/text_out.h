// The text buffer the large trace writers (Chrome trace, VCD) append to:
// strings and integers (std::to_chars, no locale, no temporaries), handed
// to a sink in chunks of about a megabyte, so a trace of tens of megabytes
// is never held in memory whole. Without a sink it keeps everything (str()).
#pragma once

#include <charconv>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>

namespace trace {

class TextOut {
public:
    using Sink = std::function<void(std::string_view)>;
    static constexpr size_t kChunk = size_t(1) << 20;

    explicit TextOut(Sink sink = {}) : sink_(std::move(sink)) { buf_.reserve(sink_ ? kChunk + 4096 : 0); }

    TextOut& operator<<(std::string_view v) {
        buf_.append(v);
        if (sink_ && buf_.size() >= kChunk) flush();
        return *this;
    }
    TextOut& operator<<(const char* v) { return *this << std::string_view(v); }
    TextOut& operator<<(const std::string& v) { return *this << std::string_view(v); }
    TextOut& operator<<(char c) {
        buf_ += c;
        return *this;
    }
    template <class T,
              std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, char> && !std::is_same_v<T, bool>, int> = 0>
    TextOut& operator<<(T v) {
        char digits[24];
        auto r = std::to_chars(digits, digits + sizeof digits, v);
        return *this << std::string_view(digits, size_t(r.ptr - digits));
    }

    // Hands what is buffered to the sink (a no-op without one).
    void flush() {
        if (!sink_ || buf_.empty()) return;
        sink_(buf_);
        buf_.clear();
    }
    // Everything written, when there is no sink.
    const std::string& str() const { return buf_; }

private:
    Sink sink_;
    std::string buf_;
};

}  // namespace trace
