#pragma once
// A polled table of one kind of item that has an `id` (snapshots, volumes): the rows, what
// the app is doing to each ("deleting…", shown in the status column), and the bookkeeping both
// tables share. The subclass gives the columns' text and its own roles.

#include "models/polledtablemodel.h"

#include <QHash>
#include <QList>
#include <QPointer>

namespace lizard::models {

template <class T> class PolledListModel : public PolledTableModel
{
public:
    PolledListModel(client::LizardApi* api, int columnCount, int statusColumn, QObject* parent)
        : PolledTableModel(api, parent), m_columnCount(columnCount), m_statusColumn(statusColumn)
    {
    }

    int rowOf(const QString& id) const
    {
        for (int row = 0; row < m_rows.size(); ++row)
            if (m_rows.at(row).id == id)
                return row;
        return -1;
    }
    const T& itemAt(int row) const { return m_rows.at(row); }
    const QList<T>& items() const { return m_rows; }

    // What we are doing to it, shown in the status column; empty clears.
    void setActivity(const QString& id, const QString& text)
    {
        if (m_activity.value(id) == text)
            return;
        if (text.isEmpty())
            m_activity.remove(id);
        else
            m_activity.insert(id, text);
        const int row = rowOf(id);
        if (row >= 0)
            emit dataChanged(index(row, m_statusColumn), index(row, m_statusColumn));
    }
    QString activity(const QString& id) const { return m_activity.value(id); }

    int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : m_columnCount;
    }

protected:
    // The cell's text, with the activity appended in the status column.
    QString displayText(const T& item, int column, const QString& text) const
    {
        const QString doing = m_activity.value(item.id);
        if (column != m_statusColumn || doing.isEmpty())
            return text;
        return text.isEmpty() ? doing : text + QStringLiteral(" · ") + doing;
    }

    // The rows become `fresh` with minimal changes; differ(old, new) gives the first and last
    // changed column, or {-1, -1}. Activities of rows that went away are dropped.
    template <class Differ> void applyItems(const QList<T>& fresh, Differ differ)
    {
        applyRows(
            m_rows, fresh, [](const T& item) { return item.id; }, differ);
        for (auto it = m_activity.begin(); it != m_activity.end();) {
            if (rowOf(it.key()) < 0)
                it = m_activity.erase(it);
            else
                ++it;
        }
    }

    void clearRows() override
    {
        m_activity.clear();
        if (m_rows.isEmpty())
            return;
        beginRemoveRows({}, 0, int(m_rows.size()) - 1);
        m_rows.clear();
        endRemoveRows();
    }

    // Runs fn(api, projectId) when connected (and, if it needs one, with a project);
    // otherwise `done` gets the error.
    template <class R, class Fn>
    void withApi(const QString& what, client::Done<R>& done, Fn fn, bool needsProject = true)
    {
        if (api() == nullptr || (needsProject && projectId().isEmpty())) {
            client::ApiError e;
            e.kind = client::ApiError::Kind::Network;
            e.message = api() == nullptr ? QStringLiteral("not connected")
                                         : QStringLiteral("no project selected");
            e.what = what;
            done(e);
            return;
        }
        fn(api(), projectId());
    }

    // Shows `doing` on the row while `call(api, project, done)` runs, then clears it and
    // refreshes the table before `done` gets the outcome.
    template <class R, class Call>
    void withActivity(const QString& what, const QString& id, const QString& doing,
                      client::Done<R> done, Call call, bool needsProject = true)
    {
        withApi<R>(
            what, done,
            [&](client::LizardApi* api, const QString& project) {
                setActivity(id, doing);
                QPointer<PolledListModel> self = this;
                call(api, project, [self, id, done](client::Outcome<R> outcome) {
                    if (self) {
                        self->setActivity(id, {});
                        self->refresh();
                    }
                    done(std::move(outcome));
                });
            },
            needsProject);
    }

    QList<T> m_rows;

private:
    QHash<QString, QString> m_activity;
    const int m_columnCount;
    const int m_statusColumn;
};

} // namespace lizard::models
