#include "dsl/frontend/topology.h"

#include "dsl/support/line_breaks.h"

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

namespace dsl {

namespace {

std::string trim(const std::string& s) {
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    return s.substr(a, b - a);
}

std::string lower(std::string s) {
    for (char& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

// The fields of a row; SCALE-Sim's trailing comma (an empty last field) is dropped.
std::vector<std::string> fields_of(const std::string& row) {
    std::vector<std::string> f;
    std::stringstream in(row);
    for (std::string x; std::getline(in, x, ',');) f.push_back(trim(x));
    if (!row.empty() && row.back() == ',') f.push_back("");
    if (!f.empty() && f.back().empty()) f.pop_back();
    return f;
}

const char* const kConvColumns[] = {"layer name", "IFMAP height", "IFMAP width", "filter height", "filter width",
                                    "channels",   "filters",      "stride",      "stride width"};
const char* const kGemmColumns[] = {"layer name", "M", "N", "K"};

// A file may hold at most this many layers, depthwise channels counted one
// by one: each becomes an operation of the program, and a nine-digit channel
// count would otherwise ask for hundreds of millions of them (gigabytes
// before the first is compiled). SCALE-Sim's largest shipped topologies
// have a few thousand.
constexpr int64_t kMaxLayers = 65536;

}  // namespace

Topology parse_topology(const std::string& path, const std::string& text) {
    Topology t;
    t.path = path;
    int line = 0;
    bool header = false;
    auto fail = [&](const std::string& why) { throw TopologyError(path + ":" + std::to_string(line) + ": " + why); };
    for (size_t pos = 0; pos < text.size();) {
        ++line;
        size_t end = pos;
        while (end < text.size() && !is_line_break(text[end])) ++end;
        const std::string row = text.substr(pos, end - pos);
        pos = end + line_break_length(text, end);
        if (trim(row).empty()) continue;
        const std::vector<std::string> f = fields_of(row);
        if (!header) {
            // SCALE-Sim skips the first line; its second field tells the forms apart.
            header = true;
            t.gemm = f.size() > 1 && lower(f[1]) == "m";
            continue;
        }
        const size_t want = t.gemm ? 4 : 8;
        if (f.size() != want && !(!t.gemm && f.size() == 9))
            fail(std::string("expected ") +
                 (t.gemm ? "4 fields (layer name, M, N, K)"
                         : "8 fields (layer name, IFMAP height, IFMAP width, filter height, filter width, "
                           "channels, filters, stride) or 9 (and a stride width)") +
                 ", got " + std::to_string(f.size()));
        if (f[0].empty()) fail("the layer has no name");
        std::vector<int64_t> v;
        for (size_t i = 1; i < f.size(); ++i) {
            const std::string& x = f[i];
            const char* column = t.gemm ? kGemmColumns[i] : kConvColumns[i];
            if (x.empty() || x.size() > 9 || x.find_first_not_of("0123456789") != std::string::npos ||
                std::stoll(x) == 0)
                fail(std::string(column) + " must be a positive integer, got '" + x + "'");
            v.push_back(std::stoll(x));
        }
        TopologyLayer l;
        l.name = f[0], l.line = line, l.gemm = t.gemm;
        auto room_for = [&](int64_t layers) {
            if (int64_t(t.layers.size()) + layers > kMaxLayers)
                fail("too many layers: a topology holds at most " + std::to_string(kMaxLayers) +
                     " (a depthwise layer counts one per channel), and this line brings the count to " +
                     std::to_string(int64_t(t.layers.size()) + layers));
        };
        if (t.gemm) {
            room_for(1);
            l.M = v[0], l.N = v[1], l.K = v[2];
            t.layers.push_back(l);
            continue;
        }
        l.H = v[0], l.W = v[1], l.R = v[2], l.S = v[3], l.C = v[4], l.F = v[5], l.stride_h = v[6];
        l.stride_w = v.size() > 7 ? v[7] : v[6];
        if (l.R > l.H || l.S > l.W)
            fail("the " + std::to_string(l.R) + "x" + std::to_string(l.S) + " filter is larger than the " +
                 std::to_string(l.H) + "x" + std::to_string(l.W) + " input");
        // SCALE-Sim's output size: ceil((H - R + stride) / stride), no padding.
        const int64_t oh = (l.H - l.R + 2 * l.stride_h - 1) / l.stride_h;
        const int64_t ow = (l.W - l.S + 2 * l.stride_w - 1) / l.stride_w;
        l.M = oh * ow, l.N = l.F;
        if (l.name.find("DP") == std::string::npos) {
            l.K = l.R * l.S * l.C;
            room_for(1);
            t.layers.push_back(l);
            continue;
        }
        // Depthwise, as SCALE-Sim splits it: one single-channel layer per channel.
        const int64_t channels = l.C;
        room_for(channels);
        l.C = 1, l.K = l.R * l.S;
        for (int64_t c = 0; c < channels; ++c) {
            TopologyLayer d = l;
            d.name = l.name + "Channel_" + std::to_string(c);
            t.layers.push_back(d);
        }
    }
    if (!header) throw TopologyError(path + ": empty: expected a header line, then one layer per line");
    if (t.layers.empty()) throw TopologyError(path + ": no layers after the header line");
    return t;
}

Topology read_topology(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw TopologyError(path + ": cannot read the topology file");
    std::stringstream text;
    text << f.rdbuf();
    return parse_topology(path, text.str());
}

std::vector<std::string> topology_op_names(const Topology& t) {
    std::vector<std::string> names;
    std::set<std::string> taken;
    for (const TopologyLayer& l : t.layers) {
        std::string base;
        for (char ch : l.name) base += std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' ? ch : '_';
        if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0]))) base = "layer_" + base;
        std::string name = base;
        for (int k = 2; !taken.insert(name).second; ++k) name = base + "_" + std::to_string(k);
        names.push_back(name);
    }
    return names;
}

std::shared_ptr<const SourceFile> topology_source(const Topology& t, arch::DType dtype) {
    const std::string dt = std::string("\"") + arch::dtype_name(dtype) + "\"";
    const std::vector<std::string> names = topology_op_names(t);
    auto shape = [](std::initializer_list<int64_t> dims) {
        std::string s = "(";
        for (int64_t d : dims) s += (s.size() > 1 ? ", " : "") + std::to_string(d);
        return s + ")";
    };
    std::string text = "import pypto as pypo\n";
    for (size_t i = 0; i < t.layers.size(); ++i) {
        const TopologyLayer& l = t.layers[i];
        // The operands' names end in '.': no output name (an identifier) can take them.
        const std::string n = names[i];
        text += "# " + t.path + ":" + std::to_string(l.line) + "\n";
        if (l.gemm) {
            text += "pypo.output(\"" + n + "\", pypo.op.matmul(pypo.input(\"" + n + ".a\", shape=" + shape({l.M, l.K}) +
                    ", dtype=" + dt + "), pypo.input(\"" + n + ".b\", shape=" + shape({l.K, l.N}) + ", dtype=" + dt +
                    ")))\n";
            continue;
        }
        text += "pypo.output(\"" + n + "\", pypo.op.conv2d(pypo.input(\"" + n +
                ".ifmap\", shape=" + shape({1, l.H, l.W, l.C}) + ", dtype=" + dt +
                ", layout=\"NHWC\"), pypo.weight(\"" + n + ".filter\", shape=" + shape({l.F, l.C, l.R, l.S}) +
                ", dtype=" + dt + "), stride=" + shape({l.stride_h, l.stride_w}) + ", rounding=\"ceil\"))\n";
    }
    auto f = std::make_shared<SourceFile>();
    f->path = "<--topology " + t.path + ">";
    f->text = text;
    return f;
}

}  // namespace dsl
