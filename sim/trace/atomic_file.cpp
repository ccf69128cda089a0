#include "sim/trace/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <unistd.h>

namespace trace {

namespace {

// Opens the temporary file, lets `write` fill it (false on a failed write),
// then renames it over `path`; on any failure (or exception) removes it.
void with_temporary(const std::string& path, const std::function<bool(std::FILE*)>& write) {
    std::string tmp = path + ".tmp." + std::to_string(::getpid());
    auto fail = [&](const char* what) {
        std::string reason = std::strerror(errno);
        std::remove(tmp.c_str());
        throw std::runtime_error(path + ": cannot " + what + ": " + reason);
    };
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) fail("write");
    bool ok = false;
    try {
        ok = write(f);
    } catch (...) {
        std::fclose(f);
        std::remove(tmp.c_str());
        throw;
    }
    ok = (std::fclose(f) == 0) && ok;
    if (!ok) fail("write");
    if (std::rename(tmp.c_str(), path.c_str()) != 0) fail("rename into place");
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
    with_temporary(path, [&](std::FILE* f) { return std::fwrite(content.data(), 1, content.size(), f) == content.size(); });
}

void write_file_atomically(const std::string& path, const std::function<void(TextOut&)>& fill) {
    with_temporary(path, [&](std::FILE* f) {
        std::setvbuf(f, nullptr, _IONBF, 0);  // TextOut buffers: chunks go straight to write(2)
        bool ok = true;
        TextOut out([&](std::string_view chunk) {
            ok = ok && std::fwrite(chunk.data(), 1, chunk.size(), f) == chunk.size();
        });
        fill(out);
        out.flush();
        return ok;
    });
}

}  // namespace trace
