// A strict reader of Value Change Dumps (IEEE 1364 §18), for the traces
// --vcd writes and for what GTKWave's fst2vcd gives back. It reads
// whitespace-separated tokens, so a declaration may span lines, and fails
// the calling test (gtest assertions) on anything out of order:
//
// * header: optional $date / $version / $comment, then $timescale exactly
//   once (1, 10 or 100 of s, ms, us, ns, ps, fs), then $scope / $var /
//   $upscope, balanced, every $var inside a scope; then $enddefinitions;
// * $var: a known type, a positive width (1 for a wire), an identifier
//   declared once, a hierarchical name declared once;
// * after the header: timestamps `#N` strictly increasing; one $dumpvars
//   block at the first timestamp giving every variable its initial value;
//   value changes only after a timestamp, only of declared identifiers:
//   a scalar `0ID` / `1ID` for width 1, a vector `bBITS ID` of 0s and 1s
//   no wider than the declared width.
//
// Call as ASSERT_NO_FATAL_FAILURE(check_vcd(text, &vcd)).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace clitest {

struct VcdVar {
    std::string type, name;  // name: the dotted scope path and the variable, "cluster0.dma0.busy"
    int width = 0;
};

struct Vcd {
    std::string timescale;               // "1ns"
    std::map<std::string, VcdVar> vars;  // by identifier
    std::vector<std::string> order;      // hierarchical names, in declaration order
    // Per hierarchical name: (time, value), the initial value at the first timestamp first.
    std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> changes;
    uint64_t last_time = 0;
};

inline void check_vcd(const std::string& text, Vcd* out) {
    std::istringstream in(text);
    std::vector<std::string> tok;
    for (std::string t; in >> t;) tok.push_back(t);
    size_t i = 0;
    // The words of a declaration command up to its $end.
    auto body = [&](const std::string& cmd) {
        std::vector<std::string> words;
        for (++i; i < tok.size() && tok[i] != "$end"; ++i) words.push_back(tok[i]);
        if (i >= tok.size()) ADD_FAILURE() << cmd << " without $end";
        ++i;
        return words;
    };
    Vcd vcd;
    std::vector<std::string> scope;
    std::set<std::string> names;
    bool timescale = false;
    for (;;) {
        ASSERT_LT(i, tok.size()) << "no $enddefinitions";
        const std::string cmd = tok[i];
        if (cmd == "$date" || cmd == "$version" || cmd == "$comment") {
            ASSERT_TRUE(!timescale || cmd == "$comment") << cmd << " after $timescale";
            body(cmd);
        } else if (cmd == "$timescale") {
            ASSERT_FALSE(timescale) << "second $timescale";
            std::vector<std::string> w = body(cmd);
            std::string ts;
            for (const std::string& s : w) ts += s;
            static const std::set<std::string> valid = [] {
                std::set<std::string> v;
                for (const char* n : {"1", "10", "100"})
                    for (const char* u : {"s", "ms", "us", "ns", "ps", "fs"}) v.insert(std::string(n) + u);
                return v;
            }();
            ASSERT_TRUE(valid.count(ts)) << "bad $timescale " << ts;
            vcd.timescale = ts;
            timescale = true;
        } else if (cmd == "$scope") {
            ASSERT_TRUE(timescale) << "$scope before $timescale";
            std::vector<std::string> w = body(cmd);
            ASSERT_EQ(w.size(), 2u) << "$scope TYPE NAME $end";
            ASSERT_TRUE(w[0] == "module" || w[0] == "task" || w[0] == "function" || w[0] == "begin" || w[0] == "fork")
                << "scope type " << w[0];
            scope.push_back(w[1]);
        } else if (cmd == "$upscope") {
            ASSERT_TRUE(body(cmd).empty());
            ASSERT_FALSE(scope.empty()) << "$upscope without $scope";
            scope.pop_back();
        } else if (cmd == "$var") {
            ASSERT_FALSE(scope.empty()) << "$var outside any scope";
            std::vector<std::string> w = body(cmd);
            ASSERT_EQ(w.size(), 4u) << "$var TYPE WIDTH ID NAME $end";
            static const std::set<std::string> types = {"wire", "reg", "integer", "parameter", "real", "tri"};
            ASSERT_TRUE(types.count(w[0])) << "var type " << w[0];
            int width = std::stoi(w[1]);
            ASSERT_GT(width, 0) << w[3];
            if (w[0] == "wire") {
                ASSERT_EQ(width, 1) << w[3];
            }
            std::string name;
            for (const std::string& s : scope) name += s + ".";
            name += w[3];
            ASSERT_TRUE(names.insert(name).second) << "variable declared twice: " << name;
            ASSERT_TRUE(vcd.vars.emplace(w[2], VcdVar{w[0], name, width}).second)
                << "identifier declared twice: " << w[2];
            vcd.order.push_back(name);
        } else if (cmd == "$enddefinitions") {
            ASSERT_TRUE(body(cmd).empty());
            ASSERT_TRUE(scope.empty()) << "unbalanced $scope";
            ASSERT_TRUE(timescale) << "no $timescale";
            ASSERT_FALSE(vcd.vars.empty()) << "no variables";
            break;
        } else {
            FAIL() << "unexpected " << cmd << " in the header";
        }
    }
    bool have_time = false, in_dumpvars = false, dumped = false;
    std::set<std::string> initialised;
    auto change = [&](const std::string& id, const std::string& bits, bool vector) {
        ASSERT_TRUE(have_time) << "value before the first timestamp: " << bits << id;
        auto v = vcd.vars.find(id);
        ASSERT_NE(v, vcd.vars.end()) << "undeclared identifier " << id;
        ASSERT_FALSE(bits.empty());
        ASSERT_EQ(bits.find_first_not_of("01"), std::string::npos) << "value " << bits << " of " << v->second.name;
        if (vector) {
            ASSERT_LE(int(bits.size()), v->second.width) << "b" << bits << " wider than " << v->second.name;
            ASSERT_LE(bits.size(), 64u);
        } else {
            ASSERT_EQ(v->second.width, 1) << "scalar change of the vector " << v->second.name;
        }
        uint64_t value = 0;
        for (char c : bits) value = value * 2 + uint64_t(c - '0');
        if (in_dumpvars) initialised.insert(id);
        vcd.changes[v->second.name].push_back({vcd.last_time, value});
    };
    for (; i < tok.size(); ++i) {
        const std::string& t = tok[i];
        if (t[0] == '#') {
            ASSERT_FALSE(in_dumpvars) << "timestamp inside $dumpvars";
            ASSERT_EQ(t.find_first_not_of("0123456789", 1), std::string::npos) << t;
            ASSERT_GT(t.size(), 1u) << t;
            uint64_t time = std::stoull(t.substr(1));
            ASSERT_TRUE(!have_time || time > vcd.last_time)
                << "time must increase: " << t << " after " << vcd.last_time;
            vcd.last_time = time;
            have_time = true;
        } else if (t == "$dumpvars") {
            ASSERT_FALSE(dumped) << "second $dumpvars";
            ASSERT_TRUE(have_time) << "$dumpvars before the first timestamp";
            ASSERT_TRUE(vcd.changes.empty()) << "$dumpvars after value changes";
            in_dumpvars = dumped = true;
        } else if (t == "$end") {
            ASSERT_TRUE(in_dumpvars) << "stray $end";
            in_dumpvars = false;
        } else if (t[0] == 'b' || t[0] == 'B') {
            ASSERT_LT(i + 1, tok.size()) << t << " without an identifier";
            ASSERT_NO_FATAL_FAILURE(change(tok[i + 1], t.substr(1), true));
            ++i;
        } else if (t[0] == '0' || t[0] == '1') {
            ASSERT_NO_FATAL_FAILURE(change(t.substr(1), t.substr(0, 1), false));
        } else {
            FAIL() << "unexpected " << t << " after the header";
        }
    }
    ASSERT_FALSE(in_dumpvars) << "$dumpvars without $end";
    ASSERT_TRUE(dumped) << "no $dumpvars";
    ASSERT_EQ(initialised.size(), vcd.vars.size()) << "every variable needs an initial value in $dumpvars";
    *out = std::move(vcd);
}

}  // namespace clitest
