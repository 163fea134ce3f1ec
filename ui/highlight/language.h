#pragma once
// The languages the built-in highlighter knows, and their names.

#include <QString>

namespace lizard::ui::highlight {

enum class Language { None, Python, JavaScript, Bash, Markdown };

// "python"/"py"/"python3"/"ipython" -> Python, "javascript"/"js"/"node" -> JavaScript,
// "bash"/"sh"/"shell"/"zsh" -> Bash, "markdown"/"md" -> Markdown; anything else -> None.
Language languageFromName(const QString& name);
QString languageName(Language language); // canonical lower-case name; empty for None
// By suffix (".py", ".js", ".mjs", ".cjs", ".ts" is not JavaScript, ".sh", ".bash", ".md", …)
// and a few well-known file names (".bashrc", ".profile").
Language languageFromFileName(const QString& path);

} // namespace lizard::ui::highlight
