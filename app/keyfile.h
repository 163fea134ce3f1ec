#pragma once
// API keys in a JSON file readable only by the user (mode 0600, directory 0700), used when
// no keychain (secret service) answers. Writes are atomic.

#include <QMap>
#include <QString>
#include <optional>

namespace lizard::app {

class KeyFile
{
public:
    explicit KeyFile(QString path);

    QString path() const { return m_path; }
    std::optional<QString> read(const QString& id, QString* error = nullptr) const;
    bool write(const QString& id, const QString& key, QString* error);
    bool remove(const QString& id, QString* error);

private:
    bool load(QMap<QString, QString>* keys, QString* error) const;
    bool save(const QMap<QString, QString>& keys, QString* error);

    QString m_path;
};

} // namespace lizard::app
