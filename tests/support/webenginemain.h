#pragma once
// The main of a UI suite whose widgets load QtWebEngine (the preview plugin): set up as
// lizard-desktop does (no GL share context asked for at start-up: the plugin's loader makes it,
// and that path is what these suites test), with Chromium's own sandbox off, since tests may run
// as root, where it refuses to start.

#include "support/suitemain.h"

#include <QApplication>

#define LIZARD_WEBENGINE_TEST_MAIN(TestClass)                                                      \
    LIZARD_SUITE_MAIN_WITH(TestClass, qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1");                 \
                           QApplication app(argc, argv);)
