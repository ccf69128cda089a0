#include "sim/arch/json_text.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>
#include <vector>

namespace arch {

namespace {

using nlohmann::json;

// Line and column (1-based) of the byte nlohmann stopped at. `byte` counts the
// characters read, so the offending one is at index byte-1; past the end it
// points just after the last character.
std::string line_col(const std::string& text, std::size_t byte) {
    const std::size_t at = std::min(byte - 1, text.size());
    std::size_t line = 1, line_start = 0;
    for (std::size_t i = 0; i < at; ++i)
        if (text[i] == '\n') {
            ++line;
            line_start = i + 1;
        }
    return std::to_string(line) + ":" + std::to_string(at - line_start + 1);
}

// Length of the well-formed UTF-8 sequence at s[i] (1-4), or 0 if there is none.
std::size_t utf8_length(const std::string& s, std::size_t i) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
    return n;
}

// nlohmann quotes the bytes it read last, which in a bad file may be control
// characters or broken UTF-8: a message must print cleanly on any
// terminal, so those are written as <FF>.
std::string printable(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = utf8_length(s, i);
        const auto b = static_cast<unsigned char>(s[i]);
        if (n == 0 || b < 0x20 || b == 0x7F) {
            static const char* const hex = "0123456789ABCDEF";
            out += {'<', hex[b >> 4], hex[b & 0xF], '>'};
            ++i;
        } else {
            out.append(s, i, n);
            i += n;
        }
    }
    return out;
}

// nlohmann's message without "[json.exception.parse_error.101] " and
// "parse error at line 1, column 2: " (we print our own position).
std::string short_reason(std::string msg) {
    if (!msg.empty() && msg[0] == '[') {
        const auto close = msg.find("] ");
        if (close != std::string::npos) msg.erase(0, close + 2);
    }
    if (msg.compare(0, 11, "parse error") == 0) {
        const auto colon = msg.find(": ");
        if (colon != std::string::npos) msg.erase(0, colon + 2);
    }
    std::replace(msg.begin(), msg.end(), '\n', ' ');
    return printable(msg);
}

// Re-parses a text known to be bad, only to learn where: parse errors carry a
// byte position, but a number overflow (out_of_range.406) is thrown without
// one, while the SAX interface reports a position for both.
struct ErrorLocator : json::json_sax_t {
    std::size_t byte = 0;
    std::string what;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string&, const json::exception& ex) override {
        byte = position;
        what = ex.what();
        return false;
    }
};

struct DuplicateKey {
    std::string path;
};

// Follows the parser's position through nested objects and arrays, so that
// a duplicate key is named by its full path ("cube.l0_kib",
// "blocks[0].streams[1].engine"), the way the loaders name every other key.
class KeyTracker {
public:
    bool operator()(int, json::parse_event_t event, json& parsed) {
        switch (event) {
        case json::parse_event_t::object_start: frames_.push_back({false, 0, {}, {}}); break;
        case json::parse_event_t::array_start: frames_.push_back({true, 0, {}, {}}); break;
        case json::parse_event_t::key: {
            Frame& top = frames_.back();
            top.key = parsed.get<std::string>();
            if (!top.keys.insert(top.key).second) throw DuplicateKey{path()};
            break;
        }
        case json::parse_event_t::object_end:
        case json::parse_event_t::array_end:
            frames_.pop_back();
            advance();
            break;
        case json::parse_event_t::value: advance(); break;
        }
        return true;
    }

private:
    struct Frame {
        bool array;
        std::size_t index;
        std::set<std::string> keys;
        std::string key;
    };

    void advance() {
        if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    }

    std::string path() const {
        std::string p;
        for (const Frame& f : frames_) {
            if (f.array) p += "[" + std::to_string(f.index) + "]";
            else p += (p.empty() ? "" : ".") + f.key;
        }
        return p;
    }

    std::vector<Frame> frames_;
};

}  // namespace

json parse_json_text(const std::string& text, const std::string& origin) {
    try {
        return json::parse(text, KeyTracker());
    } catch (const DuplicateKey& d) {
        throw JsonTextError(origin + ": " + printable(d.path) + ": duplicate key (given twice in one object)");
    } catch (const json::exception& e) {
        ErrorLocator locator;
        json::sax_parse(text, &locator);
        const std::string where = locator.byte > 0 ? origin + ":" + line_col(text, locator.byte) : origin;
        const std::string reason = locator.what.empty() ? e.what() : locator.what;
        throw JsonTextError(where + ": invalid JSON: " + short_reason(reason));
    }
}

std::string read_json_file(const std::string& path) {
    std::error_code ec;
    std::ifstream in;
    // A directory opens fine as an ifstream on Linux and then reads nothing.
    if (!std::filesystem::is_directory(path, ec)) in.open(path, std::ios::binary);
    if (!in.is_open()) throw JsonTextError(path + ": cannot open file");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) throw JsonTextError(path + ": cannot open file");
    return buffer.str();
}

}  // namespace arch
