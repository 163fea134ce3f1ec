#pragma once
// The suites of a folder are linked into one executable, a bundle (tests/CMakeLists.txt), whose
// main() runs the suite named by its first argument: `tst_bundle_ui_widgets tst_filespanel -v2`.
// Compiled in batches, the bundle's suites share the instantiation of Qt Test's and the fixtures'
// templates, which costs most of a suite's compile time.
//
// This header is in every suite's precompiled header, after <QtTest>: QTEST_MAIN and its kin
// then register the suite under its file's name instead of defining main(). The suite still runs
// as it did alone: its own application object, created after its initMain(), argv[0] its name.

#include <QtTest>

namespace lizard::test {

using SuiteMain = int (*)(int argc, char** argv);
// Registers `run` as the suite of `file` (its base name without extension); false if a suite of
// that name was registered already (main() then refuses to run either).
bool registerSuite(const char* file, SuiteMain run);

} // namespace lizard::test

#define LIZARD_SUITE_CAT2(a, b) a##b
#define LIZARD_SUITE_CAT(a, b) LIZARD_SUITE_CAT2(a, b)

// A suite whose main is `body` (statements using argc and argv, returning the exit code).
#define LIZARD_SUITE_MAIN_WITH(TestObject, ...)                                                    \
    namespace {                                                                                    \
    int LIZARD_SUITE_CAT(lizardSuiteMain_, TestObject)(int argc, char** argv)                      \
    {                                                                                              \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                         \
        __VA_ARGS__                                                                                \
        TestObject tc;                                                                             \
        return QTest::qExec(&tc, argc, argv);                                                      \
    }                                                                                              \
    const bool LIZARD_SUITE_CAT(lizardSuiteRegistered_, TestObject) =                              \
        lizard::test::registerSuite(__FILE__, &LIZARD_SUITE_CAT(lizardSuiteMain_, TestObject));    \
    }

#undef QTEST_MAIN
#undef QTEST_GUILESS_MAIN
#undef QTEST_APPLESS_MAIN
#define QTEST_MAIN(TestObject) LIZARD_SUITE_MAIN_WITH(TestObject, QTEST_MAIN_SETUP())
#define QTEST_GUILESS_MAIN(TestObject)                                                             \
    LIZARD_SUITE_MAIN_WITH(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
#define QTEST_APPLESS_MAIN(TestObject) LIZARD_SUITE_MAIN_WITH(TestObject)
