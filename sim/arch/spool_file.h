// An anonymous temporary file that pieces of bytes are appended to and read
// back from by number: where the simulator keeps what would otherwise grow
// with the program (the compiled blocks, sim/arch/block_spool.h; the
// profile's command records, sim/trace/profile.h). The file lives in
// $TMPDIR (else /tmp) and is unlinked at once, so nothing is left behind
// however the process ends. Writes are batched; a read sees every append.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace arch {

class SpoolFile {
public:
    SpoolFile();  // throws EnvironmentError when no temporary file can be made
    ~SpoolFile();
    SpoolFile(const SpoolFile&) = delete;
    SpoolFile& operator=(const SpoolFile&) = delete;

    // Appends a piece; returns its number (0, 1, ...).
    size_t append(std::string_view bytes);
    size_t pieces() const { return offset_.size() - 1; }
    uint64_t bytes() const { return offset_.back(); }
    // Piece `i` into `out` (replacing its contents).
    void read(size_t i, std::string& out);

private:
    void flush();
    [[noreturn]] void fail(const char* what) const;

    int fd_ = -1;
    std::string dir_;                  // where the file is, for messages
    std::string pending_;              // appended, not yet written
    std::vector<uint64_t> offset_{0};  // piece i is [offset_[i], offset_[i + 1])
};

}  // namespace arch
