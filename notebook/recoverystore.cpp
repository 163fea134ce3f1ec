#include "notebook/recoverystore.h"

#include "notebook/ipynbreader.h"
#include "notebook/ipynbwriter.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>
#include <algorithm>

namespace lizard::notebook {

QString RecoveryStore::defaultDirectory()
{
    const QString state = qEnvironmentVariable("XDG_STATE_HOME");
    if (!state.isEmpty() && QDir::isAbsolutePath(state))
        return QDir(state).filePath(QStringLiteral("lizard-desktop/recovery"));
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("recovery"));
}

RecoveryStore::RecoveryStore(QString directory) : m_dir(std::move(directory)) {}

QString RecoveryStore::keyFor(const QString& originalPath)
{
    const QString seed = originalPath.isEmpty()
                             ? QStringLiteral("untitled:") + QUuid::createUuid().toString()
                             : originalPath;
    return QString::fromLatin1(
        QCryptographicHash::hash(seed.toUtf8(), QCryptographicHash::Sha1).toHex());
}

QString RecoveryStore::notebookPath(const QString& key) const
{
    return QDir(m_dir).filePath(key + QStringLiteral(".ipynb"));
}

QString RecoveryStore::sidecarPath(const QString& key) const
{
    return QDir(m_dir).filePath(key + QStringLiteral(".json"));
}

MaybeError RecoveryStore::write(const QString& key, const QString& originalPath,
                                const NotebookData& data) const
{
    // Notebooks can hold secrets: keep the directory private to the user.
    if (!QDir().mkpath(m_dir))
        return NotebookError{m_dir, {}, QStringLiteral("cannot create the recovery directory")};
    QFile::setPermissions(m_dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    if (MaybeError error = IpynbWriter::writeFile(notebookPath(key), data))
        return error;
    nlohmann::json side;
    side["originalPath"] = originalPath.toStdString();
    side["savedAt"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString();
    side["pid"] = QCoreApplication::applicationPid();
    QSaveFile file(sidecarPath(key));
    const QByteArray bytes = QByteArray::fromStdString(side.dump(1)) + '\n';
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return NotebookError{
            sidecarPath(key), {}, QStringLiteral("cannot write: %1").arg(file.errorString())};
    return std::nullopt;
}

void RecoveryStore::remove(const QString& key) const
{
    QFile::remove(notebookPath(key));
    QFile::remove(sidecarPath(key));
}

std::vector<RecoveryEntry> RecoveryStore::entries() const
{
    std::vector<RecoveryEntry> out;
    const QFileInfoList files =
        QDir(m_dir).entryInfoList({QStringLiteral("*.ipynb")}, QDir::Files, QDir::Name);
    for (const QFileInfo& info : files) {
        RecoveryEntry e;
        e.key = info.completeBaseName();
        e.notebookFile = info.absoluteFilePath();
        e.savedAt = info.lastModified().toUTC();
        // A missing or unreadable sidecar still leaves the copy worth offering.
        QFile side(sidecarPath(e.key));
        if (side.open(QIODevice::ReadOnly)) {
            const nlohmann::json j =
                nlohmann::json::parse(side.readAll().toStdString(), nullptr, false);
            if (j.is_object()) {
                if (j.contains("originalPath") && j["originalPath"].is_string())
                    e.originalPath = QString::fromStdString(j["originalPath"].get<std::string>());
                if (j.contains("savedAt") && j["savedAt"].is_string()) {
                    const QDateTime t = QDateTime::fromString(
                        QString::fromStdString(j["savedAt"].get<std::string>()), Qt::ISODateWithMs);
                    if (t.isValid())
                        e.savedAt = t.toUTC();
                }
                if (j.contains("pid") && j["pid"].is_number_integer())
                    e.pid = j["pid"].get<qint64>();
            }
        }
        out.push_back(std::move(e));
    }
    std::sort(out.begin(), out.end(),
              [](const RecoveryEntry& a, const RecoveryEntry& b) { return a.savedAt > b.savedAt; });
    return out;
}

Expected<NotebookData> RecoveryStore::load(const RecoveryEntry& entry) const
{
    return IpynbReader::readFile(entry.notebookFile);
}

} // namespace lizard::notebook
