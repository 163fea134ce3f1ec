#pragma once
// For lizard-bench-appstart: with LIZARD_DESKTOP_REPORT_PAINT=1 in its environment the app
// prints `line` ("lizard-desktop: painted") on stdout once its main window has been painted the
// first time, so that a benchmark can time a cold start from outside. Without it, nothing is
// installed. The benchmark's reference window reports the same way.

class QWidget;

namespace lizard::app {

void reportFirstPaint(QWidget* window, const char* line = "lizard-desktop: painted");

} // namespace lizard::app
