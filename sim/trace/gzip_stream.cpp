#include "sim/trace/gzip_stream.h"

#include <algorithm>
#include <stdexcept>

#include <zlib.h>

namespace trace {

struct GzipStream::State {
    z_stream z{};
    char out[1 << 16];
};

bool gzip_path(const std::string& path) { return path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0; }

GzipStream::GzipStream(std::function<void(std::string_view)> emit)
    : emit_(std::move(emit)), state_(std::make_unique<State>()) {
    // windowBits 15 + 16: a gzip wrapper; level 6, zlib's default, is about
    // as small as 9 on traces at a third of the time.
    if (deflateInit2(&state_->z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("zlib: deflateInit2 failed");
}

GzipStream::~GzipStream() { deflateEnd(&state_->z); }

void GzipStream::deflate_all(int flush) {
    z_stream& z = state_->z;
    do {
        z.next_out = reinterpret_cast<Bytef*>(state_->out);
        z.avail_out = sizeof state_->out;
        const int rc = deflate(&z, flush);
        if (rc == Z_STREAM_ERROR) throw std::runtime_error("zlib: deflate failed");
        emit_(std::string_view(state_->out, sizeof state_->out - z.avail_out));
    } while (z.avail_out == 0);
}

void GzipStream::write(std::string_view chunk) {
    if (finished_) throw std::logic_error("GzipStream::write after finish");
    z_stream& z = state_->z;
    while (!chunk.empty()) {
        // avail_in is 32 bits: feed a large chunk in parts.
        const size_t part = std::min<size_t>(chunk.size(), size_t(1) << 30);
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(chunk.data()));
        z.avail_in = uInt(part);
        deflate_all(Z_NO_FLUSH);
        chunk.remove_prefix(part);
    }
}

void GzipStream::finish() {
    if (finished_) return;
    finished_ = true;
    state_->z.avail_in = 0;
    deflate_all(Z_FINISH);
}

}  // namespace trace
