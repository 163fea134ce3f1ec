#pragma once
// HTML tables (pandas' to_html, any text/html output) in Qt's rich text, which has no CSS
// selectors beyond element and class and cannot tell a number from a word: a style sheet for
// collapsed borders, padding and a header tint, and numeric cells given align="right".

#include <QString>

namespace lizard::notebook {

// For QTextDocument::setDefaultStyleSheet (before setHtml).
QString htmlTableStyleSheet();
// html with every <td>/<th> that holds just a number (1,234 -5.5 1e-3 12% NaN inf) right-aligned.
QString alignNumericCells(const QString& html);

} // namespace lizard::notebook
