#include "dsl/task_graph.h"

namespace dsl {

const char* op_kind_name(OpKind k) {
    switch (k) {
    case OpKind::Matmul: return "matmul";
    }
    return "?";
}

}  // namespace dsl
