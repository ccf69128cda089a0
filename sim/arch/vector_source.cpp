#include "sim/arch/vector_source.h"

#include <sstream>

namespace arch {

bool VectorSource::operator==(const VectorSource& o) const {
    if (kind != o.kind) return false;
    switch (kind) {
    case Kind::Contiguous: return true;
    case Kind::Scalar: return scalar == o.scalar;
    case Kind::Strided: return first == o.first && dims == o.dims && strides == o.strides;
    case Kind::Window: {
        const Window &a = window, &b = o.window;
        return a.height == b.height && a.width == b.width && a.depth == b.depth && a.out_h == b.out_h &&
               a.stride_h == b.stride_h && a.stride_w == b.stride_w && a.pad_h == b.pad_h && a.pad_w == b.pad_w &&
               a.ki == b.ki && a.kj == b.kj && a.origin == b.origin && a.fill == b.fill;
    }
    }
    return false;
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
