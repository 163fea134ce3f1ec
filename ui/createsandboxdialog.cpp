#include "ui/createsandboxdialog.h"

#include "models/desktop/screensizes.h"
#include "models/sandboxactions.h"
#include "ui/errorlabel.h"
#include "ui/keyvaluetable.h"
#include "ui/lifecycle/lifecyclechoices.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace lizard::ui {

namespace {
struct SizeChoice
{
    const char* name;
    const char* label;
};
constexpr SizeChoice kSizes[] = {
    {"nano", "nano — 0.5 vCPU, 1 GB"},  {"mini", "mini — 1 vCPU, 2 GB"},
    {"small", "small — 2 vCPU, 4 GB"},  {"medium", "medium — 4 vCPU, 8 GB"},
    {"large", "large — 8 vCPU, 16 GB"}, {"big", "big — 16 vCPU, 32 GB"},
};
} // namespace

CreateSandboxDialog::CreateSandboxDialog(models::SandboxActions* actions, QString projectId,
                                         QWidget* parent)
    : QDialog(parent), m_actions(actions), m_projectId(std::move(projectId)),
      m_template(new QComboBox(this)), m_screen(new QComboBox(this)), m_size(new QComboBox(this)),
      m_lifetime(new QSpinBox(this)), m_onTimeout(new QComboBox(this)),
      m_idlePause(new QSpinBox(this)),
      m_internet(new QCheckBox(QStringLiteral("Internet access"), this)),
      m_allowedHosts(new QLineEdit(this)), m_volume(new QComboBox(this)),
      m_envs(new KeyValueTable(QStringLiteral("Variable"), this)),
      m_metadata(new KeyValueTable(QStringLiteral("Label"), this)),
      m_progress(new QProgressBar(this)), m_error(new ErrorLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(QStringLiteral("New sandbox"));
    m_template->addItem(QStringLiteral("base — shell, coreutils, python3"), QStringLiteral("base"));
    m_template->addItem(
        QStringLiteral("interpreter — python3 with Jupyter kernel, numpy, pandas; node"),
        QStringLiteral("interpreter"));
    m_template->addItem(
        QStringLiteral("desktop — a screen with Openbox and Chromium to watch or take over"),
        QStringLiteral("desktop"));
    for (const QSize& s : models::screenSizes())
        m_screen->addItem(models::screenSizeText(s), s);
    m_screen->setToolTip(QStringLiteral("The desktop starts at this size once the sandbox is up; "
                                        "the Screen tab shows it"));
    const auto desktopOnly = [this] {
        m_screen->setEnabled(m_template->currentData() == QStringLiteral("desktop"));
    };
    connect(m_template, &QComboBox::currentIndexChanged, this, desktopOnly);
    desktopOnly();
    for (const auto& size : kSizes)
        m_size->addItem(QString::fromUtf8(size.label), QString::fromLatin1(size.name));
    m_size->setCurrentIndex(m_size->findData(QStringLiteral("medium")));
    m_lifetime->setRange(0, 35791); // the API's limit is 2^31-1 ms
    m_lifetime->setValue(5);
    m_lifetime->setSuffix(QStringLiteral(" min"));
    m_lifetime->setSpecialValueText(QStringLiteral("no limit"));
    m_lifetime->setToolTip(QStringLiteral(
        "When this time has passed, the sandbox is killed or paused (At the end); 0 = no limit."));
    lifecycle::fillOnTimeoutChoices(m_onTimeout);
    lifecycle::setUpIdleBox(m_idlePause);
    m_internet->setChecked(true);
    m_allowedHosts->setPlaceholderText(
        QStringLiteral("optional: pypi.org, *.pythonhosted.org, 10.0.0.0/8"));
    m_allowedHosts->setToolTip(QStringLiteral(
        "Only these hosts are reachable: names (*. for subdomains) on ports 80 and 443, IPv4 "
        "addresses or ranges on every port. Nothing else, whatever Internet access says."));
    // A list replaces internet access: the box shows what the sandbox will really get.
    connect(m_allowedHosts, &QLineEdit::textChanged, this, [this](const QString& text) {
        const bool listed = !text.trimmed().isEmpty();
        m_internet->setEnabled(!listed);
        if (listed)
            m_internet->setChecked(false);
    });
    m_buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("Create"));
    m_progress->setRange(0, 0);
    m_progress->setFormat(QStringLiteral("Creating sandbox…"));
    m_progress->setTextVisible(true);
    m_progress->hide();

    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("Template:"), m_template);
    form->addRow(QStringLiteral("Screen:"), m_screen);
    form->addRow(QStringLiteral("Size:"), m_size);
    form->addRow(QStringLiteral("Lifetime:"), m_lifetime);
    form->addRow(QStringLiteral("At the end:"), m_onTimeout);
    form->addRow(QStringLiteral("Pause when unused for:"), m_idlePause);
    form->addRow(QString(), m_internet);
    form->addRow(QStringLiteral("Only these hosts:"), m_allowedHosts);
    form->addRow(QStringLiteral("Volume at /workspace:"), m_volume);
    form->addRow(QStringLiteral("Environment:"), m_envs);
    form->addRow(QStringLiteral("Metadata:"), m_metadata);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &CreateSandboxDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &CreateSandboxDialog::reject);
    resize(560, 600);
    loadVolumes();
    loadTemplates();
}

void CreateSandboxDialog::loadTemplates()
{
    if (!m_actions)
        return;
    m_actions->listRecipeTemplates(this, [this](client::Outcome<QList<client::TemplateInfo>> o) {
        if (!o || o.value().isEmpty())
            return;
        m_template->insertSeparator(m_template->count());
        for (const client::TemplateInfo& t : o.value())
            m_template->addItem(QStringLiteral("%1 — yours, version %2 (from %3)")
                                    .arg(t.name)
                                    .arg(*t.latest)
                                    .arg(t.base),
                                t.name);
    });
}

void CreateSandboxDialog::loadVolumes()
{
    m_volume->addItem(QStringLiteral("none"), QString());
    if (!m_actions || m_projectId.isEmpty())
        return;
    m_actions->listVolumes(
        m_projectId, this, [this](client::Outcome<QList<client::Volume>> outcome) {
            if (!outcome) {
                m_volume->setToolTip(QStringLiteral("The project's volumes could not be listed: ") +
                                     outcome.error().toDisplayString());
                return;
            }
            for (const client::Volume& v : outcome.value()) {
                const bool attached = !v.attachedTo.isEmpty();
                m_volume->addItem(attached ? QStringLiteral("%1 (%2 GB, attached to %3)")
                                                 .arg(v.name)
                                                 .arg(v.sizeGb)
                                                 .arg(v.attachedTo)
                                           : QStringLiteral("%1 (%2 GB)").arg(v.name).arg(v.sizeGb),
                                  v.name);
                if (attached) {
                    // A volume held by a running sandbox cannot be attached to a second one.
                    auto* model = qobject_cast<QStandardItemModel*>(m_volume->model());
                    if (model != nullptr)
                        model->item(m_volume->count() - 1)->setEnabled(false);
                }
            }
        });
}

bool CreateSandboxDialog::request(client::CreateSandboxRequest* out, QString* error) const
{
    client::CreateSandboxRequest req;
    req.projectId = m_projectId;
    req.templateName = m_template->currentData().toString();
    req.size = m_size->currentData().toString();
    req.timeoutMs = qint64(m_lifetime->value()) * 60000;
    // Sent only when not the defaults: a server without policies sees the create it knows.
    if (m_onTimeout->currentData() == QStringLiteral("pause"))
        req.onTimeout = QStringLiteral("pause");
    req.idlePauseMinutes = m_idlePause->value();
    req.internetAccess = m_internet->isChecked();
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    req.allowedHosts = m_allowedHosts->text().split(separators, Qt::SkipEmptyParts);
    req.volumeName = m_volume->currentData().toString();
    if (!m_envs->values(&req.envs, error) || !m_metadata->values(&req.metadata, error))
        return false;
    *out = req;
    return true;
}

QSize CreateSandboxDialog::screenSize() const
{
    return m_template->currentData() == QStringLiteral("desktop") ? m_screen->currentData().toSize()
                                                                  : QSize();
}

QString CreateSandboxDialog::errorText() const
{
    return m_error->errorText();
}

void CreateSandboxDialog::showError(const QString& text)
{
    m_error->showError(text);
}

void CreateSandboxDialog::setBusy(bool busy)
{
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_template, m_size, m_lifetime, m_onTimeout, m_idlePause,
                                         m_allowedHosts, m_volume, m_envs, m_metadata})
        w->setEnabled(!busy);
    m_screen->setEnabled(!busy && screenSize().isValid());
    m_internet->setEnabled(!busy && m_allowedHosts->text().trimmed().isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!busy);
    m_progress->setVisible(busy);
}

void CreateSandboxDialog::accept()
{
    if (m_call)
        return;
    client::CreateSandboxRequest req;
    QString error;
    if (!request(&req, &error)) {
        showError(error);
        return;
    }
    if (!m_actions) {
        showError(QStringLiteral("Not connected to a Lizard server."));
        return;
    }
    m_error->hide();
    setBusy(true);
    m_call = m_actions->create(req, this, [this](client::Outcome<client::SandboxInfo> outcome) {
        m_call = nullptr;
        setBusy(false);
        if (!outcome) {
            showError(outcome.error().toDisplayString());
            return;
        }
        m_created = outcome.value();
        emit sandboxCreated(m_created);
        QDialog::accept();
    });
}

void CreateSandboxDialog::reject()
{
    if (m_call)
        m_call->cancel(); // the server may still create it; the table shows it then
    QDialog::reject();
}

} // namespace lizard::ui
