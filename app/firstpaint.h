#pragma once
// For lizard-bench-appstart: with LIZARD_DESKTOP_REPORT_PAINT=1 in its environment the app
// prints "lizard-desktop: painted" on stdout once its main window has been painted the first
// time, so that a benchmark can time a cold start from outside. Without it, nothing is installed.

class QWidget;

namespace lizard::app {

void reportFirstPaint(QWidget* window);

} // namespace lizard::app
