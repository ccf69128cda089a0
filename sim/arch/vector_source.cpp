#include "sim/arch/vector_source.h"

#include "sim/arch/isa_fields.h"

#include <sstream>
#include <type_traits>
#include <vector>

namespace arch {

// Equal when they read the same elements: the same kind and the same
// fields of that kind (isa_fields.def's `write` column says which).
bool VectorSource::operator==(const VectorSource& o) const {
    bool same = kind == o.kind;
    isa::for_each_field_pair(*this, o, [&](const isa::Field& f, const auto& a, const auto& b) {
        if constexpr (std::is_same_v<std::decay_t<decltype(a)>, Window>) {
            if (isa::written(f, a, b, kind))
                isa::for_each_field_pair(
                    a, b, [&](const isa::Field&, const auto& x, const auto& y) { same = same && x == y; });
        } else {
            if (isa::written(f, a, b, kind)) same = same && a == b;
        }
    });
    return same;
}

uint64_t source_elements_reached(const VectorSource& s, uint64_t elements) {
    if (s.kind != VectorSource::Kind::Strided || elements == 0 || s.dims.empty() || s.dims.size() != s.strides.size())
        return elements;
    for (size_t k = 0; k < s.dims.size(); ++k)
        if (s.strides[k] < 0 || s.dims[k] == 0) return elements;
    // The digits of the first and the last element number, most significant
    // first. Above the first digit where they differ, every element has the
    // same digits; at it, at most the last one's; below it, anything.
    const size_t n = s.dims.size();
    std::vector<uint64_t> lo(n), hi(n);
    uint64_t a = s.first, b = s.first + elements - 1;
    for (size_t k = n; k-- > 0;) {
        lo[k] = a % s.dims[k], hi[k] = b % s.dims[k];
        a /= s.dims[k], b /= s.dims[k];
    }
    if (a != b) {  // past the whole shape: it wraps, and can reach any offset
        uint64_t full = 0;
        for (size_t k = 0; k < n; ++k) full += (s.dims[k] - 1) * uint64_t(s.strides[k]);
        return full + 1;
    }
    uint64_t reach = 0;
    bool below = false;
    for (size_t k = 0; k < n; ++k) {
        const uint64_t digit = below ? s.dims[k] - 1 : hi[k];
        reach += digit * uint64_t(s.strides[k]);
        below = below || lo[k] != hi[k];
    }
    return reach + 1;
}

const VectorSource& contiguous_source() {
    static const VectorSource contiguous;
    return contiguous;
}

std::string format_vector_source(const VectorSource& s) {
    std::ostringstream os;
    switch (s.kind) {
    case VectorSource::Kind::Contiguous: break;
    case VectorSource::Kind::Scalar: os << " #" << s.scalar; break;
    case VectorSource::Kind::Strided:
        os << " view ";
        for (size_t k = 0; k < s.dims.size(); ++k) os << (k ? "x" : "") << s.dims[k];
        os << " strides ";
        for (size_t k = 0; k < s.strides.size(); ++k) os << (k ? "," : "") << s.strides[k];
        if (s.first) os << " from " << s.first;
        break;
    case VectorSource::Kind::Window: {
        const VectorSource::Window& w = s.window;
        os << " window (" << w.ki << "," << w.kj << ") of " << w.height << "x" << w.width << "x" << w.depth << " /s"
           << w.stride_h << "," << w.stride_w << "/p" << w.pad_h << "," << w.pad_w << " oh " << w.out_h << " at "
           << w.origin << " fill " << w.fill;
        break;
    }
    }
    return os.str();
}

}  // namespace arch
