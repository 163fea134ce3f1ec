#include "models/polledtablemodel.h"

#include "client/lizardapi.h"

namespace lizard::models {

PolledTableModel::PolledTableModel(client::LizardApi* api, QObject* parent)
    : QAbstractTableModel(parent), m_api(api)
{
    m_pollTimer.setInterval(2000);
    connect(&m_pollTimer, &QTimer::timeout, this, &PolledTableModel::refresh);
    m_pollTimer.start();
}

client::LizardApi* PolledTableModel::api() const
{
    return m_api;
}

void PolledTableModel::setProjectId(const QString& projectId)
{
    if (m_inFlight)
        m_inFlight->cancel();
    ++m_generation;
    m_projectId = projectId;
    clearRows();
    refresh();
}

void PolledTableModel::setPollInterval(int ms)
{
    if (ms <= 0) {
        m_pollTimer.stop();
        return;
    }
    m_pollTimer.start(ms);
}

void PolledTableModel::refresh()
{
    if (m_api == nullptr || m_projectId.isEmpty())
        return;
    if (m_inFlight) {
        m_refreshAgain = true;
        return;
    }
    m_refreshAgain = false;
    m_inFlight = startFetch(m_projectId, m_generation);
}

bool PolledTableModel::fetchDone(quint64 generation, const client::ApiError* error,
                                 const QString& what)
{
    m_inFlight = nullptr;
    if (m_refreshAgain)
        QTimer::singleShot(0, this, &PolledTableModel::refresh);
    if (generation != m_generation)
        return false; // an answer for the project shown before
    if (error != nullptr) {
        if (error->kind == client::ApiError::Kind::Cancelled)
            return false;
        if (!m_failing) {
            m_failing = true;
            client::ApiError e = *error;
            if (e.what.isEmpty())
                e.what = what;
            emit refreshFailed(e);
        }
        return false;
    }
    if (m_failing) {
        m_failing = false;
        emit refreshRecovered();
    }
    return true;
}

} // namespace lizard::models
