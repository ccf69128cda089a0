// davinci-isa-doc: prints docs/isa.md, the instruction-set reference, from
// the field table (sim/arch/isa_fields.def), so the reference cannot drift
// from the JSON reader, the codec and the checker that use the same rows.
//   davinci-isa-doc               the Markdown on stdout
//   davinci-isa-doc --check FILE  exit 1 (saying how to regenerate) if FILE differs
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/arch/isa_fields.h"

namespace {

using arch::isa::IsOptional;
using arch::isa::IsVector;
using arch::isa::SourcePtr;

using namespace arch;

template <class E>
std::string names() {
    std::string s;
    for (int i = 0; i < isa::Names<E>::count; ++i) s += std::string(i ? ", " : "") + "`" + isa::Names<E>::name(i) + "`";
    return s;
}

// The JSON type of a member, as the reader accepts it.
template <class T>
std::string type_text() {
    if constexpr (std::is_same_v<T, bool>) return "`true` or `false`";
    else if constexpr (std::is_enum_v<T>) return "one of " + names<T>();
    else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>)
        return "integer 0 to " + std::to_string(std::numeric_limits<T>::max());
    else if constexpr (std::is_integral_v<T>) return "64-bit integer";
    else if constexpr (std::is_floating_point_v<T>) return "number";
    else if constexpr (IsVector<T>::value) return "array of " + type_text<typename T::value_type>();
    else if constexpr (IsOptional<T>::value) return std::string("object: ") + isa::Fields<typename T::value_type>::what;
    else if constexpr (std::is_same_v<T, SourcePtr>) return "object: a vector source";
    else return std::string("object: ") + isa::Fields<T>::what;
}

template <class T>
std::string default_text(const T& v) {
    if constexpr (std::is_same_v<T, bool>) return v ? "`true`" : "`false`";
    else if constexpr (std::is_enum_v<T>) return std::string("`") + isa::Names<T>::name(int(v)) + "`";
    else if constexpr (std::is_arithmetic_v<T>) {
        std::ostringstream os;
        os << v;
        return os.str();
    } else if constexpr (IsVector<T>::value) return "`[]`";
    else if constexpr (IsOptional<T>::value || std::is_same_v<T, SourcePtr>) return "absent";
    else return "";  // a nested struct: its own fields' defaults
}

const char* write_text(isa::Write w) {
    switch (w) {
    case isa::Write::Always: return "always";
    case isa::Write::NonDefault: return "when not the default";
    case isa::Write::ScalarSource: return "kind `scalar`";
    case isa::Write::StridedSource: return "kind `strided`";
    case isa::Write::WindowSource: break;
    }
    return "kind `window`";
}

const char* check_text(isa::Check c) {
    switch (c) {
    case isa::Check::None: return "";
    case isa::Check::Positive: return "> 0";
    case isa::Check::ElementBytes: return "2 or 4";
    case isa::Check::TagIndex: break;
    }
    return "an index into `tags`";
}

// One section: a heading, a sentence, the struct's fields.
template <class S>
void section(std::ostream& os, const std::string& heading, const std::string& text) {
    os << "\n## " << heading << "\n\n" << text << "\n\n";
    os << "| key | type | default | unit | written | checked | meaning |\n|---|---|---|---|---|---|---|\n";
    isa::for_each_field(isa::Fields<S>::defaults(), [&](const isa::Field& f, const auto& v, const auto&) {
        os << "| `" << f.key << "` | " << type_text<std::decay_t<decltype(v)>>() << " | " << default_text(v) << " | "
           << f.unit << " | " << write_text(f.write) << " | " << check_text(f.check) << " | " << f.doc << " |\n";
    });
}

// The vector unit's operations (`vector_op`), x, y and z the elements of src0, src1 and src2.
void vector_ops(std::ostream& os) {
    os << "\n### `vector_op`\n\nx, y and z are the elements of the first, second and third source; a reduction "
          "writes `rows` "
          "elements of `dtype`, a cast the other type.\n\n| vector_op | sources | result |\n|---|---|---|\n";
#define ISA_VECTOR_OP(name, key, sources, reduces, doc) \
    os << "| `" << key << "` | " << sources << " | " << doc << " |\n";
#include "sim/arch/isa_fields.def"
}

std::string document() {
    std::ostringstream os;
    os << "# The command ISA\n\n"
          "<!-- Generated from sim/arch/isa_fields.def by davinci-isa-doc; do not edit.\n"
          "     Regenerate: build/davinci-isa-doc > docs/isa.md (ctest isa_doc_current checks it). -->\n\n"
          "A program (`arch::Program`) is a list of blocks; the dispatcher hands each block to a cluster, where every\n"
          "engine (`dmaN`, `cubeN.dma`, `cubeN`, `vectorN`) runs its own in-order stream of commands and the engines\n"
          "synchronise through the block's flags. The timing of every command is in\n"
          "[timing-model.md](timing-model.md), its effect on data in [functional.md](functional.md).\n\n"
          "This is the fields of each command as `--program-json` reads them and `--emit-program-json` writes them:\n"
          "a command is one JSON object, `{\"op\": \"dma\" | \"matmul\" | \"vector\", ...}`, holding the fields of its "
          "op\n"
          "and those every command has. Every key but `op` is optional and an absent key takes its default; a key\n"
          "not listed for the op is an error, as is a value outside its type. *written* says when\n"
          "`--emit-program-json` writes the key; *checked* is what the program check requires of the field alone\n"
          "before a run (the rules between fields are in docs/errors.md).\n";
    section<Command>(os, "Every command", "Besides `op`, whatever the op.");
    section<DmaArgs>(os, "op `dma`",
                     "A 2D copy of `rows` rows of `row_bytes` bytes (the bytes that cross the link): DDR <-> L1 on a "
                     "cluster DMA engine, L1 <-> L0 on a cube's.");
    section<Im2col>(os, "im2col",
                    "The convolution addressing a cube DMA engine applies loading L0: row r of the tile is output "
                    "pixel `pixel0` + r of the slab in L1, column j patch element `k0` + j; padding is generated, "
                    "never loaded.");
    section<Rearrange>(os, "rearrange",
                       "An element rearrangement a cluster DMA engine applies in flight; `kind` must be given.");
    section<Gather>(os, "gather",
                    "The rows a cluster DMA engine reads from a table in DDR, chosen by int32 ids in L1 (an "
                    "embedding lookup): source row r is table row ids[r].");
    section<MatmulArgs>(os, "op `matmul`", "C[m x n] (+)= A[m x k] * B[k x n] with all three in the cube's L0.");
    section<VectorArgs>(os, "op `vector`",
                        "A vector unit's operation on a rows x cols matrix of `dtype` elements, row-major and "
                        "contiguous in L1 unless `in0`/`in1`/`in2` say how a source is read.");
    vector_ops(os);
    section<VectorSource>(os, "a vector source (`in0`, `in1`, `in2`)",
                          "How a vector command reads one source; it changes which elements are read, never the "
                          "timing. `kind` must be given; each kind reads only its own fields.");
    section<VectorSource::Window>(os, "a window (`window` of a vector source)",
                                  "Window position (ki, kj) of a pooling window over image rows, with padding.");
    return os.str();
}

}  // namespace

int main(int argc, char** argv) {
    const std::string doc = document();
    if (argc == 1) {
        std::cout << doc;
        return 0;
    }
    if (argc == 3 && std::string(argv[1]) == "--check") {
        std::ifstream in(argv[2], std::ios::binary);
        std::ostringstream file;
        file << in.rdbuf();
        if (in && file.str() == doc) return 0;
        std::cerr << argv[2]
                  << " is not what sim/arch/isa_fields.def gives; regenerate it: build/davinci-isa-doc > docs/isa.md\n";
        return 1;
    }
    std::cerr << "usage: davinci-isa-doc [--check FILE]\n";
    return 2;
}
