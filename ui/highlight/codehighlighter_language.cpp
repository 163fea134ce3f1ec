#include "ui/highlight/codehighlighter.h"

#include <QFileInfo>

namespace lizard::ui::highlight {

Language languageFromName(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == u"python" || n == u"py" || n == u"python3" || n == u"ipython" || n == u"ipython3")
        return Language::Python;
    if (n == u"javascript" || n == u"js" || n == u"node" || n == u"nodejs" || n == u"mjs")
        return Language::JavaScript;
    if (n == u"bash" || n == u"sh" || n == u"shell" || n == u"zsh")
        return Language::Bash;
    if (n == u"markdown" || n == u"md")
        return Language::Markdown;
    return Language::None;
}

QString languageName(Language language)
{
    switch (language) {
    case Language::Python:
        return QStringLiteral("python");
    case Language::JavaScript:
        return QStringLiteral("javascript");
    case Language::Bash:
        return QStringLiteral("bash");
    case Language::Markdown:
        return QStringLiteral("markdown");
    case Language::None:
        break;
    }
    return {};
}

Language languageFromFileName(const QString& path)
{
    const QFileInfo info(path);
    const QString file = info.fileName().toLower();
    if (file == u".bashrc" || file == u".bash_profile" || file == u".profile" || file == u".zshrc")
        return Language::Bash;
    const QString suffix = info.suffix().toLower();
    if (suffix == u"py" || suffix == u"pyw" || suffix == u"pyi")
        return Language::Python;
    if (suffix == u"js" || suffix == u"mjs" || suffix == u"cjs" || suffix == u"jsx")
        return Language::JavaScript;
    if (suffix == u"sh" || suffix == u"bash" || suffix == u"zsh")
        return Language::Bash;
    if (suffix == u"md" || suffix == u"markdown")
        return Language::Markdown;
    return Language::None;
}

} // namespace lizard::ui::highlight
