#include "ui/notebook/notebookkernel.h"

namespace lizard::ui::notebook {

NotebookKernel::~NotebookKernel() = default;

} // namespace lizard::ui::notebook
