#include "ui/notebook/outputview.h"

namespace lizard::ui::notebook {

OutputView::~OutputView() = default;

} // namespace lizard::ui::notebook
