#include "ui/apikeysdialog.h"

#include "models/apikeys.h"
#include "models/timeformat.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace lizard::ui {

namespace {

constexpr int kMaxName = 100; // lizard-local's limit; the server says so too

QString when(const QDateTime& t, const QString& never)
{
    return t.isValid() ? models::formatStarted(t, QDateTime::currentDateTimeUtc()) : never;
}

} // namespace

ApiKeysDialog::ApiKeysDialog(client::LizardApi* api, const QString& where, QWidget* parent)
    : QDialog(parent), m_keysModel(new models::ApiKeys(api, this)), m_list(new QTreeWidget),
      m_revoke(new QPushButton(tr("&Revoke…"))), m_refresh(new QPushButton(tr("Re&fresh"))),
      m_name(new QLineEdit), m_scope(new QComboBox), m_create(new QPushButton(tr("&Create key"))),
      m_secretBox(new QWidget), m_secret(new QLineEdit), m_copy(new QPushButton(tr("&Copy"))),
      m_error(new QLabel), m_status(new QLabel)
{
    setWindowTitle(tr("API keys"));
    setObjectName(QStringLiteral("apiKeysDialog"));
    auto* intro =
        new QLabel(tr("Keys that reach <b>%1</b>. Programs and the official SDKs use them "
                      "(<code>LIZARD_API_KEY</code>).")
                       .arg(where.toHtmlEscaped()));
    intro->setWordWrap(true);

    m_list->setObjectName(QStringLiteral("keyList"));
    m_list->setRootIsDecorated(false);
    m_list->setHeaderLabels({tr("Name"), tr("Scope"), tr("Key"), tr("Created"), tr("Last used")});
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->setMinimumHeight(160);
    m_revoke->setObjectName(QStringLiteral("revokeButton"));
    auto* listButtons = new QHBoxLayout;
    listButtons->addWidget(m_status, 1);
    listButtons->addWidget(m_refresh);
    listButtons->addWidget(m_revoke);

    auto* newBox = new QGroupBox(tr("New key"));
    auto* form = new QFormLayout(newBox);
    m_name->setObjectName(QStringLiteral("keyName"));
    m_name->setPlaceholderText(tr("What it is for, e.g. \"CI on my laptop\""));
    m_name->setMaxLength(kMaxName);
    m_scope->setObjectName(QStringLiteral("keyScope"));
    m_scope->addItem(tr("Full access"), false);
    m_scope->addItem(tr("Read-only (no exec, no changes)"), true);
    m_create->setObjectName(QStringLiteral("createButton"));
    auto* nameRow = new QHBoxLayout;
    nameRow->addWidget(m_name, 1);
    nameRow->addWidget(m_scope);
    nameRow->addWidget(m_create);
    form->addRow(tr("Name:"), nameRow);

    // The new key's secret: shown once, here only.
    auto* warning =
        new QLabel(tr("<b>Copy this key now.</b> It will not be shown again: the server "
                      "keeps only its hash."));
    warning->setObjectName(QStringLiteral("secretWarning"));
    warning->setStyleSheet(QStringLiteral("QLabel { color: #8a6d00; }"));
    warning->setWordWrap(true);
    m_secret->setObjectName(QStringLiteral("newKey"));
    m_secret->setReadOnly(true);
    m_secret->setFont(QFont(QStringLiteral("monospace")));
    m_copy->setObjectName(QStringLiteral("copyButton"));
    auto* secretRow = new QHBoxLayout;
    secretRow->addWidget(m_secret, 1);
    secretRow->addWidget(m_copy);
    auto* secretLayout = new QVBoxLayout(m_secretBox);
    secretLayout->setContentsMargins(0, 0, 0, 0);
    secretLayout->addWidget(warning);
    secretLayout->addLayout(secretRow);
    m_secretBox->setObjectName(QStringLiteral("secretBox"));
    m_secretBox->hide();
    form->addRow(m_secretBox);

    m_error->setObjectName(QStringLiteral("error"));
    m_error->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_list, 1);
    layout->addLayout(listButtons);
    layout->addWidget(newBox);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    resize(760, 480);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_refresh, &QPushButton::clicked, this, &ApiKeysDialog::refresh);
    connect(m_revoke, &QPushButton::clicked, this, &ApiKeysDialog::revokeSelected);
    connect(m_create, &QPushButton::clicked, this, &ApiKeysDialog::create);
    connect(m_name, &QLineEdit::returnPressed, this, &ApiKeysDialog::create);
    connect(m_name, &QLineEdit::textChanged, this, &ApiKeysDialog::updateButtons);
    connect(m_copy, &QPushButton::clicked, this, &ApiKeysDialog::copyKey);
    connect(m_keysModel, &models::ApiKeys::listed, this, [this](const QList<client::ApiKey>& keys) {
        showKeys(keys);
        emit keysListed();
    });
    connect(m_keysModel, &models::ApiKeys::listFailed, this, [this](const client::ApiError& e) {
        m_status->clear();
        showError(e);
        emit keysListed();
    });
    connect(m_keysModel, &models::ApiKeys::created, this, &ApiKeysDialog::showCreated);
    connect(m_keysModel, &models::ApiKeys::failed, this, [this](const client::ApiError& e) {
        updateButtons();
        showError(e);
    });
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &ApiKeysDialog::updateButtons);
    updateButtons();
    refresh();
}

QString ApiKeysDialog::shownKey() const
{
    return m_secretBox->isHidden() ? QString() : m_secret->text();
}

void ApiKeysDialog::refresh()
{
    m_status->setText(tr("Loading…"));
    m_keysModel->refresh();
}

void ApiKeysDialog::showKeys(const QList<client::ApiKey>& keys)
{
    m_keys = keys;
    m_list->clear();
    for (const client::ApiKey& k : keys) {
        auto* item = new QTreeWidgetItem(m_list);
        item->setText(0, k.bootstrap ? tr("%1 (this server's key file)").arg(k.name) : k.name);
        item->setText(1,
                      k.scopes.isEmpty() ? tr("Full access") : k.scopes.join(QStringLiteral(", ")));
        item->setText(2, k.preview);
        item->setText(3, when(k.createdAt, QString()));
        item->setText(4, when(k.lastUsedAt, tr("never")));
        item->setData(0, Qt::UserRole, k.id);
        if (k.bootstrap)
            item->setToolTip(
                0, tr("lizard-local's own key: the app uses it, and it cannot be revoked here"));
    }
    for (int c = 1; c < m_list->columnCount(); ++c)
        m_list->resizeColumnToContents(c);
    m_status->setText(tr("%n key(s)", nullptr, int(keys.size())));
    updateButtons();
}

void ApiKeysDialog::create()
{
    const QString name = m_name->text().trimmed();
    if (name.isEmpty())
        return;
    m_error->hide();
    m_create->setEnabled(false);
    m_keysModel->create(name, m_scope->currentData().toBool());
}

void ApiKeysDialog::showCreated(const QString& secret)
{
    updateButtons();
    m_name->clear();
    m_secret->setText(secret);
    m_secretBox->show();
    m_secret->selectAll();
    m_secret->setFocus();
}

void ApiKeysDialog::copyKey()
{
    QApplication::clipboard()->setText(m_secret->text());
    m_copy->setText(tr("Copied"));
}

void ApiKeysDialog::revokeSelected()
{
    const auto* item = m_list->currentItem();
    if (item == nullptr)
        return;
    const QString id = item->data(0, Qt::UserRole).toString();
    const QString name = item->text(0);
    const auto answer = QMessageBox::question(
        this, tr("Revoke API key"),
        tr("Revoke the key \"%1\"? Every program that uses it is refused from now on, and its open "
           "command streams end. This cannot be undone.")
            .arg(name),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes)
        return;
    m_error->hide();
    m_keysModel->revoke(id);
}

void ApiKeysDialog::showError(const client::ApiError& e)
{
    QString text;
    if (e.httpStatus == 501 || e.httpStatus == 404)
        text = tr("This server does not manage API keys (%1). A newer lizard-local does.")
                   .arg(e.toDisplayString());
    else if (e.httpStatus == 403 && e.code == QLatin1String("INSUFFICIENT_SCOPE"))
        text = tr("The key this connection uses is read-only: it can list keys but not create or "
                  "revoke them. Connect with a full-access key. (%1)")
                   .arg(e.message);
    else
        text = e.toDisplayString();
    m_error->setText(text);
    m_error->show();
}

void ApiKeysDialog::updateButtons()
{
    const auto* item = m_list->currentItem();
    bool revocable = item != nullptr && item->isSelected();
    if (revocable) {
        const QString id = item->data(0, Qt::UserRole).toString();
        for (const client::ApiKey& k : m_keys)
            revocable = revocable && !(k.id == id && k.bootstrap);
    }
    m_revoke->setEnabled(revocable);
    m_create->setEnabled(!m_name->text().trimmed().isEmpty());
}

} // namespace lizard::ui
