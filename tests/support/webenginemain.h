#pragma once
// main() of a UI suite whose widgets load QtWebEngine (the preview plugin): set up as
// lizard-desktop does, GL contexts shared, and Chromium's own sandbox off, since tests may run
// as root, where it refuses to start.

#include <QApplication>
#include <QTest>

#define LIZARD_WEBENGINE_TEST_MAIN(TestClass)                                                      \
    int main(int argc, char** argv)                                                                \
    {                                                                                              \
        QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);                                \
        qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1");                                               \
        QApplication app(argc, argv);                                                              \
        TestClass test;                                                                            \
        QTEST_SET_MAIN_SOURCE_PATH                                                                 \
        return QTest::qExec(&test, argc, argv);                                                    \
    }
