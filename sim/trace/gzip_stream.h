// Gzip compression of a stream of chunks (RFC 1952, through zlib's
// deflate), for output files whose name ends in ".gz": a Chrome trace of a
// large run shrinks about tenfold and Perfetto opens it as it is. The
// header carries no file name and a modification time of 0, so the same
// content always gives the same bytes.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace trace {

// Whether `path` names a gzip file (ends in ".gz").
bool gzip_path(const std::string& path);

class GzipStream {
public:
    // `emit` receives the compressed bytes, in order.
    explicit GzipStream(std::function<void(std::string_view)> emit);
    ~GzipStream();
    GzipStream(const GzipStream&) = delete;
    GzipStream& operator=(const GzipStream&) = delete;

    void write(std::string_view chunk);
    // Ends the stream (the trailer: CRC and length); write() after it is an error.
    void finish();

private:
    struct State;
    void deflate_all(int flush);

    std::function<void(std::string_view)> emit_;
    std::unique_ptr<State> state_;
    bool finished_ = false;
};

}  // namespace trace
