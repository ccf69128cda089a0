#include "dsl/support/source_location.h"

#include "dsl/support/line_breaks.h"

namespace dsl {

std::string SourceFile::line_text(int line) const { return std::string(line_of(text, line)); }

}  // namespace dsl
