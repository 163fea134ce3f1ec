#pragma once
// The ports of one sandbox: those its processes listen on (scanned from inside the sandbox by
// an exec, see listeningports.h) merged with those this app exposed (ExposureList). One row per
// port, sorted by port. Refreshes on demand and, while polling is on, every few seconds; rows
// are updated in place so a selection survives a refresh.

#include "client/outcome.h"
#include "client/pendingcall.h"
#include "models/listeningports.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <QTimer>
#include <optional>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class ExposureList;

class PortListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { PortColumn, StateColumn, AddressColumn, ProcessColumn, UrlColumn, ColumnCount };
    enum Role { PortRole = Qt::UserRole + 1, ListeningRole, ExposedRole };

    struct Row
    {
        int port = 0;
        std::optional<ListeningPort> listening; // nullopt: nothing listens (exposed only)
        std::optional<client::ExposedPort> exposure;
        bool operator==(const Row& o) const;
    };

    explicit PortListModel(QObject* parent = nullptr);

    // Not owned. Either may be null (no connection): the model is then empty.
    void setBackend(client::LizardApi* api, ExposureList* exposures);
    void setSandboxId(const QString& sandboxId); // empty: no sandbox, no rows
    QString sandboxId() const { return m_sandboxId; }

    void refresh();           // scans now unless a scan is in flight
    void setPolling(bool on); // rescan every pollInterval while on
    bool isPolling() const { return m_timer.isActive(); }
    void setPollInterval(int ms);
    int pollInterval() const { return m_timer.interval(); }
    bool isScanning() const { return m_scan != nullptr; }
    bool hasScanned() const { return m_scanned; }

    const Row* rowAt(int row) const;
    int rowOf(int port) const; // -1 when absent
    const QList<Row>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    void refreshed();
    void refreshFailed(const lizard::client::ApiError& error);

private:
    void onScanned(int serial, client::Outcome<client::ExecResult> outcome);
    void rebuild();
    void applyRows(const QList<Row>& next);
    void cancelScan();

    QPointer<client::LizardApi> m_api;
    QPointer<ExposureList> m_exposures;
    QString m_sandboxId;
    QList<ListeningPort> m_listening;
    QList<Row> m_rows;
    QPointer<client::PendingCall> m_scan;
    int m_serial = 0; // of the scan in flight; answers of older (cancelled) scans are dropped
    QTimer m_timer;
    bool m_scanned = false;
};

} // namespace lizard::models
