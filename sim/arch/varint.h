// LEB128 varints (and zigzag for signed numbers) over a byte string: the
// compact form of what the simulator spools to disk (sim/arch/spool_file.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace arch {

class VarintWriter {
public:
    explicit VarintWriter(std::string& out) : out_(out) {}
    void u(uint64_t v) {
        while (v >= 0x80) {
            out_.push_back(char(uint8_t(v) | 0x80));
            v >>= 7;
        }
        out_.push_back(char(v));
    }
    // Zigzag, so small negative numbers stay short.
    void s(int64_t v) { u((uint64_t(v) << 1) ^ uint64_t(v >> 63)); }
    void f(double v) {
        char raw[sizeof v];
        std::memcpy(raw, &v, sizeof v);
        out_.append(raw, sizeof v);
    }
    void str(const std::string& v) {
        u(v.size());
        out_ += v;
    }

private:
    std::string& out_;
};

class VarintReader {
public:
    VarintReader(const char* data, size_t size) : p_(data), end_(data + size) {}
    uint64_t u() {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p_ == end_) corrupt();
            const uint8_t byte = uint8_t(*p_++);
            v |= uint64_t(byte & 0x7f) << shift;
            if (!(byte & 0x80)) return v;
        }
        corrupt();
    }
    int64_t s() {
        const uint64_t v = u();
        return int64_t(v >> 1) ^ -int64_t(v & 1);
    }
    double f() {
        double v;
        if (size_t(end_ - p_) < sizeof v) corrupt();
        std::memcpy(&v, p_, sizeof v);
        p_ += sizeof v;
        return v;
    }
    std::string str() {
        const uint64_t n = u();
        if (n > uint64_t(end_ - p_)) corrupt();
        std::string v(p_, size_t(n));
        p_ += n;
        return v;
    }
    // A count of items that take at least one byte each.
    size_t count() {
        const uint64_t n = u();
        if (n > uint64_t(end_ - p_)) corrupt();
        return size_t(n);
    }
    bool at_end() const { return p_ == end_; }
    [[noreturn]] static void corrupt() { throw std::runtime_error("spooled data is corrupt"); }

private:
    const char* p_;
    const char* end_;
};

}  // namespace arch
