#pragma once
// The main of a UI suite whose widgets load QtWebEngine (the preview plugin): set up as
// lizard-desktop does, GL contexts shared, and Chromium's own sandbox off, since tests may run
// as root, where it refuses to start.

#include "support/suitemain.h"

#include <QApplication>

#define LIZARD_WEBENGINE_TEST_MAIN(TestClass)                                                      \
    LIZARD_SUITE_MAIN_WITH(TestClass, QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);  \
                           qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1");                            \
                           QApplication app(argc, argv);)
