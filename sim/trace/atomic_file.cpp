#include "sim/trace/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <unistd.h>

namespace trace {

void write_file_atomically(const std::string& path, const std::string& content) {
    std::string tmp = path + ".tmp." + std::to_string(::getpid());
    auto fail = [&](const char* what) {
        std::string reason = std::strerror(errno);
        std::remove(tmp.c_str());
        throw std::runtime_error(path + ": cannot " + what + ": " + reason);
    };
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) fail("write");
    bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
    ok = (std::fclose(f) == 0) && ok;
    if (!ok) fail("write");
    if (std::rename(tmp.c_str(), path.c_str()) != 0) fail("rename into place");
}

}  // namespace trace
