#include "ui/newvolumedialog.h"

#include "models/volumelistmodel.h"
#include "ui/errorlabel.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lizard::ui {

NewVolumeDialog::NewVolumeDialog(models::VolumeListModel* model, QWidget* parent)
    : QDialog(parent), m_model(model), m_name(new QLineEdit(this)), m_size(new QSpinBox(this)),
      m_error(new ErrorLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(QStringLiteral("New volume"));
    m_name->setPlaceholderText(QStringLiteral("e.g. scratch"));
    m_name->setToolTip(
        QStringLiteral("The volume's key in the project: lowercase letters, digits and dashes"));
    m_size->setRange(1, 16384); // the server says its own maximum
    m_size->setValue(5);        // the API's default
    m_size->setSuffix(QStringLiteral(" GB"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("Create"));
    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("Name:"), m_name);
    form->addRow(QStringLiteral("Size:"), m_size);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &NewVolumeDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &NewVolumeDialog::reject);
    resize(380, 160);
}

QString NewVolumeDialog::errorText() const
{
    return m_error->errorText();
}

void NewVolumeDialog::showError(const QString& text)
{
    m_error->showError(text);
}

void NewVolumeDialog::accept()
{
    if (m_busy)
        return;
    const QString name = m_name->text().trimmed();
    if (name.isEmpty()) {
        showError(QStringLiteral("A volume needs a name."));
        return;
    }
    if (!m_model) {
        showError(QStringLiteral("Not connected to a Lizard server."));
        return;
    }
    m_busy = true;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    m_error->hide();
    m_model->createVolume(name, m_size->value(), this,
                          [this](client::Outcome<client::Volume> outcome) {
                              m_busy = false;
                              m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
                              if (!outcome) {
                                  showError(outcome.error().toDisplayString());
                                  return;
                              }
                              emit created(outcome.value());
                              QDialog::accept();
                          });
}

} // namespace lizard::ui
