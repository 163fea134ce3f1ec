#include "ui/aboutdialog.h"

#include "client/coderun/runnerevents.h"
#include "models/serveraccount.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QUrl>
#include <QVBoxLayout>

namespace lizard::ui {

namespace {

QLabel* valueLabel(const QString& name, const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setObjectName(name);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

bool isLoopback(const QString& url)
{
    const QString host = QUrl(url).host();
    return host == QLatin1String("localhost") || host == QLatin1String("::1") ||
           host.startsWith(QLatin1String("127."));
}

// lizard-local answers "lizard-local/<version>"; the cloud may name its front end (a proxy)
// or nothing, so that is only shown beside "Lizard cloud".
QString describeServer(const QString& header, const QString& url)
{
    if (header.startsWith(QLatin1String("lizard"), Qt::CaseInsensitive))
        return QString(header).replace(QLatin1Char('/'), QLatin1Char(' '));
    if (!isLoopback(url))
        return header.isEmpty() ? QStringLiteral("Lizard cloud")
                                : QStringLiteral("Lizard cloud (server: %1)").arg(header);
    return header.isEmpty() ? QStringLiteral("a server that does not name its version") : header;
}

} // namespace

AboutDialog::AboutDialog(client::LizardApi* api, QWidget* parent)
    : QDialog(parent),
      m_app(valueLabel(QStringLiteral("aboutApp"), QStringLiteral(LIZARD_VERSION), this)),
      m_server(valueLabel(QStringLiteral("aboutServer"), QString(), this)),
      m_qt(valueLabel(QStringLiteral("aboutQt"), QString(), this)),
      m_runner(valueLabel(QStringLiteral("aboutRunner"), QString(), this))
{
    setObjectName(QStringLiteral("aboutDialog"));
    setWindowTitle(QStringLiteral("About lizard-desktop"));
    auto* title = new QLabel(
        QStringLiteral("<h2>lizard-desktop</h2>"
                       "<p>Lizard sandboxes on your desktop: projects, sandboxes, consoles, "
                       "files, previews and notebooks, on this computer or in the Lizard "
                       "cloud.</p>"),
        this);
    title->setWordWrap(true);
    // The Qt the app runs on can differ from the one it was built with (a newer Debian point
    // release).
    const QString runtimeQt = QString::fromLatin1(qVersion());
    m_qt->setText(
        runtimeQt == QLatin1String(QT_VERSION_STR)
            ? runtimeQt
            : QStringLiteral("%1 (built with %2)").arg(runtimeQt, QLatin1String(QT_VERSION_STR)));
    const QString runner = client::runnerVersion();
    m_runner->setText(runner.isEmpty() ? QStringLiteral("unknown (not embedded)") : runner);
    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("lizard-desktop:"), m_app);
    form->addRow(QStringLiteral("Server:"), m_server);
    form->addRow(QStringLiteral("Qt:"), m_qt);
    form->addRow(QStringLiteral("Code runner:"), m_runner);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addLayout(form);
    layout->addWidget(buttons);
    setMinimumWidth(460);
    askServer(api);
}

void AboutDialog::askServer(client::LizardApi* api)
{
    if (api == nullptr) {
        m_server->setText(QStringLiteral("not connected"));
        m_answered = true;
        return;
    }
    const QString url = models::serverUrl(api);
    m_server->setText(QStringLiteral("asking %1…").arg(url));
    models::askWhoAmI(api, this, [this, url](client::Outcome<client::WhoAmI> outcome) {
        m_answered = true;
        if (!outcome) {
            m_server->setText(QStringLiteral("%1 did not answer: %2")
                                  .arg(url, outcome.error().toDisplayString()));
        } else {
            m_server->setText(
                QStringLiteral("%1 at %2").arg(describeServer(outcome.value().server, url), url));
        }
        emit serverAnswerArrived();
    });
}

QString AboutDialog::appVersion() const
{
    return m_app->text();
}
QString AboutDialog::serverText() const
{
    return m_server->text();
}
QString AboutDialog::qtVersion() const
{
    return m_qt->text();
}
QString AboutDialog::runnerVersion() const
{
    return m_runner->text();
}

} // namespace lizard::ui
