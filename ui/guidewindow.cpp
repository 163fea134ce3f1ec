#include "ui/guidewindow.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace lizard::ui {

GuideWindow::GuideWindow(const QStringList& candidates, QWidget* parent)
    : QWidget(parent, Qt::Window), m_browser(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("guideWindow"));
    setWindowTitle(QStringLiteral("lizard-desktop user guide"));
    setAttribute(Qt::WA_DeleteOnClose);
    m_browser->setObjectName(QStringLiteral("guideBrowser"));
    m_browser->setOpenExternalLinks(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    resize(900, 760);

    for (const QString& candidate : candidates) {
        if (QFileInfo(candidate).isFile()) {
            m_path = QFileInfo(candidate).absoluteFilePath();
            break;
        }
    }
    if (m_path.isEmpty()) {
        QString list;
        for (const QString& candidate : candidates)
            list += QStringLiteral("<li><code>%1</code></li>")
                        .arg(QDir::cleanPath(candidate).toHtmlEscaped());
        m_browser->setHtml(
            QStringLiteral("<h2>The user guide was not found</h2>"
                           "<p>lizard-desktop looked for <code>guide.md</code> in:</p><ul>%1</ul>"
                           "<p>It is installed with the package, or read from <code>docs/</code> "
                           "of the source tree in a development build.</p>")
                .arg(list));
        return;
    }
    // As a Markdown source, images and links in the guide resolve relative to the file (guide/…).
    m_browser->setSearchPaths({QFileInfo(m_path).absolutePath()});
    m_browser->setSource(QUrl::fromLocalFile(m_path), QTextDocument::MarkdownResource);
}

QStringList GuideWindow::defaultLocations()
{
    const QString app = QCoreApplication::applicationDirPath();
    QStringList list{
        QDir::cleanPath(app + QStringLiteral("/../share/doc/lizard-desktop/guide.md"))};
#ifdef LIZARD_SOURCE_DIR
    list << QStringLiteral(LIZARD_SOURCE_DIR "/docs/guide.md");
#endif
    list << QStringLiteral("/usr/share/doc/lizard-desktop/guide.md");
    list.removeDuplicates();
    return list;
}

} // namespace lizard::ui
