#include "sim/arch/spool_file.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include "sim/arch/environment_error.h"

namespace arch {

namespace {

// Pending bytes are written in pieces of about this size: small enough to
// stay in the caches and to be allocated once (a buffer grown to megabytes
// by doubling cost more in copies and page faults than the writes).
constexpr size_t kWriteBytes = size_t(256) << 10;

}  // namespace

SpoolFile::SpoolFile() {
    const char* tmpdir = std::getenv("TMPDIR");
    dir_ = tmpdir && *tmpdir ? tmpdir : "/tmp";
    std::string path = dir_ + "/davinci-sim-spool-XXXXXX";
    fd_ = ::mkstemp(path.data());
    if (fd_ < 0) fail("create");
    ::unlink(path.c_str());
}

SpoolFile::~SpoolFile() {
    if (fd_ >= 0) ::close(fd_);
}

void SpoolFile::fail(const char* what) const {
    throw EnvironmentError(
        std::string("cannot ") + what + " a temporary file in " + dir_ +
        " (large results are spooled there; set TMPDIR to choose another directory): " + std::strerror(errno));
}

size_t SpoolFile::append(std::string_view bytes) {
    if (pending_.capacity() < kWriteBytes) pending_.reserve(kWriteBytes);
    if (pending_.size() + bytes.size() > kWriteBytes) flush();
    pending_.append(bytes);
    offset_.push_back(offset_.back() + bytes.size());
    if (pending_.size() >= kWriteBytes) flush();
    return offset_.size() - 2;
}

void SpoolFile::flush() {
    const char* p = pending_.data();
    size_t left = pending_.size();
    while (left > 0) {
        const ssize_t n = ::write(fd_, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("write");
        p += n;
        left -= size_t(n);
    }
    pending_.clear();
}

void SpoolFile::read(size_t i, std::string& out) {
    if (!pending_.empty()) flush();
    const uint64_t at = offset_[i], size = offset_[i + 1] - offset_[i];
    out.resize(size_t(size));
    for (uint64_t done = 0; done < size;) {
        const ssize_t n = ::pread(fd_, out.data() + done, size_t(size - done), off_t(at + done));
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) errno = EIO;  // the file is shorter than its index says
        if (n <= 0) fail("read");
        done += uint64_t(n);
    }
}

}  // namespace arch
