#pragma once
// Test helper: runs Python with the nbformat package (python3-nbformat) to check our files
// against Jupyter's own reader and validator, and to produce files Jupyter itself wrote.

#include <QString>
#include <QStringList>

namespace lizard::notebook::test {

// A python3 that can import nbformat, or empty when there is none.
QString nbformatPython();

struct PythonRun
{
    bool ok = false; // exit code 0
    QString output;  // stdout + stderr
};

PythonRun runPython(const QString& script, const QStringList& args = {});

// nbformat.validate(nbformat.read(path, as_version=4)); output holds the validator's complaint.
PythonRun validateWithNbformat(const QString& path);

} // namespace lizard::notebook::test
