#include "sim/arch/vector_source.h"

#include "sim/arch/isa_fields.h"

#include <sstream>
#include <type_traits>

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
