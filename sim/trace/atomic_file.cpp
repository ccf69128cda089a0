#include "sim/trace/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <unistd.h>

#include "sim/arch/environment_error.h"

namespace trace {

void write_file_atomically(const std::string& path, const std::string& content) {
    AtomicFile file(path);
    file.out() << content;
    file.commit();
}

void write_file_atomically(const std::string& path, const std::function<void(TextOut&)>& fill) {
    AtomicFile file(path);
    fill(file.out());
    file.commit();
}

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)), tmp_(path_ + ".tmp." + std::to_string(::getpid())), out_([this](std::string_view chunk) {
          if (gzip_) gzip_->write(chunk);
          else write_raw(chunk);
      }) {
    if (gzip_path(path_)) gzip_ = std::make_unique<GzipStream>([this](std::string_view bytes) { write_raw(bytes); });
    file_ = std::fopen(tmp_.c_str(), "wb");
    if (!file_) fail("write");
    std::setvbuf(file_, nullptr, _IONBF, 0);  // TextOut buffers: chunks go straight to write(2)
}

AtomicFile::~AtomicFile() {
    if (!file_) return;
    std::fclose(file_);
    std::remove(tmp_.c_str());
}

void AtomicFile::fail(const char* what) {
    const std::string reason = std::strerror(errno);
    if (file_) std::fclose(file_);
    file_ = nullptr;
    std::remove(tmp_.c_str());
    throw arch::EnvironmentError(path_ + ": cannot " + what + ": " + reason);
}

void AtomicFile::write_raw(std::string_view bytes) {
    ok_ = ok_ && std::fwrite(bytes.data(), 1, bytes.size(), file_) == bytes.size();
}

void AtomicFile::commit() {
    out_.flush();
    if (gzip_) gzip_->finish();
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (!ok_ || !closed) {
        std::remove(tmp_.c_str());
        throw arch::EnvironmentError(path_ + ": cannot write: " + std::strerror(errno));
    }
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        std::remove(tmp_.c_str());
        throw arch::EnvironmentError(path_ + ": cannot rename into place: " + reason);
    }
}

}  // namespace trace
