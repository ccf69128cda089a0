// The strict reader of command program files (program_json.cpp for the
// program, block and stream objects, command_json.cpp for the commands):
// every value checked for its type and range, every message
// "ORIGIN: JSON.PATH: what" (docs/errors.md lists them all).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/arch/program_check.h"

namespace arch {

constexpr uint64_t kU16 = std::numeric_limits<uint16_t>::max();
constexpr uint64_t kU32 = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kU64 = std::numeric_limits<uint64_t>::max();

// Compact JSON for messages; `replace` so a message never throws on bad UTF-8.
inline std::string compact(const nlohmann::json& v) {
    return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

class Reader {
public:
    using json = nlohmann::json;
    explicit Reader(const std::string& origin) : origin_(origin) {}

    [[noreturn]] void fail(const std::string& path, const std::string& what) const {
        throw ProgramError(origin_ + ": " + (path.empty() ? "" : path + ": ") + what);
    }

    // The object at `path`, refusing any key not in `allowed` (a list of
    // C strings).
    template <class Keys>
    const json& object(const json& v, const std::string& path, const Keys& allowed,
                       const std::string& what = "") const {
        if (!v.is_object()) fail(path, "expected an object, got " + compact(v));
        for (const auto& item : v.items()) {
            bool known = false;
            for (const char* a : allowed) known = known || item.key() == a;
            if (!known) fail(join(path, item.key()), "unknown key" + (what.empty() ? "" : " for " + what));
        }
        return v;
    }
    const json& object(const json& v, const std::string& path, std::initializer_list<const char*> allowed,
                       const std::string& what = "") const {
        return object<std::initializer_list<const char*>>(v, path, allowed, what);
    }

    const json& array(const json& v, const std::string& path) const {
        if (!v.is_array()) fail(path, "expected an array, got " + compact(v));
        return v;
    }

    // Integers only: 4.0 is refused, as in the config loader.
    uint64_t unsigned_int(const json& v, const std::string& path, uint64_t max) const {
        if (v.is_number_unsigned() && v.get<uint64_t>() <= max) return v.get<uint64_t>();
        if (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() >= 0 &&
            uint64_t(v.get<int64_t>()) <= max)
            return uint64_t(v.get<int64_t>());
        fail(path, "expected an integer from 0 to " + std::to_string(max) + ", got " + compact(v));
    }

    int64_t signed_int(const json& v, const std::string& path) const {
        if (v.is_number_integer() && !v.is_number_unsigned()) return v.get<int64_t>();
        if (v.is_number_unsigned() && v.get<uint64_t>() <= uint64_t(std::numeric_limits<int64_t>::max()))
            return int64_t(v.get<uint64_t>());
        fail(path, "expected a 64-bit integer, got " + compact(v));
    }

    bool boolean(const json& v, const std::string& path) const {
        if (!v.is_boolean()) fail(path, "expected true or false, got " + compact(v));
        return v.get<bool>();
    }

    // A number, or the string "inf" or "-inf" (JSON has no infinities;
    // command_json.cpp writes them so).
    double real(const json& v, const std::string& path) const {
        if (v.is_string() && (v.get_ref<const std::string&>() == "inf" || v.get_ref<const std::string&>() == "-inf"))
            return v.get_ref<const std::string&>()[0] == '-' ? -std::numeric_limits<double>::infinity()
                                                             : std::numeric_limits<double>::infinity();
        if (!v.is_number()) fail(path, "expected a number, \"inf\" or \"-inf\", got " + compact(v));
        return v.get<double>();
    }

    const std::string& string(const json& v, const std::string& path) const {
        if (!v.is_string()) fail(path, "expected a string, got " + compact(v));
        return v.get_ref<const std::string&>();
    }

    // One of `count` names produced by `name_of(i)`; returns the index.
    template <typename NameOf>
    int name(const json& v, const std::string& path, int count, NameOf name_of) const {
        const std::string& s = string(v, path);
        std::string list;
        for (int i = 0; i < count; ++i) {
            if (s == name_of(i)) return i;
            list += std::string(i ? ", " : "") + name_of(i);
        }
        fail(path, "unknown value " + compact(v) + " (expected one of: " + list + ")");
    }

    static std::string join(const std::string& path, const std::string& key) {
        return path.empty() ? key : path + "." + key;
    }
    static std::string index(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

private:
    const std::string& origin_;
};

}  // namespace arch
