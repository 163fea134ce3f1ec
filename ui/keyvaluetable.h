#pragma once
// An editable table of string keys and values (env vars, metadata) with Add/Remove.

#include <QMap>
#include <QString>
#include <QWidget>

class QTableWidget;

namespace lizard::ui {

class KeyValueTable : public QWidget
{
    Q_OBJECT
public:
    explicit KeyValueTable(const QString& keyTitle, QWidget* parent = nullptr);

    void addRow(const QString& key = {}, const QString& value = {});
    void setValues(const QMap<QString, QString>& values);
    // The table as a map; false with `error` naming the row for an empty or repeated key.
    // Rows where key and value are both empty are ignored.
    bool values(QMap<QString, QString>* out, QString* error) const;
    QTableWidget* table() const { return m_table; }

private:
    QTableWidget* m_table;
    QString m_keyTitle;
};

} // namespace lizard::ui
