#include "notebook/notebookkernel.h"

namespace lizard::notebook {

NotebookKernel::~NotebookKernel() = default;

} // namespace lizard::notebook
