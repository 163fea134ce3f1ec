#include "ui/keyvaluetable.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lizard::ui {

KeyValueTable::KeyValueTable(const QString& keyTitle, QWidget* parent)
    : QWidget(parent), m_table(new QTableWidget(0, 2, this)), m_keyTitle(keyTitle)
{
    m_table->setHorizontalHeaderLabels({keyTitle, QStringLiteral("Value")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setMinimumHeight(90);
    auto* add = new QPushButton(QStringLiteral("Add"), this);
    auto* remove = new QPushButton(QStringLiteral("Remove"), this);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    connect(add, &QPushButton::clicked, this, [this] {
        addRow();
        m_table->editItem(m_table->item(m_table->rowCount() - 1, 0));
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentRow();
        if (row >= 0)
            m_table->removeRow(row);
    });
}

void KeyValueTable::addRow(const QString& key, const QString& value)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, 0, new QTableWidgetItem(key));
    m_table->setItem(row, 1, new QTableWidgetItem(value));
}

void KeyValueTable::setValues(const QMap<QString, QString>& values)
{
    m_table->setRowCount(0);
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        addRow(it.key(), it.value());
}

bool KeyValueTable::values(QMap<QString, QString>* out, QString* error) const
{
    QMap<QString, QString> result;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const auto text = [this, row](int col) {
            const QTableWidgetItem* item = m_table->item(row, col);
            return item ? item->text() : QString();
        };
        const QString key = text(0).trimmed();
        const QString value = text(1);
        if (key.isEmpty() && value.isEmpty())
            continue;
        if (key.isEmpty()) {
            *error =
                QStringLiteral("%1: row %2 has a value but no name.").arg(m_keyTitle).arg(row + 1);
            return false;
        }
        if (result.contains(key)) {
            *error = QStringLiteral("%1: \"%2\" appears twice.").arg(m_keyTitle, key);
            return false;
        }
        result.insert(key, value);
    }
    *out = result;
    return true;
}

} // namespace lizard::ui
