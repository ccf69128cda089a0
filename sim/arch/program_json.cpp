#include "sim/arch/program_json.h"

#include "sim/arch/command_json.h"
#include "sim/arch/isa_fields.h"
#include "sim/arch/json_reader.h"
#include "sim/arch/json_text.h"

#include <cstdint>
#include <limits>

namespace arch {

using nlohmann::json;

namespace {

// A tensor's dtype (a command's fields are read in command_json.cpp).
DType read_dtype(const Reader& r, const json& v, const std::string& path) {
    return DType(r.name(v, path, isa::Names<DType>::count, isa::Names<DType>::name));
}

// "dma0", "cube2.dma", "cube2", "vector1", "vector1.load", "vector1.store":
// a prefix, a decimal index and a suffix.
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
        parse("cube", "", EngineKind::Cube, id) || parse("vector", ".load", EngineKind::VectorLoad, id) ||
        parse("vector", ".store", EngineKind::VectorStore, id) || parse("vector", "", EngineKind::Vector, id))
        return id;
    r.fail(path, "unknown engine " + compact(v) +
                     " (expected dmaN, cubeN.dma, cubeN, vectorN, vectorN.load or vectorN.store)");
}

Stream read_stream(const Reader& r, const json& v, const std::string& path, size_t tag_count) {
    r.object(v, path, {"engine", "commands"}, "a stream");
    if (!v.contains("engine")) r.fail(path, "missing key \"engine\"");
    Stream s;
    s.engine = read_engine(r, v.at("engine"), Reader::join(path, "engine"));
    if (v.contains("commands")) {
        const std::string p = Reader::join(path, "commands");
        const json& a = r.array(v.at("commands"), p);
        for (size_t i = 0; i < a.size(); ++i)
            s.commands.push_back(read_command(r, a[i], Reader::index(p, i), tag_count));
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
        for (size_t i = 0; i < a.size(); ++i)
            b.deps.push_back(uint32_t(r.unsigned_int(a[i], Reader::index(p, i), kU32)));
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
    r.object(v, path, {"name", "shape", "dtype", "ddr_addr", "l1_addr", "ub_addr", "bytes", "role"}, "a tensor");
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
    if (v.contains("ub_addr"))
        t.ub_addr = int64_t(r.unsigned_int(v.at("ub_addr"), Reader::join(path, "ub_addr"), uint64_t(INT64_MAX)));
    if (v.contains("bytes")) t.bytes = r.unsigned_int(v.at("bytes"), Reader::join(path, "bytes"), kU64);
    if (v.contains("role")) t.role = r.string(v.at("role"), Reader::join(path, "role"));
    return t;
}

}  // namespace

json block_to_json(const Block& b) {
    json streams = json::array();
    for (const Stream& s : b.streams) {
        json commands = json::array();
        for (const Command& c : s.commands) commands.push_back(command_json(c));
        streams.push_back({{"engine", engine_name(s.engine)}, {"commands", commands}});
    }
    json block = {{"name", b.name}, {"deps", b.deps}, {"num_flags", b.num_flags}, {"streams", streams}};
    if (b.drain) block["drain"] = b.drain;
    if (b.cluster != Block::kAnyCluster) block["cluster"] = b.cluster;
    return block;
}

json program_to_json(const Program& p) {
    json tensors = json::array();
    for (const TensorPlacement& t : p.tensors) {
        tensors.push_back({{"name", t.name},
                           {"shape", t.shape},
                           {"dtype", dtype_name(t.dtype)},
                           {"ddr_addr", t.ddr_addr},
                           {"bytes", t.bytes},
                           {"role", t.role}});
        if (t.l1_addr >= 0) tensors.back()["l1_addr"] = t.l1_addr;
        if (t.ub_addr >= 0) tensors.back()["ub_addr"] = t.ub_addr;
    }
    json blocks = json::array();
    for (const Block& b : p.blocks) blocks.push_back(block_to_json(b));
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
    json out = {{"source", p.source}, {"max_parallel", p.max_parallel},
                {"tensors", tensors}, {"ops", ops},
                {"tags", tags},       {"blocks", blocks}};
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
    if (j.contains("max_parallel"))
        p.max_parallel = uint32_t(r.unsigned_int(j.at("max_parallel"), "max_parallel", kU32));
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
