#pragma once
// ANSI SGR escape sequences (what Jupyter kernels put in tracebacks) to HTML: colours (the 16
// standard ones in JupyterLab's palette, 256-colour and 24-bit), bold, italic, underline.
// Other escape sequences are dropped; the text itself is HTML-escaped.

#include <QString>

namespace lizard::notebook {

// HTML for text with escapes, spans only (no <pre>, no <html>): newlines stay '\n', so put the
// result inside <pre> (or use ansiToHtmlDocument).
QString ansiToHtml(const QString& text);
// A whole rich-text document: <pre> in a monospace font around ansiToHtml(text).
QString ansiToHtmlDocument(const QString& text);
// The text with every escape sequence removed (what search, export and plain copies use).
QString stripAnsi(const QString& text);

} // namespace lizard::notebook
