// Output files appear complete or not at all: written to a temporary name
// beside the target, then renamed over it. A file whose name ends in ".gz"
// is written gzip-compressed (sim/trace/gzip_stream.h).
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <string>

#include "sim/trace/gzip_stream.h"
#include "sim/trace/text_out.h"

namespace trace {

// Throws arch::EnvironmentError("PATH: cannot write: <reason>") on failure.
void write_file_atomically(const std::string& path, const std::string& content);

// The same for a large file: `fill` writes the content to a TextOut that
// streams it to the temporary file in chunks. If `fill` throws, the
// temporary file is removed and the exception passes on.
void write_file_atomically(const std::string& path, const std::function<void(TextOut&)>& fill);

// The same for a file written while the simulation runs (the timing CSV):
// open it before, write to out() as results come, commit() at the end. A
// file never committed (an error, a run stopped by --max-cycles) is removed
// when the object goes.
class AtomicFile {
public:
    explicit AtomicFile(std::string path);  // throws as above
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    TextOut& out() { return out_; }
    void commit();

private:
    [[noreturn]] void fail(const char* what);
    void write_raw(std::string_view bytes);

    std::string path_, tmp_;
    std::FILE* file_ = nullptr;
    bool ok_ = true;                    // every chunk written so far
    std::unique_ptr<GzipStream> gzip_;  // for a ".gz" path: out_'s chunks pass through it
    TextOut out_;
};

}  // namespace trace
