#include "ui/documentpage.h"

namespace lizard::ui {

DocumentPage::~DocumentPage() = default;

} // namespace lizard::ui
