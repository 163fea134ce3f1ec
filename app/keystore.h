#pragma once
// Where cloud API keys live: the system keychain (QtKeychain) when a secret service answers,
// otherwise a 0600 file (KeyFile). describe() tells the user which one is in use.

#include "app/keyfile.h"

#include <QObject>
#include <functional>
#include <optional>

namespace lizard::app {

class KeyStore : public QObject
{
    Q_OBJECT
public:
    enum class Backend { Unknown, Keychain, File };

    // `useKeychain` false skips the keychain (tests, or users who opted out).
    KeyStore(const QString& fallbackPath, bool useKeychain = true, QObject* parent = nullptr);

    // done(where it went, error text or empty)
    void store(const QString& id, const QString& key, std::function<void(Backend, QString)> done);
    // done(key or nullopt, error text when neither place had it)
    void load(const QString& id, std::function<void(std::optional<QString>, QString)> done);
    void remove(const QString& id);

    Backend backend() const { return m_backend; }
    QString describe() const;
    QString filePath() const { return m_file.path(); }

private:
    void storeInFile(const QString& id, const QString& key, const QString& why,
                     const std::function<void(Backend, QString)>& done);

    KeyFile m_file;
    bool m_useKeychain;
    Backend m_backend = Backend::Unknown;
    QString m_keychainError;
};

} // namespace lizard::app
