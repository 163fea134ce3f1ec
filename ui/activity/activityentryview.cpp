#include "ui/activity/activityentryview.h"

#include "models/activity/activitylistmodel.h"
#include "notebook/activitynotebook.h"
#include "ui/highlight/highlighterfactory.h"
#include "ui/notebook/outputview.h"
#include "ui/notebook/outputviewfactory.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

namespace lizard::ui::activity {

namespace {

// A read-only code or console block that is as tall as its text (up to a limit).
QPlainTextEdit* block(const QString& content, QWidget* parent)
{
    auto* edit = new QPlainTextEdit(parent);
    edit->setReadOnly(true);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setPlainText(content);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    const int lines = std::min(int(content.count(QLatin1Char('\n'))) + 1, 30);
    const int margins = int(edit->document()->documentMargin() * 2) + edit->frameWidth() * 2;
    edit->setFixedHeight(edit->fontMetrics().lineSpacing() * lines + margins +
                         edit->horizontalScrollBar()->sizeHint().height());
    return edit;
}

// The captured output of one stream: its first 64 KiB, and its last when more was printed.
QString captured(const QString& head, const std::optional<QString>& tail, qint64 bytes)
{
    QString out = head;
    if (tail) {
        const qint64 skipped = bytes - out.toUtf8().size() - tail->toUtf8().size();
        if (skipped > 0)
            out += QObject::tr("\n… %1 bytes not kept …\n").arg(skipped);
        out += *tail;
    }
    return out;
}

} // namespace

ActivityEntryView::ActivityEntryView(QWidget* parent)
    : QWidget(parent), m_layout(new QVBoxLayout(this))
{
    m_layout->setAlignment(Qt::AlignTop);
}

void ActivityEntryView::clear()
{
    m_outputs.clear();
    while (QLayoutItem* item = m_layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

void ActivityEntryView::showEntry(const client::ActivityEntry& entry)
{
    clear();
    addHeader(entry);
    if (entry.kind == u"runCode")
        showRunCode(entry);
    else if (entry.kind == u"exec")
        showExec(entry);
    else if (entry.kind.startsWith(u"file"))
        showFile(entry);
    if (entry.kind == u"runCode" || entry.kind == u"exec")
        addChangesLink(entry);
}

void ActivityEntryView::addChangesLink(const client::ActivityEntry& entry)
{
    QDateTime from = QDateTime::fromString(entry.start, Qt::ISODateWithMs);
    QDateTime to = QDateTime::fromString(entry.end, Qt::ISODateWithMs);
    if (!from.isValid())
        from = QDateTime::fromString(entry.time, Qt::ISODateWithMs).addMSecs(-entry.durationMs);
    if (!to.isValid())
        to = from.addMSecs(entry.durationMs);
    if (!from.isValid())
        return;
    const QString what = tr("%1 #%2 at %3")
                             .arg(entry.kind == u"runCode" ? tr("the code run") : tr("the command"))
                             .arg(entry.seq)
                             .arg(from.toLocalTime().toString(QStringLiteral("HH:mm:ss")));
    auto* link = new QPushButton(tr("Files it changed"), this);
    link->setObjectName(QStringLiteral("activityShowChanges"));
    link->setToolTip(tr("The Changes tab, with only the files written while it ran"));
    connect(link, &QPushButton::clicked, this,
            [this, from, to, what] { emit showChangesRequested(from, to, what); });
    m_layout->addWidget(link, 0, Qt::AlignLeft);
}

void ActivityEntryView::addHeader(const client::ActivityEntry& entry)
{
    auto* header = new QLabel(this);
    header->setObjectName(QStringLiteral("activityEntryHeader"));
    header->setTextFormat(Qt::PlainText);
    header->setWordWrap(true);
    const QDateTime time = QDateTime::fromString(entry.time, Qt::ISODateWithMs);
    header->setText(QStringLiteral("#%1  %2\n%3")
                        .arg(entry.seq)
                        .arg(time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")),
                             models::ActivityListModel::summary(entry)));
    m_layout->addWidget(header);
}

void ActivityEntryView::showRunCode(const client::ActivityEntry& entry)
{
    const lizard::notebook::CellData cell = lizard::notebook::cellFromRunCode(entry);
    auto* where = new QLabel(
        tr("In [%1]  ·  context %2")
            .arg(cell.executionCount ? QString::number(*cell.executionCount) : QStringLiteral(" "),
                 lizard::notebook::activityContextId(entry)),
        this);
    m_layout->addWidget(where);
    auto* code = block(cell.source, this);
    code->setObjectName(QStringLiteral("activityCode"));
    highlight::createHighlighter(code->document(), lizard::notebook::activityLanguage(entry));
    m_layout->addWidget(code);
    for (const auto& output : cell.outputs) {
        notebook::OutputView* view = notebook::createOutputView(output, this);
        view->flush();
        m_outputs << view;
        m_layout->addWidget(view);
    }
    if (entry.eventsTruncated)
        m_layout->addWidget(new QLabel(tr("(more output than the log keeps per run)"), this));
}

void ActivityEntryView::showExec(const client::ActivityEntry& entry)
{
    QString console = QStringLiteral("$ ") +
                      entry.command.value_or(client::argvJsonText(entry.argv)) + QLatin1Char('\n') +
                      captured(entry.stdoutHead, entry.stdoutTail, entry.stdoutBytes);
    const QString err = captured(entry.stderrHead, entry.stderrTail, entry.stderrBytes);
    if (!err.isEmpty())
        console += (console.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n")) + err;
    auto* out = block(console, this);
    out->setObjectName(QStringLiteral("activityConsole"));
    m_layout->addWidget(out);
    QStringList facts;
    if (entry.exitCode)
        facts << tr("exit code %1").arg(*entry.exitCode);
    if (entry.timedOut)
        facts << tr("timed out");
    if (entry.error)
        facts << *entry.error + QStringLiteral(": ") + entry.message;
    facts << tr("%1 ms").arg(entry.durationMs);
    if (!entry.cwd.isEmpty())
        facts << tr("in %1").arg(entry.cwd);
    facts << tr("as %1").arg(entry.user);
    if (!entry.envNames.isEmpty())
        facts << tr("env: %1").arg(entry.envNames.join(QStringLiteral(", ")));
    auto* status = new QLabel(facts.join(QStringLiteral("  ·  ")), this);
    status->setObjectName(QStringLiteral("activityExitCode"));
    if (entry.exitCode.value_or(0) != 0 || entry.error)
        status->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
    m_layout->addWidget(status);
}

void ActivityEntryView::showFile(const client::ActivityEntry& entry)
{
    const QString path = entry.to.isEmpty() ? entry.path : entry.to;
    if (entry.kind == u"fileDelete")
        return; // nothing left to show
    auto* link = new QPushButton(tr("Show %1 in Files").arg(path), this);
    link->setObjectName(QStringLiteral("activityShowFile"));
    connect(link, &QPushButton::clicked, this, [this, path] { emit showFileRequested(path); });
    m_layout->addWidget(link, 0, Qt::AlignLeft);
}

} // namespace lizard::ui::activity
