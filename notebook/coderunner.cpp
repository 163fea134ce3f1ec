#include "notebook/coderunner.h"

namespace lizard::notebook {

CodeRunner::~CodeRunner() = default;

} // namespace lizard::notebook
