#pragma once
// Base of the per-project tables that poll the server (snapshots, volumes): one fetch at a
// time, answers for a project shown before are dropped, a failure is reported once per streak,
// and a fresh list is applied as minimal row inserts, removes and dataChanged.

#include "client/outcome.h"
#include "client/pendingcall.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <utility>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class PolledTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit PolledTableModel(client::LizardApi* api, QObject* parent = nullptr);

    void setProjectId(const QString& projectId); // clears the rows and fetches
    QString projectId() const { return m_projectId; }
    void setPollInterval(int ms); // 0 = no polling
    void refresh();               // fetch now (or right after the one in flight)
    client::LizardApi* api() const;

signals:
    void refreshed();
    void refreshFailed(const lizard::client::ApiError& error); // once per failure streak
    void refreshRecovered();

protected:
    // Starts the list call for projectId; its callback calls fetchDone(generation, …) first.
    virtual client::PendingCall* startFetch(const QString& projectId, quint64 generation) = 0;
    virtual void clearRows() = 0;
    // Bookkeeping of an answer; true when the caller should apply it (then emit refreshed()).
    bool fetchDone(quint64 generation, const client::ApiError* error, const QString& what);
    bool failing() const { return m_failing; } // the last fetch failed

    // The first and last of columnCount columns whose text differs between a and b, or {-1, -1}.
    template <class T, class Text>
    static std::pair<int, int> changedColumns(const T& a, const T& b, int columnCount, Text text)
    {
        int first = -1;
        int last = -1;
        for (int col = 0; col < columnCount; ++col) {
            if (text(a, col) != text(b, col)) {
                if (first < 0)
                    first = col;
                last = col;
            }
        }
        return {first, last};
    }

    // rows becomes fresh (matched by key) with minimal changes; cellsDiffer(old, new) returns the
    // first and last changed column, or {-1, -1}.
    template <class T, class Key, class Differ>
    void applyRows(QList<T>& rows, const QList<T>& fresh, Key key, Differ cellsDiffer)
    {
        QSet<QString> freshKeys;
        for (const T& item : fresh)
            freshKeys.insert(key(item));
        for (int row = int(rows.size()) - 1; row >= 0;) {
            if (freshKeys.contains(key(rows.at(row)))) {
                --row;
                continue;
            }
            int first = row;
            while (first > 0 && !freshKeys.contains(key(rows.at(first - 1))))
                --first;
            beginRemoveRows({}, first, row);
            rows.remove(first, row - first + 1);
            endRemoveRows();
            row = first - 1;
        }
        QList<T> added;
        for (const T& item : fresh) {
            int at = -1;
            for (int r = 0; r < rows.size() && at < 0; ++r)
                if (key(rows.at(r)) == key(item))
                    at = r;
            if (at < 0) {
                added.append(item);
                continue;
            }
            const auto [firstCol, lastCol] = cellsDiffer(rows.at(at), item);
            rows[at] = item;
            if (firstCol >= 0)
                emit dataChanged(index(at, firstCol), index(at, lastCol));
        }
        if (!added.isEmpty()) {
            const int first = int(rows.size());
            beginInsertRows({}, first, first + int(added.size()) - 1);
            rows.append(added);
            endInsertRows();
        }
    }

private:
    QPointer<client::LizardApi> m_api;
    QString m_projectId;
    QPointer<client::PendingCall> m_inFlight;
    quint64 m_generation = 0;
    bool m_failing = false;
    bool m_refreshAgain = false;
    QTimer m_pollTimer;
};

} // namespace lizard::models
