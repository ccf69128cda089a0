#include "sim/arch/block_spool.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

#include "sim/arch/block_codec.h"

namespace arch {

namespace {

// Encoded blocks are written in pieces of about this size.
constexpr size_t kWriteBytes = size_t(4) << 20;

[[noreturn]] void io_error(const std::string& what, const std::string& dir) {
    throw std::runtime_error("cannot " + what + " a temporary file in " + dir + " (the compiled program is spooled "
                             "there; set TMPDIR to choose another directory): " + std::strerror(errno));
}

}  // namespace

BlockSpool::BlockSpool() {
    const char* tmpdir = std::getenv("TMPDIR");
    dir_ = tmpdir && *tmpdir ? tmpdir : "/tmp";
    std::string path = dir_ + "/davinci-sim-program-XXXXXX";
    fd_ = ::mkstemp(path.data());
    if (fd_ < 0) io_error("create", dir_);
    ::unlink(path.c_str());
}

BlockSpool::~BlockSpool() {
    if (fd_ >= 0) ::close(fd_);
}

void BlockSpool::append(const Block& b) {
    const size_t before = pending_.size();
    encode_block(b, pending_);
    offset_.push_back(offset_.back() + (pending_.size() - before));
    info_.push_back(dispatch_info(b));
    if (pending_.size() >= kWriteBytes) flush();
}

void BlockSpool::flush() {
    const char* p = pending_.data();
    size_t left = pending_.size();
    while (left > 0) {
        const ssize_t n = ::write(fd_, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) io_error("write", dir_);
        p += n;
        left -= size_t(n);
    }
    pending_.clear();
}

const Block& BlockSpool::acquire(size_t b) {
    if (!pending_.empty()) flush();
    const uint64_t at = offset_[b], size = offset_[b + 1] - offset_[b];
    read_buffer_.resize(size_t(size));
    for (uint64_t done = 0; done < size;) {
        const ssize_t n = ::pread(fd_, read_buffer_.data() + done, size_t(size - done), off_t(at + done));
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) errno = EIO;  // the file is shorter than its index says
        if (n <= 0) io_error("read", dir_);
        done += uint64_t(n);
    }
    auto& slot = loaded_[b];
    slot = std::make_unique<Block>(decode_block(read_buffer_.data(), read_buffer_.size()));
    return *slot;
}

}  // namespace arch
