// SandboxFileModel: finding out which symlinks lead to folders. The API lists a symlink as
// "symlink" whatever it points to; a stat of "<link>/." follows it, so a folder answers with
// type "dir", a file with 400 NOT_A_DIRECTORY and a dangling link with 404. A few probes run
// at a time, so a folder with hundreds of links (/usr/lib) does not flood the server.
#include "client/lizardapi.h"
#include "models/files/sandboxfilemodel.h"
#include "models/files/sandboxfilemodel_node.h"

namespace lizard::models::files {

namespace {
constexpr int kProbesInFlight = 4;
} // namespace

void SandboxFileModel::probeLinks(Node* dir)
{
    for (const auto& child : dir->children)
        if (child->isLink())
            m_linkProbes.push_back(child->entry.path);
    startLinkProbes();
}

void SandboxFileModel::startLinkProbes()
{
    while (m_api != nullptr && m_probesInFlight < kProbesInFlight && !m_linkProbes.empty()) {
        const QString path = m_linkProbes.front();
        m_linkProbes.pop_front();
        ++m_probesInFlight;
        const quint64 generation = m_generation;
        m_api->statFile(m_sandboxId, path + QStringLiteral("/."), this,
                        [this, generation, path](client::Outcome<client::FileEntry> r) {
                            if (generation != m_generation)
                                return;
                            --m_probesInFlight;
                            if (r) {
                                setLinkKind(path, r.value().type == QLatin1String("dir"));
                            } else {
                                // Only an answer about the link itself decides; a paused sandbox
                                // or a lost connection leaves the row as it was.
                                const int status = r.error().httpStatus;
                                if (status == 400 || status == 403 || status == 404)
                                    setLinkKind(path, false);
                            }
                            startLinkProbes();
                        });
    }
}

void SandboxFileModel::setLinkKind(const QString& path, bool toDir)
{
    Node* n = findNode(path);
    if (n == nullptr || !n->isLink() || n->linkToDir == toDir)
        return;
    if (!toDir && !n->children.empty()) { // it led to a folder before: its rows go
        beginRemoveRows(indexOf(n), 0, int(n->children.size()) - 1);
        n->children.clear();
        endRemoveRows();
    }
    n->linkToDir = toDir;
    n->listed = n->listing = n->failed = n->listAgain = false;
    emit dataChanged(indexOf(n, 0), indexOf(n, ColumnCount - 1));
}

} // namespace lizard::models::files
