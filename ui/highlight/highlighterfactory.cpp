#include "ui/highlight/highlighterfactory.h"

#include "ui/highlight/codehighlighter.h"
#include "ui/highlight/markdownhighlighter.h"

#ifdef LIZARD_HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#include <QGuiApplication>
#include <QPalette>
#endif

namespace lizard::ui::highlight {

#ifdef LIZARD_HAVE_KSYNTAXHIGHLIGHTING
namespace {

KSyntaxHighlighting::Repository& repository()
{
    static KSyntaxHighlighting::Repository repo;
    return repo;
}

QString ksyntaxName(const QString& language)
{
    switch (languageFromName(language)) {
    case Language::Python:
        return QStringLiteral("Python");
    case Language::JavaScript:
        return QStringLiteral("JavaScript");
    case Language::Bash:
        return QStringLiteral("Bash");
    case Language::Markdown:
        return QStringLiteral("Markdown");
    case Language::None:
        break;
    }
    return language;
}

} // namespace
#endif

bool usesKSyntaxHighlighting()
{
#ifdef LIZARD_HAVE_KSYNTAXHIGHLIGHTING
    return true;
#else
    return false;
#endif
}

QSyntaxHighlighter* createHighlighter(QTextDocument* document, const QString& language)
{
    if (!document)
        return nullptr;
#ifdef LIZARD_HAVE_KSYNTAXHIGHLIGHTING
    const auto definition = repository().definitionForName(ksyntaxName(language));
    if (!definition.isValid())
        return nullptr;
    auto* highlighter = new KSyntaxHighlighting::SyntaxHighlighter(document);
    const bool dark = QGuiApplication::palette().color(QPalette::Base).lightness() < 128;
    highlighter->setTheme(
        repository().defaultTheme(dark ? KSyntaxHighlighting::Repository::DarkTheme
                                       : KSyntaxHighlighting::Repository::LightTheme));
    highlighter->setDefinition(definition);
    return highlighter;
#else
    const Language lang = languageFromName(language);
    switch (lang) {
    case Language::Python:
    case Language::JavaScript:
    case Language::Bash:
        return new CodeHighlighter(document, lang, Theme::forApplication());
    case Language::Markdown:
        return new MarkdownHighlighter(document, Theme::forApplication());
    case Language::None:
        break;
    }
    return nullptr;
#endif
}

QString languageForFileName(const QString& path)
{
#ifdef LIZARD_HAVE_KSYNTAXHIGHLIGHTING
    const auto definition = repository().definitionForFileName(path);
    if (!definition.isValid())
        return {};
    const QString ours = languageName(languageFromName(definition.name()));
    return ours.isEmpty() ? definition.name() : ours;
#else
    return languageName(languageFromFileName(path));
#endif
}

} // namespace lizard::ui::highlight
