#include "models/files/filechangefeed.h"

#include "client/lizardapi.h"
#include "models/files/sandboxfilemodel.h"

#include <utility>

namespace lizard::models::files {

namespace {

// Event paths come from the server already clean ("/a/b"): no QDir::cleanPath per event.
QString folderOf(const QString& path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return slash <= 0 ? QStringLiteral("/") : path.left(slash);
}

// A refusal that will not pass by waiting: no such route (501, the cloud; 404), a folder that
// is not there or not a folder, the sandbox's watcher cap.
bool isFinal(const client::ApiError& e)
{
    using Kind = client::ApiError::Kind;
    return e.kind == Kind::NotFound || e.kind == Kind::InvalidRequest ||
           e.kind == Kind::RateLimit || e.kind == Kind::Authentication || e.httpStatus == 501;
}

} // namespace

FileChangeFeed::FileChangeFeed(client::LizardApi* api, SandboxFileModel* model, QObject* parent)
    : QObject(parent), m_api(api), m_model(model)
{
    m_clock.start();
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_watcherId.isEmpty())
            startWatch();
        else
            poll();
    });
    // setLocation resets the model; a refresh does not.
    connect(model, &QAbstractItemModel::modelReset, this, &FileChangeFeed::follow);
    follow();
}

FileChangeFeed::~FileChangeFeed()
{
    closeWatcher();
}

void FileChangeFeed::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    emit stateChanged(state);
}

void FileChangeFeed::closeWatcher()
{
    if (m_api && !m_watcherId.isEmpty())
        m_api->unwatchFiles(m_sandboxId, m_watcherId, nullptr, {}); // nothing waits for it
    m_watcherId.clear();
}

void FileChangeFeed::follow()
{
    if (!m_model)
        return;
    const QString sandboxId = m_model->sandboxId();
    const QString root = m_model->rootPath();
    if (sandboxId == m_sandboxId && root == m_root && m_state != State::Off)
        return;
    closeWatcher();
    ++m_generation;
    m_inFlight = false;
    m_timer.stop();
    m_sandboxId = sandboxId;
    m_root = root;
    m_listedAt.clear();
    m_due.clear();
    if (m_sandboxId.isEmpty() || !m_api) {
        setState(State::Off);
        return;
    }
    startWatch();
}

void FileChangeFeed::startWatch()
{
    if (!m_api || m_inFlight)
        return;
    setState(State::Starting);
    m_inFlight = true;
    const quint64 generation = m_generation;
    const bool recursive = m_root != QLatin1String("/");
    m_api->watchFiles(
        m_sandboxId, m_root, recursive, this, [this, generation](client::Outcome<QString> r) {
            if (generation != m_generation)
                return;
            m_inFlight = false;
            if (!r) {
                if (isFinal(r.error()))
                    return setState(State::Unsupported);
                m_timer.start(kRetryMs); // paused, unreachable for a moment: try again
                return;
            }
            m_watcherId = r.value();
            setState(State::Live);
            // What changed between the listing and the watch would otherwise show only on the
            // next change of that folder.
            if (m_model && (m_model->isListed({}) || m_model->isListing({})))
                m_model->refresh();
            m_timer.start(kPollMs);
        });
}

void FileChangeFeed::poll()
{
    if (!m_api || m_inFlight)
        return;
    m_inFlight = true;
    const quint64 generation = m_generation;
    m_api->watchEvents(m_sandboxId, m_watcherId, this,
                       [this, generation](client::Outcome<QList<client::FsEvent>> r) {
                           if (generation != m_generation)
                               return;
                           m_inFlight = false;
                           if (!r) {
                               if (r.error().kind == client::ApiError::Kind::NotFound) {
                                   // The watcher is gone (its sandbox ended or was replaced):
                                   // a new one, if the sandbox is still there.
                                   m_watcherId.clear();
                                   startWatch();
                                   return;
                               }
                               m_timer.start(kRetryMs); // paused, or the server is busy
                               m_gap = true;
                               return;
                           }
                           // Listings refused meanwhile (a paused sandbox answers none) and
                           // changes the watch may have missed: every shown folder lists again.
                           if (std::exchange(m_gap, false) && m_model)
                               m_model->refresh();
                           apply(r.value());
                           m_timer.start(kPollMs);
                       });
}

void FileChangeFeed::apply(const QList<client::FsEvent>& events)
{
    if (!m_model)
        return;
    for (const client::FsEvent& e : events) {
        if (e.type == QLatin1String("overflow")) {
            m_model->refresh(); // events were lost: every shown folder lists again
            m_due.clear();
            emit foldersChanged(-1);
            return;
        }
        m_due.insert(folderOf(e.path));
    }
    if (const int asked = relistDue(); asked > 0 || !events.isEmpty())
        emit foldersChanged(asked);
}

int FileChangeFeed::relistDue()
{
    const qint64 now = m_clock.elapsed();
    int asked = 0;
    for (auto it = m_due.begin(); it != m_due.end();) {
        const auto last = m_listedAt.constFind(*it);
        if (last != m_listedAt.cend() && now - *last < kMinRelistMs) {
            ++it;
            continue;
        }
        if (m_model->refreshPath(*it)) {
            m_listedAt.insert(*it, now);
            ++asked;
        }
        it = m_due.erase(it);
    }
    return asked;
}

} // namespace lizard::models::files
