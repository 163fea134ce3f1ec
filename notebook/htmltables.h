#pragma once
// HTML tables (IPython.display.HTML, to_html, any text/html output) drawn as JupyterLab draws
// them, in Qt's rich text: padded cells without grid lines, a rule under the header, every second
// body row tinted, numbers right-aligned. Qt's CSS has element, class and descendant selectors
// but no :nth-child and cannot tell a number from a word, so the HTML is marked first
// (styleHtmlTables) for a style sheet that knows only classes (htmlTableStyleSheet).

#include <QString>

namespace lizard::notebook {

// The style sheet's colours, as "#rrggbb" (the view picks them for its colour scheme).
struct HtmlTableColours
{
    QString headRule; // the line under the header
    QString stripe;   // the tint of every second body row
};

// For QTextDocument::setDefaultStyleSheet (before setHtml).
QString htmlTableStyleSheet(const HtmlTableColours& colours);

// html with its tables marked for htmlTableStyleSheet: the header's cells (the rows of <thead>,
// or the leading rows made only of <th>) get class "lz-head", every second body row class
// "lz-even", every cell that holds just a number (1,234 -5.5 1e-3 12% NaN inf) and the header of a
// column of numbers align="right" (unless the cell says its own alignment), and a table's border
// attribute (pandas writes border="1") is dropped. Nested tables are marked on their own.
QString styleHtmlTables(const QString& html);

} // namespace lizard::notebook
