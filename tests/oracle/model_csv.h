// The SystemC model's side of an oracle comparison: a scratch directory, and
// the per-command timings the real davinci-sim binary wrote with
// --timing-csv, keyed like the oracle's.
#pragma once

#include <gtest/gtest.h>

#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace oracle_test {

// A scratch directory, removed at the end unless keep() was called (to
// leave a failing case's files for reproduction).
class TempDir {
public:
    explicit TempDir(const std::string& prefix = "oracle_test") {
        std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        if (!keep_) std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string file(const std::string& name, const std::string& text) const {
        std::string p = path(name);
        std::ofstream(p) << text;
        return p;
    }
    std::string path(const std::string& name) const { return (path_ / name).string(); }
    void keep() { keep_ = true; }

private:
    std::filesystem::path path_;
    bool keep_ = false;
};

inline std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct CsvRow {
    uint32_t cluster = 0;
    uint64_t start = 0, end = 0;
    uint64_t link_wait = 0;
};
using CsvKey = std::tuple<uint32_t, std::string, uint32_t>;  // block, engine name, index

// Parses block,cluster,engine,index,start,end,command_kind,tag,op,task,link_wait,schema_version
// (the tag may hold commas, so only the first six fields are split, and
// link_wait is the one before the last).
inline std::map<CsvKey, CsvRow> parse_timing_csv(const std::string& text) {
    std::map<CsvKey, CsvRow> rows;
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "block,cluster,engine,index,start,end,command_kind,tag,op,task,link_wait,schema_version");
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        std::vector<std::string> f;
        size_t pos = 0;
        for (int i = 0; i < 6; ++i) {
            size_t comma = line.find(',', pos);
            if (comma == std::string::npos) {
                ADD_FAILURE() << "bad CSV line: " << line;
                return rows;
            }
            f.push_back(line.substr(pos, comma - pos));
            pos = comma + 1;
        }
        const size_t last = line.rfind(','), before = line.rfind(',', last - 1);
        CsvKey k{uint32_t(std::stoul(f[0])), f[2], uint32_t(std::stoul(f[3]))};
        CsvRow r{uint32_t(std::stoul(f[1])), std::stoull(f[4]), std::stoull(f[5]),
                 std::stoull(line.substr(before + 1, last - before - 1))};
        EXPECT_TRUE(rows.emplace(k, r).second) << "duplicate CSV row: " << line;
    }
    return rows;
}

}  // namespace oracle_test
