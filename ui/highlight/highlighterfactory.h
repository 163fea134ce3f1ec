#pragma once
// The one place that makes syntax highlighters. With KSyntaxHighlighting (KF6) at build time it
// uses that library's definitions and theme; otherwise the built-in highlighters for python,
// javascript, bash and markdown. Callers never know which one they got.

#include <QString>

class QSyntaxHighlighter;
class QTextDocument;

namespace lizard::ui::highlight {

// A highlighter attached to document (and owned by it), or nullptr when the language is not
// known (plain text). language is a name such as "python", "javascript", "bash", "markdown"
// (case-insensitive; common aliases like "py", "js", "sh", "md" work too).
QSyntaxHighlighter* createHighlighter(QTextDocument* document, const QString& language);

// The language name createHighlighter understands for a file, from its name ("x.py" ->
// "python", "Makefile" -> "makefile" where supported); empty for unknown files.
QString languageForFileName(const QString& path);

// True when the highlighters come from KSyntaxHighlighting.
bool usesKSyntaxHighlighting();

} // namespace lizard::ui::highlight
