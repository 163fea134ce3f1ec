#pragma once
// Colours a template's recipe (the YAML subset of sandboxes/templates/recipe.h): keys, list
// dashes, quoted values, comments; and underlines the line the server's check found wrong.

#include "ui/highlight/theme.h"

#include <QSyntaxHighlighter>

namespace lizard::ui {

class RecipeHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit RecipeHighlighter(QTextDocument* document);

    // 1-based; 0: none.
    void setErrorLine(int line);
    int errorLine() const { return m_errorLine; }

protected:
    void highlightBlock(const QString& text) override;

private:
    highlight::Theme m_theme;
    int m_errorLine = 0;
};

} // namespace lizard::ui
