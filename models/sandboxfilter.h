#pragma once
// What the sandbox table shows of a project's sandboxes: by status, by template, and by a
// search text whose words must all match. A word `key=value` matches a sandbox whose metadata
// has that key with that value (`key=` any value); another word matches a part of the id, the
// template, the status, or a metadata key or value, case-insensitively. The order of the
// source is kept (no sorting), so with nothing filtered a row of the view is the source's row.

#include <QSortFilterProxyModel>
#include <QStringList>

namespace lizard::models {

class SandboxTableModel;

class SandboxFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit SandboxFilterModel(QObject* parent = nullptr);

    void setTableModel(SandboxTableModel* model); // not owned; may be null
    SandboxTableModel* tableModel() const { return m_table; }

    void setStatus(const QString& status);     // "" = any
    void setTemplateName(const QString& name); // "" = any
    void setSearchText(const QString& text);
    QString status() const { return m_status; }
    QString templateName() const { return m_template; }
    QString searchText() const { return m_search; }
    bool filtering() const;

    // The view's row of a sandbox, -1 when it is not shown.
    int rowOf(const QString& sandboxId) const;
    QString sandboxIdAt(int row) const;
    // The templates and statuses of the project's sandboxes, sorted (for the filter menus).
    QStringList templateNames() const;
    QStringList statuses() const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    SandboxTableModel* m_table = nullptr;
    QString m_status;
    QString m_template;
    QString m_search;
    QStringList m_words;
};

} // namespace lizard::models
