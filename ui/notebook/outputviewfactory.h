#pragma once
// The one place that maps an output's type to the view that shows it.

#include "notebook/output.h"

class QWidget;

namespace lizard::ui::notebook {

class OutputView;

OutputView* createOutputView(const lizard::notebook::Output& output, QWidget* parent = nullptr);

} // namespace lizard::ui::notebook
