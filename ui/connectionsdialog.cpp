#include "ui/connectionsdialog.h"

#include "client/keytransport.h"
#include "models/serveraccount.h"
#include "ui/sshhostform.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace lizard::ui {

using models::ConnectionProfile;

ConnectionsDialog::ConnectionsDialog(const QList<ConnectionProfile>& profiles,
                                     const QString& activeId, const QString& keyStorageNote,
                                     QWidget* parent)
    : QDialog(parent), m_profiles(profiles), m_list(new QListWidget(this)),
      m_name(new QLineEdit(this)),
      m_url(new QLineEdit(QStringLiteral("https://lizard.build"), this)),
      m_key(new QLineEdit(this)), m_caFile(new QLineEdit(this)),
      m_test(new QPushButton(QStringLiteral("Test"), this)),
      m_selectedCa(new QPushButton(QStringLiteral("CA certificate…"), this)),
      m_clearCa(new QPushButton(QStringLiteral("Clear CA certificate"), this)),
      m_testResult(new QLabel(this)), m_error(new QLabel(this)), m_sshForm(new SshHostForm(this))
{
    setWindowTitle(QStringLiteral("Connections"));
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setPlaceholderText(QStringLiteral("liz_…"));
    m_name->setPlaceholderText(QStringLiteral("Lizard cloud"));
    m_caFile->setPlaceholderText(QStringLiteral("optional: your organisation's CA (PEM)"));
    m_caFile->setToolTip(QStringLiteral(
        "Needed when a proxy inspects https:// with its own certificate authority: "
        "that authority is then trusted for this connection, next to the system's."));
    m_testResult->setObjectName(QStringLiteral("testResult"));
    m_testResult->setWordWrap(true);
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_testResult->hide();
    auto* chooseCa = new QPushButton(QStringLiteral("Choose…"), this);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: #b02020; }"));
    m_error->setWordWrap(true);
    m_error->hide();
    auto* remove = new QPushButton(QStringLiteral("Remove"), this);
    auto* add = new QPushButton(QStringLiteral("Add cloud connection"), this);
    auto* storage = new QLabel(keyStorageNote, this);
    storage->setWordWrap(true);
    storage->setObjectName(QStringLiteral("keyStorageNote"));

    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("Name:"), m_name);
    form->addRow(QStringLiteral("URL:"), m_url);
    form->addRow(QStringLiteral("API key:"), m_key);
    auto* caRow = new QHBoxLayout;
    caRow->addWidget(m_caFile, 1);
    caRow->addWidget(chooseCa);
    form->addRow(QStringLiteral("CA certificate file:"), caRow);
    auto* actions = new QHBoxLayout;
    actions->addWidget(m_test);
    actions->addWidget(add);
    actions->addStretch(1);
    form->addRow(QString(), actions);
    form->addRow(QString(), m_testResult);
    auto* group = new QGroupBox(QStringLiteral("New Lizard cloud connection"), this);
    auto* groupLayout = new QVBoxLayout(group);
    groupLayout->addLayout(form);
    groupLayout->addWidget(storage);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("Use selected"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(QStringLiteral("Connections (the selected one is used):"), this));
    layout->addWidget(m_list, 1);
    m_selectedCa->setToolTip(
        QStringLiteral("Trust your organisation's certificate authority for the "
                       "selected connection (a PEM file), next to the system's."));
    auto* selectionRow = new QHBoxLayout;
    selectionRow->addWidget(remove);
    selectionRow->addWidget(m_selectedCa);
    selectionRow->addWidget(m_clearCa);
    selectionRow->addStretch(1);
    layout->addLayout(selectionRow);
    layout->addWidget(group);
    layout->addWidget(m_sshForm);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(remove, &QPushButton::clicked, this, &ConnectionsDialog::removeSelected);
    connect(m_list, &QListWidget::currentRowChanged, this,
            &ConnectionsDialog::updateSelectionButtons);
    connect(m_selectedCa, &QPushButton::clicked, this, [this] {
        const ConnectionProfile* p = selectedProfile();
        const QString path = QFileDialog::getOpenFileName(
            this, QStringLiteral("CA certificate for %1").arg(p ? p->name : QString()),
            p ? p->caFile : QString(),
            QStringLiteral("Certificates (*.pem *.crt *.cer);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !setSelectedCaFile(path, &error))
            showError(error);
    });
    connect(m_clearCa, &QPushButton::clicked, this, [this] {
        QString error;
        if (!setSelectedCaFile({}, &error))
            showError(error);
    });
    connect(chooseCa, &QPushButton::clicked, this, &ConnectionsDialog::chooseCaFile);
    connect(m_test, &QPushButton::clicked, this, &ConnectionsDialog::testForm);
    connect(add, &QPushButton::clicked, this, [this] {
        QString error;
        if (addCloudFromForm(&error))
            m_error->hide();
        else
            showError(error);
    });
    connect(m_sshForm, &SshHostForm::addRequested, this, [this] {
        QString error;
        if (addSshFromForm(&error))
            m_error->hide();
        else
            showError(error);
    });
    rebuildList(activeId);
    resize(560, 700);
}

void ConnectionsDialog::rebuildList(const QString& selectId)
{
    m_list->clear();
    for (const ConnectionProfile& p : std::as_const(m_profiles)) {
        QString where = p.url;
        if (p.kind == ConnectionProfile::Kind::Local)
            where = QStringLiteral("this computer");
        else if (p.kind == ConnectionProfile::Kind::Ssh)
            where = QStringLiteral("SSH ") + p.sshDestination +
                    (p.sshPort > 0 ? QStringLiteral(":%1").arg(p.sshPort) : QString());
        QString text = QStringLiteral("%1 — %2").arg(p.name, where);
        if (!p.caFile.isEmpty())
            text += QStringLiteral("  (CA: %1)").arg(QFileInfo(p.caFile).fileName());
        auto* item = new QListWidgetItem(text, m_list);
        item->setToolTip(p.caFile.isEmpty() ? QString()
                                            : QStringLiteral("Also trusts %1").arg(p.caFile));
        item->setData(Qt::UserRole, p.id);
        if (p.id == selectId)
            m_list->setCurrentItem(item);
    }
    if (m_list->currentItem() == nullptr && m_list->count() > 0)
        m_list->setCurrentRow(0);
    updateSelectionButtons();
}

ConnectionProfile* ConnectionsDialog::selectedProfile()
{
    const QString id = activeId();
    for (ConnectionProfile& p : m_profiles)
        if (p.id == id)
            return &p;
    return nullptr;
}

void ConnectionsDialog::updateSelectionButtons()
{
    const ConnectionProfile* p = selectedProfile();
    const bool cloud = p && p->kind == ConnectionProfile::Kind::Cloud;
    m_selectedCa->setEnabled(cloud);
    m_clearCa->setEnabled(cloud && !p->caFile.isEmpty());
}

void ConnectionsDialog::showError(const QString& error)
{
    m_error->setText(error);
    m_error->show();
}

bool ConnectionsDialog::setSelectedCaFile(const QString& path, QString* error)
{
    ConnectionProfile* p = selectedProfile();
    if (!p || p->kind != ConnectionProfile::Kind::Cloud) {
        *error = QStringLiteral("Only a cloud connection can have a CA certificate.");
        return false;
    }
    if (!checkCaFile(path.trimmed(), error))
        return false;
    p->caFile = path.trimmed();
    m_error->hide();
    rebuildList(p->id);
    return true;
}

QString ConnectionsDialog::activeId() const
{
    const QListWidgetItem* item = m_list->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

bool ConnectionsDialog::addCloudFromForm(QString* error)
{
    const QUrl url(m_url->text().trimmed(), QUrl::StrictMode);
    if (!url.isValid() ||
        (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")) ||
        url.host().isEmpty()) {
        *error = QStringLiteral("The URL must look like https://lizard.build.");
        return false;
    }
    const QString key = m_key->text().trimmed();
    if (key.isEmpty()) {
        *error = QStringLiteral("An API key is needed for a cloud connection.");
        return false;
    }
    if (!checkCaFile(m_caFile->text().trimmed(), error))
        return false;
    const bool inClear = client::keyTravelsInClear(url.toString());
    if (inClear && !confirmKeyInClear(url.toString())) {
        *error =
            QStringLiteral("Not added: the API key would travel unencrypted to %1. Use https://.")
                .arg(url.host());
        return false;
    }
    const QString id = freeId(QStringLiteral("cloud"));
    ConnectionProfile profile;
    profile.id = id;
    profile.name = m_name->text().trimmed().isEmpty() ? QStringLiteral("Lizard cloud")
                                                      : m_name->text().trimmed();
    profile.kind = ConnectionProfile::Kind::Cloud;
    profile.keyInClearConfirmed = inClear;
    profile.caFile = m_caFile->text().trimmed();
    QString base = url.toString();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    profile.url = base;
    m_profiles.append(profile);
    m_newKeys.insert(id, key);
    m_key->clear();
    m_name->clear();
    m_caFile->clear();
    m_testResult->hide();
    rebuildList(id);
    return true;
}

QString ConnectionsDialog::freeId(const QString& prefix) const
{
    const auto taken = [this](const QString& candidate) {
        for (const auto& p : std::as_const(m_profiles))
            if (p.id == candidate)
                return true;
        return false;
    };
    int n = 1;
    QString id;
    do {
        id = QStringLiteral("%1-%2").arg(prefix).arg(n++);
    } while (taken(id));
    return id;
}

bool ConnectionsDialog::addSshFromForm(QString* error)
{
    ConnectionProfile profile;
    if (!m_sshForm->toProfile(&profile, error))
        return false;
    profile.id = freeId(QStringLiteral("ssh"));
    m_profiles.append(profile);
    m_sshForm->clear();
    rebuildList(profile.id);
    return true;
}

bool ConnectionsDialog::checkCaFile(const QString& path, QString* error)
{
    if (path.isEmpty())
        return true;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error =
            QStringLiteral("The CA certificate file cannot be read: %1").arg(file.errorString());
        return false;
    }
    // A DER file or a key would only fail later, at the first request, with a vaguer message.
    if (!file.read(4 * 1024 * 1024).contains("-----BEGIN CERTIFICATE-----")) {
        *error = QStringLiteral("%1 holds no PEM certificate (a text file with "
                                "\"-----BEGIN CERTIFICATE-----\").")
                     .arg(path);
        return false;
    }
    return true;
}

void ConnectionsDialog::chooseCaFile()
{
    const QString path = QFileDialog::getOpenFileName(
        this, QStringLiteral("CA certificate"), QString(),
        QStringLiteral("Certificates (*.pem *.crt *.cer);;All files (*)"));
    if (!path.isEmpty())
        m_caFile->setText(path);
}

void ConnectionsDialog::testForm()
{
    const auto show = [this](const QString& text, bool good) {
        m_testResult->setStyleSheet(good ? QStringLiteral("QLabel { color: #207020; }")
                                         : QStringLiteral("QLabel { color: #b02020; }"));
        m_testResult->setText(text);
        m_testResult->show();
    };
    const QUrl url(m_url->text().trimmed(), QUrl::StrictMode);
    QString error;
    if (!url.isValid() || url.host().isEmpty() ||
        (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")))
        error = QStringLiteral("The URL must look like https://lizard.build.");
    else if (m_key->text().trimmed().isEmpty())
        error = QStringLiteral("An API key is needed for a cloud connection.");
    else if (client::keyTravelsInClear(url.toString()))
        error = QStringLiteral("Not tested: the API key would travel unencrypted. Use https://.");
    if (!error.isEmpty() || !checkCaFile(m_caFile->text().trimmed(), &error))
        return show(error, false);

    const quint64 serial = ++m_testSerial;
    show(QStringLiteral("Testing %1…").arg(url.host()), true);
    const client::Endpoint endpoint{url.toString(), m_key->text().trimmed(), false,
                                    m_caFile->text().trimmed()};
    models::testEndpoint(
        endpoint, this, [this, serial, show](client::Outcome<client::WhoAmI> outcome) {
            if (serial != m_testSerial)
                return;
            if (!outcome) {
                client::ApiError e = outcome.error();
                e.what = QStringLiteral("Connecting");
                return show(e.toDisplayString(), false);
            }
            const QString who =
                outcome.value().email.isEmpty() ? outcome.value().name : outcome.value().email;
            show(who.isEmpty() ? QStringLiteral("Connected.")
                               : QStringLiteral("Connected as %1.").arg(who),
                 true);
        });
}

bool ConnectionsDialog::confirmKeyInClear(const QString& url)
{
    const QString host = QUrl(url).host();
    QMessageBox box(QMessageBox::Warning, QStringLiteral("Send the API key unencrypted?"),
                    QStringLiteral("%1 uses plain http://, not https://.").arg(url),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("keyInClearWarning"));
    box.setInformativeText(
        QStringLiteral(
            "Your API key would be sent unencrypted with every request. Anyone on the network "
            "between this computer and %1 (Wi-Fi, a proxy, a provider) could read it and use your "
            "Lizard account and sandboxes. Use an https:// URL unless you trust every network in "
            "between.")
            .arg(host));
    QPushButton* send =
        box.addButton(QStringLiteral("Send the key unencrypted"), QMessageBox::DestructiveRole);
    QPushButton* cancel = box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(cancel);
    box.setEscapeButton(cancel);
    box.exec();
    return box.clickedButton() == send;
}

void ConnectionsDialog::accept()
{
    const QString id = activeId();
    for (ConnectionProfile& p : m_profiles) {
        if (p.id != id || p.kind != ConnectionProfile::Kind::Cloud || p.keyInClearConfirmed ||
            !client::keyTravelsInClear(p.url))
            continue;
        if (!confirmKeyInClear(p.url)) {
            m_error->setText(
                QStringLiteral("Not switched: %1 would get the API key unencrypted.").arg(p.url));
            m_error->show();
            return;
        }
        p.keyInClearConfirmed = true;
    }
    QDialog::accept();
}

void ConnectionsDialog::removeSelected()
{
    const QString id = activeId();
    for (int i = 0; i < m_profiles.size(); ++i) {
        if (m_profiles.at(i).id != id)
            continue;
        if (m_profiles.at(i).kind == ConnectionProfile::Kind::Local) {
            m_error->setText(
                QStringLiteral("The local connection is built in and cannot be removed."));
            m_error->show();
            return;
        }
        m_profiles.removeAt(i);
        m_newKeys.remove(id);
        m_removed.append(id);
        rebuildList({});
        return;
    }
}

} // namespace lizard::ui
