#pragma once
// What is left running or paused across all projects, oldest first, for the Clean up window:
// each sandbox with its project, status, age, size (what it holds: vCPU, memory, disk) and
// deadline; a summary of what they hold together; and one kill for many.

#include "client/outcome.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QPointer>
#include <functional>

namespace lizard::client {
class LizardApi;
}

namespace lizard::models {

class CleanupListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { SandboxColumn, ProjectColumn, StatusColumn, AgeColumn, SizeColumn, EndsColumn };
    enum Role { SandboxIdRole = Qt::UserRole + 1, StartedAtRole };

    explicit CleanupListModel(client::LizardApi* api, QObject* parent = nullptr);

    void refresh(); // projects, then every sandbox left; `refreshed` or `failed`
    bool isLoading() const { return m_loading; }
    const QList<client::SandboxInfo>& sandboxes() const { return m_rows; }
    // "3 left (2 running, 1 paused), holding 6 vCPU and 12 GB of memory"
    QString summary() const;
    // Kills each one, then refreshes; `killed` with how many ended and the failures' texts.
    void kill(const QStringList& sandboxIds);
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    void refreshed();
    void failed(const lizard::client::ApiError& error);
    void killed(int count, const QStringList& failures);

private:
    void listSandboxes();
    QString sizeText(const client::SandboxInfo& info) const;

    QPointer<client::LizardApi> m_api;
    QList<client::SandboxInfo> m_rows;
    QHash<QString, QString> m_projectNames;
    bool m_loading = false;
    std::function<QDateTime()> m_clock;
};

// "45 s", "12 min", "3 h 05 min", "2 d 4 h": how long ago `since` was.
QString formatSandboxAge(const QDateTime& since, const QDateTime& now);

} // namespace lizard::models
