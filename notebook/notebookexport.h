#pragma once
// A notebook exported for people without Jupyter: a self-contained HTML page (inline CSS,
// images as data: URIs, markdown rendered, code lightly highlighted) or a Python script with
// `# %%` cell markers (VS Code, Spyder, jupytext read them). Rendering markdown needs QtGui
// (QTextDocument), so this is its own library beside the QtCore-only document model; it needs
// a QGuiApplication, as the desktop app has.

#include "notebook/celldata.h"
#include "notebook/notebookerror.h"

namespace lizard::notebook {

enum class ExportFormat { Html, PythonScript };

QString exportHtml(const NotebookData& data, const QString& title);
QString exportPythonScript(const NotebookData& data, const QString& title);

// The export written to path, replacing it only once the whole text is written (QSaveFile):
// a failed write leaves what was there.
MaybeError exportNotebook(const NotebookData& data, const QString& title, ExportFormat format,
                          const QString& path);

// The notebook's code language from its metadata (language_info.name, else kernelspec's),
// "python" when it says none.
QString notebookLanguage(const NotebookData& data);

} // namespace lizard::notebook
