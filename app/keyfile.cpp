#include "app/keyfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

namespace lizard::app {

KeyFile::KeyFile(QString path) : m_path(std::move(path)) {}

bool KeyFile::load(QMap<QString, QString>* keys, QString* error) const
{
    QFile file(m_path);
    if (!file.exists())
        return true;
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("Cannot read %1: %2").arg(m_path, file.errorString());
        return false;
    }
    const QByteArray bytes = file.readAll();
    nlohmann::json doc;
    QString why = QStringLiteral("not a JSON object");
    try {
        doc = nlohmann::json::parse(bytes.constBegin(), bytes.constEnd());
    } catch (const nlohmann::json::parse_error& e) {
        why = QString::fromStdString(e.what());
    }
    if (!doc.is_object()) {
        if (error)
            *error = QStringLiteral("%1 is damaged: %2").arg(m_path, why);
        return false;
    }
    for (const auto& [name, value] : doc.items())
        keys->insert(QString::fromStdString(name),
                     value.is_string() ? QString::fromStdString(value.get<std::string>())
                                       : QString());
    return true;
}

bool KeyFile::save(const QMap<QString, QString>& keys, QString* error)
{
    const QString dir = QFileInfo(m_path).absolutePath();
    if (!QDir().mkpath(dir)) {
        *error = QStringLiteral("Cannot create %1").arg(dir);
        return false;
    }
    ::chmod(QFile::encodeName(dir).constData(), 0700);
    nlohmann::json obj = nlohmann::json::object();
    for (auto it = keys.cbegin(); it != keys.cend(); ++it)
        obj[it.key().toStdString()] = it.value().toStdString();
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("Cannot write %1: %2").arg(m_path, file.errorString());
        return false;
    }
    // Restrict the temporary file before any secret is written into it.
    if (::fchmod(file.handle(), S_IRUSR | S_IWUSR) != 0) {
        file.cancelWriting();
        *error = QStringLiteral("Cannot restrict the permissions of %1").arg(m_path);
        return false;
    }
    file.write(QByteArray::fromStdString(obj.dump(4) + '\n'));
    if (!file.commit()) {
        *error = QStringLiteral("Cannot write %1: %2").arg(m_path, file.errorString());
        return false;
    }
    return true;
}

std::optional<QString> KeyFile::read(const QString& id, QString* error) const
{
    QMap<QString, QString> keys;
    if (!load(&keys, error) || !keys.contains(id))
        return std::nullopt;
    return keys.value(id);
}

bool KeyFile::write(const QString& id, const QString& key, QString* error)
{
    QMap<QString, QString> keys;
    if (!load(&keys, error))
        return false;
    keys.insert(id, key);
    return save(keys, error);
}

bool KeyFile::remove(const QString& id, QString* error)
{
    QMap<QString, QString> keys;
    if (!load(&keys, error))
        return false;
    if (keys.remove(id) == 0)
        return true;
    return save(keys, error);
}

} // namespace lizard::app
