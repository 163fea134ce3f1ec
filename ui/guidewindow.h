#pragma once
// Help ▸ User guide: the user guide (Markdown, docs/guide.md with its images in docs/guide/)
// rendered in a window of its own. It is read from the first place that has it: the installed
// documentation next to the program (<prefix>/share/doc/lizard-desktop), the source tree of a
// development build, then /usr/share/doc/lizard-desktop. Without one, the window says where it
// looked.

#include <QStringList>
#include <QWidget>

class QTextBrowser;

namespace lizard::ui {

class GuideWindow : public QWidget
{
    Q_OBJECT
public:
    // candidates: paths of guide.md, tried in order (defaultLocations() in the app).
    explicit GuideWindow(const QStringList& candidates, QWidget* parent = nullptr);

    static QStringList defaultLocations();

    QString guidePath() const { return m_path; } // empty when none was found
    QTextBrowser* browser() const { return m_browser; }

private:
    QString m_path;
    QTextBrowser* m_browser;
};

} // namespace lizard::ui
