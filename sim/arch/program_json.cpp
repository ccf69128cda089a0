#include "sim/arch/program_json.h"

#include "sim/arch/json_text.h"

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <system_error>

namespace arch {

using nlohmann::json;

namespace {

// ---- writing ----

json flags_json(const std::vector<FlagId>& flags) {
    json a = json::array();
    for (FlagId f : flags) a.push_back(f);
    return a;
}

const char* const kSourceKinds[] = {"contiguous", "scalar", "strided", "window"};

json source_json(const VectorSource& v) {
    json j = {{"kind", kSourceKinds[int(v.kind)]}};
    if (v.kind == VectorSource::Kind::Scalar) j["scalar"] = v.scalar;
    if (v.kind == VectorSource::Kind::Strided) j["first"] = v.first, j["dims"] = v.dims, j["strides"] = v.strides;
    if (v.kind == VectorSource::Kind::Window) {
        const VectorSource::Window& w = v.window;
        j["window"] = {{"height", w.height}, {"width", w.width},     {"depth", w.depth},     {"out_h", w.out_h},
                       {"stride_h", w.stride_h}, {"stride_w", w.stride_w}, {"pad_h", w.pad_h}, {"pad_w", w.pad_w},
                       {"ki", w.ki},         {"kj", w.kj},           {"origin", w.origin},   {"fill", w.fill}};
    }
    return j;
}

json command_json(const Command& c) {
    json j;
    switch (c.op) {
    case Opcode::Dma: {
        const DmaArgs& d = c.dma;
        j = {{"op", "dma"},         {"src", space_name(d.src)},       {"dst", space_name(d.dst)},
             {"src_addr", d.src_addr}, {"dst_addr", d.dst_addr},      {"rows", d.rows},
             {"row_bytes", d.row_bytes}, {"src_stride", d.src_stride}, {"dst_stride", d.dst_stride},
             {"convert_f32_to_f16", d.convert_f32_to_f16}};
        if (d.im2col) {
            const Im2col& i = *d.im2col;
            j["im2col"] = {{"channels", i.channels}, {"height", i.height},     {"width", i.width},
                           {"kh", i.kh},             {"kw", i.kw},             {"stride_h", i.stride_h},
                           {"stride_w", i.stride_w}, {"pad_h", i.pad_h},       {"pad_w", i.pad_w},
                           {"out_w", i.out_w},       {"pixel0", i.pixel0},     {"k0", i.k0},
                           {"element_bytes", i.element_bytes}};
            if (i.channels_last) j["im2col"]["channels_last"] = true;
        }
        if (d.rearrange)
            j["rearrange"] = {{"kind", rearrange_kind_name(d.rearrange->kind)},
                              {"element_bytes", d.rearrange->element_bytes},
                              {"factor", d.rearrange->factor}};
        break;
    }
    case Opcode::Matmul: {
        const MatmulArgs& m = c.mm;
        j = {{"op", "matmul"}, {"m", m.m}, {"k", m.k}, {"n", m.n}, {"dtype", dtype_name(m.dtype)},
             {"accumulate", m.accumulate}, {"a_addr", m.a_addr}, {"b_addr", m.b_addr}, {"c_addr", m.c_addr}};
        if (m.b_transposed) j["b_transposed"] = true;
        break;
    }
    case Opcode::Vector: {
        const VectorArgs& v = c.vec;
        j = {{"op", "vector"}, {"vector_op", vector_op_name(v.op)}, {"dtype", dtype_name(v.dtype)},
             {"rows", v.rows}, {"cols", v.cols}, {"src0", v.src0}, {"dst", v.dst}};
        if (v.src1 != kNoAddress) j["src1"] = v.src1;
        if (v.source(0).kind != VectorSource::Kind::Contiguous) j["in0"] = source_json(v.source(0));
        if (v.source(1).kind != VectorSource::Kind::Contiguous) j["in1"] = source_json(v.source(1));
        break;
    }
    }
    if (!c.waits.empty()) j["waits"] = flags_json(c.waits);
    if (!c.sets.empty()) j["sets"] = flags_json(c.sets);
    if (c.tag != 0) j["tag"] = c.tag;
    if (c.issue_cycles != 0) j["issue_cycles"] = c.issue_cycles;
    return j;
}

// ---- reading ----

// Compact JSON for messages; `replace` so a message never throws on bad UTF-8.
std::string compact(const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace); }

class Reader {
public:
    explicit Reader(const std::string& origin) : origin_(origin) {}

    [[noreturn]] void fail(const std::string& path, const std::string& what) const {
        throw ProgramError(origin_ + ": " + (path.empty() ? "" : path + ": ") + what);
    }

    // The object at `path`, refusing any key not in `allowed`.
    const json& object(const json& v, const std::string& path, std::initializer_list<const char*> allowed,
                       const std::string& what = "") const {
        if (!v.is_object())
            fail(path, "expected an object, got " + compact(v));
        for (const auto& item : v.items()) {
            bool known = false;
            for (const char* a : allowed) known = known || item.key() == a;
            if (!known) fail(join(path, item.key()), "unknown key" + (what.empty() ? "" : " for " + what));
        }
        return v;
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

constexpr uint64_t kU16 = std::numeric_limits<uint16_t>::max();
constexpr uint64_t kU32 = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kU64 = std::numeric_limits<uint64_t>::max();

DType read_dtype(const Reader& r, const json& v, const std::string& path) {
    return DType(r.name(v, path, 2, [](int i) { return dtype_name(DType(i)); }));
}

Space read_space(const Reader& r, const json& v, const std::string& path) {
    return Space(r.name(v, path, 3, [](int i) { return space_name(Space(i)); }));
}

// "dma0", "cube2.dma", "cube2", "vector1": a prefix and a decimal index.
EngineId read_engine(const Reader& r, const json& v, const std::string& path) {
    const std::string& s = r.string(v, path);
    auto parse = [&](const std::string& prefix, const std::string& suffix, EngineKind kind, EngineId& out) {
        if (s.size() <= prefix.size() + suffix.size() || s.compare(0, prefix.size(), prefix) != 0 ||
            s.compare(s.size() - suffix.size(), suffix.size(), suffix) != 0)
            return false;
        const std::string digits = s.substr(prefix.size(), s.size() - prefix.size() - suffix.size());
        if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return false;
        if (digits.size() > 1 && digits[0] == '0') return false;  // one spelling per engine
        out = {kind, std::stoi(digits)};
        return true;
    };
    EngineId id;
    if (parse("dma", "", EngineKind::ClusterDma, id) || parse("cube", ".dma", EngineKind::CubeDma, id) ||
        parse("cube", "", EngineKind::Cube, id) || parse("vector", "", EngineKind::Vector, id))
        return id;
    r.fail(path, "unknown engine " + compact(v) + " (expected dmaN, cubeN.dma, cubeN or vectorN)");
}

std::vector<FlagId> read_flags(const Reader& r, const json& v, const std::string& path) {
    std::vector<FlagId> out;
    const json& a = r.array(v, path);
    for (size_t i = 0; i < a.size(); ++i) out.push_back(FlagId(r.unsigned_int(a[i], Reader::index(path, i), kU16)));
    return out;
}

Im2col read_im2col(const Reader& r, const json& v, const std::string& path) {
    r.object(v, path, {"channels", "height", "width", "kh", "kw", "stride_h", "stride_w", "pad_h", "pad_w", "out_w",
                       "pixel0", "k0", "element_bytes", "channels_last"},
             "im2col");
    Im2col i;
    for (const auto& item : v.items()) {
        const std::string& k = item.key();
        if (k == "channels_last") {
            i.channels_last = r.boolean(item.value(), Reader::join(path, k));
            continue;
        }
        const uint32_t x = uint32_t(r.unsigned_int(item.value(), Reader::join(path, k), kU32));
        if (k == "channels") i.channels = x;
        else if (k == "height") i.height = x;
        else if (k == "width") i.width = x;
        else if (k == "kh") i.kh = x;
        else if (k == "kw") i.kw = x;
        else if (k == "stride_h") i.stride_h = x;
        else if (k == "stride_w") i.stride_w = x;
        else if (k == "pad_h") i.pad_h = x;
        else if (k == "pad_w") i.pad_w = x;
        else if (k == "out_w") i.out_w = x;
        else if (k == "pixel0") i.pixel0 = x;
        else if (k == "k0") i.k0 = x;
        else if (k == "element_bytes") i.element_bytes = x;
    }
    return i;
}

Rearrange read_rearrange(const Reader& r, const json& v, const std::string& path) {
    r.object(v, path, {"kind", "element_bytes", "factor"}, "rearrange");
    if (!v.contains("kind")) r.fail(path, "missing key \"kind\" (\"transpose\" or \"pixel_shuffle\")");
    Rearrange a;
    a.kind = Rearrange::Kind(
        r.name(v.at("kind"), Reader::join(path, "kind"), 2, [](int i) { return rearrange_kind_name(Rearrange::Kind(i)); }));
    if (v.contains("element_bytes"))
        a.element_bytes = uint32_t(r.unsigned_int(v.at("element_bytes"), Reader::join(path, "element_bytes"), kU32));
    if (v.contains("factor")) a.factor = uint32_t(r.unsigned_int(v.at("factor"), Reader::join(path, "factor"), kU32));
    return a;
}

double read_real(const Reader& r, const json& v, const std::string& path) {
    if (!v.is_number()) r.fail(path, "expected a number, got " + compact(v));
    return v.get<double>();
}

VectorSource read_source(const Reader& r, const json& v, const std::string& path) {
    r.object(v, path, {"kind", "scalar", "first", "dims", "strides", "window"}, "a vector source");
    if (!v.contains("kind")) r.fail(path, "missing key \"kind\" (\"contiguous\", \"scalar\", \"strided\" or \"window\")");
    VectorSource s;
    s.kind = VectorSource::Kind(r.name(v.at("kind"), Reader::join(path, "kind"), 4, [](int i) { return kSourceKinds[i]; }));
    if (v.contains("scalar")) s.scalar = read_real(r, v.at("scalar"), Reader::join(path, "scalar"));
    if (v.contains("first")) s.first = r.unsigned_int(v.at("first"), Reader::join(path, "first"), kU64);
    if (v.contains("dims")) {
        const std::string p = Reader::join(path, "dims");
        const json& a = r.array(v.at("dims"), p);
        for (size_t i = 0; i < a.size(); ++i) s.dims.push_back(uint32_t(r.unsigned_int(a[i], Reader::index(p, i), kU32)));
    }
    if (v.contains("strides")) {
        const std::string p = Reader::join(path, "strides");
        const json& a = r.array(v.at("strides"), p);
        for (size_t i = 0; i < a.size(); ++i) s.strides.push_back(r.signed_int(a[i], Reader::index(p, i)));
    }
    if (s.dims.size() != s.strides.size()) r.fail(path, "\"dims\" and \"strides\" differ in length");
    if (v.contains("window")) {
        const std::string p = Reader::join(path, "window");
        const json& w = v.at("window");
        r.object(w, p, {"height", "width", "depth", "out_h", "stride_h", "stride_w", "pad_h", "pad_w", "ki", "kj",
                        "origin", "fill"}, "a window");
        VectorSource::Window& o = s.window;
        for (const auto& item : w.items()) {
            const std::string& k = item.key();
            const std::string q = Reader::join(p, k);
            if (k == "origin") o.origin = r.signed_int(item.value(), q);
            else if (k == "fill") o.fill = read_real(r, item.value(), q);
            else {
                const uint32_t x = uint32_t(r.unsigned_int(item.value(), q, kU32));
                if (k == "height") o.height = x;
                else if (k == "width") o.width = x;
                else if (k == "depth") o.depth = x;
                else if (k == "out_h") o.out_h = x;
                else if (k == "stride_h") o.stride_h = x;
                else if (k == "stride_w") o.stride_w = x;
                else if (k == "pad_h") o.pad_h = x;
                else if (k == "pad_w") o.pad_w = x;
                else if (k == "ki") o.ki = x;
                else if (k == "kj") o.kj = x;
            }
        }
    }
    return s;
}

Command read_command(const Reader& r, const json& v, const std::string& path, size_t tag_count) {
    if (!v.is_object()) r.fail(path, "expected an object, got " + compact(v));
    if (!v.contains("op")) r.fail(path, "missing key \"op\" (\"dma\", \"matmul\" or \"vector\")");
    const char* const kOps[] = {"dma", "matmul", "vector"};
    Command c;
    c.op = Opcode(r.name(v.at("op"), Reader::join(path, "op"), 3, [&](int i) { return kOps[i]; }));
    const std::string what = std::string("a ") + kOps[int(c.op)] + " command";
    switch (c.op) {
    case Opcode::Dma:
        r.object(v, path,
                 {"op", "src", "dst", "src_addr", "dst_addr", "rows", "row_bytes", "src_stride", "dst_stride",
                  "convert_f32_to_f16", "im2col", "rearrange", "waits", "sets", "tag", "issue_cycles"},
                 what);
        break;
    case Opcode::Matmul:
        r.object(v, path, {"op", "m", "k", "n", "dtype", "accumulate", "b_transposed", "a_addr", "b_addr", "c_addr", "waits",
                  "sets", "tag", "issue_cycles"},
                 what);
        break;
    case Opcode::Vector:
        r.object(v, path, {"op", "vector_op", "dtype", "rows", "cols", "src0", "src1", "dst", "in0", "in1", "waits", "sets",
                  "tag", "issue_cycles"},
                 what);
        break;
    }
    for (const auto& item : v.items()) {
        const std::string& k = item.key();
        const json& x = item.value();
        const std::string p = Reader::join(path, k);
        if (k == "op") continue;
        if (k == "waits") c.waits = read_flags(r, x, p);
        else if (k == "sets") c.sets = read_flags(r, x, p);
        else if (k == "tag") {
            c.tag = uint32_t(r.unsigned_int(x, p, kU32));
            if (c.tag != 0 && c.tag >= tag_count)
                r.fail(p, std::to_string(c.tag) + " is not an index into \"tags\" (" + std::to_string(tag_count) +
                              " tags)");
        }
        else if (k == "issue_cycles") c.issue_cycles = uint32_t(r.unsigned_int(x, p, kU32));
        // DMA
        else if (c.op == Opcode::Dma && k == "src") c.dma.src = read_space(r, x, p);
        else if (c.op == Opcode::Dma && k == "dst") c.dma.dst = read_space(r, x, p);
        else if (k == "src_addr") c.dma.src_addr = r.unsigned_int(x, p, kU64);
        else if (k == "dst_addr") c.dma.dst_addr = r.unsigned_int(x, p, kU64);
        else if (c.op == Opcode::Dma && k == "rows") c.dma.rows = uint32_t(r.unsigned_int(x, p, kU32));
        else if (k == "row_bytes") c.dma.row_bytes = uint32_t(r.unsigned_int(x, p, kU32));
        else if (k == "src_stride") c.dma.src_stride = r.unsigned_int(x, p, kU64);
        else if (k == "dst_stride") c.dma.dst_stride = r.unsigned_int(x, p, kU64);
        else if (k == "convert_f32_to_f16") c.dma.convert_f32_to_f16 = r.boolean(x, p);
        else if (k == "im2col") c.dma.im2col = read_im2col(r, x, p);
        else if (k == "rearrange") c.dma.rearrange = read_rearrange(r, x, p);
        // MATMUL
        else if (k == "m") c.mm.m = uint32_t(r.unsigned_int(x, p, kU32));
        else if (k == "k") c.mm.k = uint32_t(r.unsigned_int(x, p, kU32));
        else if (k == "n") c.mm.n = uint32_t(r.unsigned_int(x, p, kU32));
        else if (c.op == Opcode::Matmul && k == "dtype") c.mm.dtype = read_dtype(r, x, p);
        else if (k == "accumulate") c.mm.accumulate = r.boolean(x, p);
        else if (k == "b_transposed") c.mm.b_transposed = r.boolean(x, p);
        else if (k == "a_addr") c.mm.a_addr = r.unsigned_int(x, p, kU64);
        else if (k == "b_addr") c.mm.b_addr = r.unsigned_int(x, p, kU64);
        else if (k == "c_addr") c.mm.c_addr = r.unsigned_int(x, p, kU64);
        // VECTOR
        else if (k == "vector_op")
            c.vec.op = VectorOp(r.name(x, p, kVectorOpCount, [](int i) { return vector_op_name(VectorOp(i)); }));
        else if (k == "dtype") c.vec.dtype = read_dtype(r, x, p);
        else if (k == "rows") c.vec.rows = uint32_t(r.unsigned_int(x, p, kU32));
        else if (k == "cols") c.vec.cols = uint32_t(r.unsigned_int(x, p, kU32));
        else if (k == "src0") c.vec.src0 = r.unsigned_int(x, p, kU64);
        else if (k == "src1") c.vec.src1 = r.unsigned_int(x, p, kU64);
        else if (k == "dst") c.vec.dst = r.unsigned_int(x, p, kU64);
        else if (k == "in0") c.vec.in0 = std::make_shared<const VectorSource>(read_source(r, x, p));
        else if (k == "in1") c.vec.in1 = std::make_shared<const VectorSource>(read_source(r, x, p));
    }
    return c;
}

Stream read_stream(const Reader& r, const json& v, const std::string& path, size_t tag_count) {
    r.object(v, path, {"engine", "commands"}, "a stream");
    if (!v.contains("engine")) r.fail(path, "missing key \"engine\"");
    Stream s;
    s.engine = read_engine(r, v.at("engine"), Reader::join(path, "engine"));
    if (v.contains("commands")) {
        const std::string p = Reader::join(path, "commands");
        const json& a = r.array(v.at("commands"), p);
        for (size_t i = 0; i < a.size(); ++i) s.commands.push_back(read_command(r, a[i], Reader::index(p, i), tag_count));
    }
    return s;
}

Block read_block(const Reader& r, const json& v, const std::string& path, size_t tag_count) {
    r.object(v, path, {"name", "deps", "drain", "cluster", "num_flags", "streams"}, "a block");
    Block b;
    if (v.contains("name")) b.name = r.string(v.at("name"), Reader::join(path, "name"));
    if (v.contains("cluster"))
        b.cluster = int32_t(r.unsigned_int(v.at("cluster"), Reader::join(path, "cluster"), uint64_t(INT32_MAX)));
    if (v.contains("drain")) b.drain = uint32_t(r.unsigned_int(v.at("drain"), Reader::join(path, "drain"), kU32));
    if (v.contains("deps")) {
        const std::string p = Reader::join(path, "deps");
        const json& a = r.array(v.at("deps"), p);
        for (size_t i = 0; i < a.size(); ++i) b.deps.push_back(uint32_t(r.unsigned_int(a[i], Reader::index(p, i), kU32)));
    }
    if (v.contains("num_flags"))
        b.num_flags = uint16_t(r.unsigned_int(v.at("num_flags"), Reader::join(path, "num_flags"), kU16));
    if (v.contains("streams")) {
        const std::string p = Reader::join(path, "streams");
        const json& a = r.array(v.at("streams"), p);
        for (size_t i = 0; i < a.size(); ++i) b.streams.push_back(read_stream(r, a[i], Reader::index(p, i), tag_count));
    }
    return b;
}

TensorPlacement read_tensor(const Reader& r, const json& v, const std::string& path) {
    r.object(v, path, {"name", "shape", "dtype", "ddr_addr", "l1_addr", "bytes", "role"}, "a tensor");
    TensorPlacement t;
    if (v.contains("name")) t.name = r.string(v.at("name"), Reader::join(path, "name"));
    if (v.contains("shape")) {
        const std::string p = Reader::join(path, "shape");
        const json& a = r.array(v.at("shape"), p);
        for (size_t i = 0; i < a.size(); ++i) t.shape.push_back(r.signed_int(a[i], Reader::index(p, i)));
    }
    if (v.contains("dtype")) t.dtype = read_dtype(r, v.at("dtype"), Reader::join(path, "dtype"));
    if (v.contains("ddr_addr")) t.ddr_addr = r.unsigned_int(v.at("ddr_addr"), Reader::join(path, "ddr_addr"), kU64);
    if (v.contains("l1_addr"))
        t.l1_addr = int64_t(r.unsigned_int(v.at("l1_addr"), Reader::join(path, "l1_addr"), uint64_t(INT64_MAX)));
    if (v.contains("bytes")) t.bytes = r.unsigned_int(v.at("bytes"), Reader::join(path, "bytes"), kU64);
    if (v.contains("role")) t.role = r.string(v.at("role"), Reader::join(path, "role"));
    return t;
}

}  // namespace

json program_to_json(const Program& p) {
    json tensors = json::array();
    for (const TensorPlacement& t : p.tensors) {
        tensors.push_back({{"name", t.name}, {"shape", t.shape}, {"dtype", dtype_name(t.dtype)},
                           {"ddr_addr", t.ddr_addr}, {"bytes", t.bytes}, {"role", t.role}});
        if (t.l1_addr >= 0) tensors.back()["l1_addr"] = t.l1_addr;
    }
    json blocks = json::array();
    for (const Block& b : p.blocks) {
        json streams = json::array();
        for (const Stream& s : b.streams) {
            json commands = json::array();
            for (const Command& c : s.commands) commands.push_back(command_json(c));
            streams.push_back({{"engine", engine_name(s.engine)}, {"commands", commands}});
        }
        json block = {{"name", b.name}, {"deps", b.deps}, {"num_flags", b.num_flags}, {"streams", streams}};
        if (b.drain) block["drain"] = b.drain;
        if (b.cluster != Block::kAnyCluster) block["cluster"] = b.cluster;
        blocks.push_back(block);
    }
    json ops = json::array();
    for (const ProgramOp& o : p.ops) {
        json e = {{"name", o.name}, {"kind", o.kind}, {"task", o.task}};
        if (!o.inputs.empty()) e["inputs"] = o.inputs;
        ops.push_back(e);
    }
    json tags = json::array();
    for (const CommandTag& t : p.tags) {
        json e = {{"label", t.label}};
        if (t.op >= 0) e["op"] = t.op;
        tags.push_back(e);
    }
    json out = {{"source", p.source}, {"max_parallel", p.max_parallel}, {"tensors", tensors}, {"ops", ops},
                {"tags", tags}, {"blocks", blocks}};
    if (p.slot_l1_bytes || p.slot_l0_bytes) {
        out["slot_l1_bytes"] = p.slot_l1_bytes;
        out["slot_l0_bytes"] = p.slot_l0_bytes;
    }
    return out;
}

Program program_from_json(const json& j, const std::string& origin) {
    Reader r(origin);
    if (!j.is_object()) r.fail("", "expected a JSON object at the top level, got " + compact(j));
    r.object(j, "", {"source", "max_parallel", "slot_l1_bytes", "slot_l0_bytes", "tensors", "ops", "tags", "blocks"});
    if (!j.contains("blocks")) r.fail("", "missing key \"blocks\"");
    Program p;
    if (j.contains("source")) p.source = r.string(j.at("source"), "source");
    if (j.contains("max_parallel")) p.max_parallel = uint32_t(r.unsigned_int(j.at("max_parallel"), "max_parallel", kU32));
    if (j.contains("slot_l1_bytes")) p.slot_l1_bytes = r.unsigned_int(j.at("slot_l1_bytes"), "slot_l1_bytes", kU32);
    if (j.contains("slot_l0_bytes")) p.slot_l0_bytes = r.unsigned_int(j.at("slot_l0_bytes"), "slot_l0_bytes", kU32);
    if (j.contains("tensors")) {
        const json& a = r.array(j.at("tensors"), "tensors");
        for (size_t i = 0; i < a.size(); ++i) p.tensors.push_back(read_tensor(r, a[i], Reader::index("tensors", i)));
    }
    if (j.contains("ops")) {
        const json& a = r.array(j.at("ops"), "ops");
        for (size_t i = 0; i < a.size(); ++i) {
            const std::string path = Reader::index("ops", i);
            r.object(a[i], path, {"name", "kind", "task", "inputs"}, "an operation");
            ProgramOp o;
            if (a[i].contains("name")) o.name = r.string(a[i].at("name"), Reader::join(path, "name"));
            if (a[i].contains("kind")) o.kind = r.string(a[i].at("kind"), Reader::join(path, "kind"));
            if (a[i].contains("task")) o.task = r.string(a[i].at("task"), Reader::join(path, "task"));
            if (a[i].contains("inputs")) {
                const std::string ip = Reader::join(path, "inputs");
                const json& in = r.array(a[i].at("inputs"), ip);
                for (size_t k = 0; k < in.size(); ++k) {
                    uint64_t d = r.unsigned_int(in[k], Reader::index(ip, k), kU32);
                    if (d >= i) r.fail(Reader::index(ip, k), std::to_string(d) + " is not an earlier operation");
                    o.inputs.push_back(int32_t(d));
                }
            }
            p.ops.push_back(std::move(o));
        }
    }
    if (j.contains("tags")) {
        const json& a = r.array(j.at("tags"), "tags");
        for (size_t i = 0; i < a.size(); ++i) {
            const std::string path = Reader::index("tags", i);
            CommandTag t;
            // A hand-written program may give a tag as just its label.
            if (a[i].is_string()) {
                t.label = a[i].get<std::string>();
                p.tags.push_back(std::move(t));
                continue;
            }
            r.object(a[i], path, {"label", "op"}, "a tag");
            if (a[i].contains("label")) t.label = r.string(a[i].at("label"), Reader::join(path, "label"));
            if (a[i].contains("op")) {
                uint64_t op = r.unsigned_int(a[i].at("op"), Reader::join(path, "op"), kU32);
                if (op >= p.ops.size())
                    r.fail(Reader::join(path, "op"), std::to_string(op) + " is not an index into \"ops\" (" +
                                                         std::to_string(p.ops.size()) + " operations)");
                t.op = int32_t(op);
            }
            p.tags.push_back(std::move(t));
        }
    }
    const json& blocks = r.array(j.at("blocks"), "blocks");
    for (size_t i = 0; i < blocks.size(); ++i)
        p.blocks.push_back(read_block(r, blocks[i], Reader::index("blocks", i), p.tags.size()));
    return p;
}

Program program_from_text(const std::string& text, const std::string& origin) {
    json j;
    try {
        j = parse_json_text(text, origin);
    } catch (const JsonTextError& e) {
        throw ProgramError(e.what());
    }
    return program_from_json(j, origin);
}

Program load_program_file(const std::string& path) {
    std::string text;
    try {
        text = read_json_file(path);
    } catch (const JsonTextError& e) {
        throw ProgramError(e.what());
    }
    return program_from_text(text, path);
}

}  // namespace arch
