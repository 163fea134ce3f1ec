#include "app/keystore.h"

#include <qt6keychain/keychain.h>

namespace lizard::app {

namespace {
const QString kService = QStringLiteral("lizard-desktop");
}

KeyStore::KeyStore(const QString& fallbackPath, bool useKeychain, QObject* parent)
    : QObject(parent), m_file(fallbackPath), m_useKeychain(useKeychain)
{
    if (!useKeychain)
        m_backend = Backend::File;
}

QString KeyStore::describe() const
{
    switch (m_backend) {
    case Backend::Keychain:
        return QStringLiteral("API keys are kept in the system keychain.");
    case Backend::File:
        return QStringLiteral(
                   "No keychain answered%1; API keys are kept in %2, readable only by you.")
            .arg(m_keychainError.isEmpty() ? QString()
                                           : QStringLiteral(" (%1)").arg(m_keychainError),
                 m_file.path());
    case Backend::Unknown:
        break;
    }
    return QStringLiteral("API keys go to the system keychain if one answers, else to %1 (readable "
                          "only by you).")
        .arg(m_file.path());
}

void KeyStore::storeInFile(const QString& id, const QString& key, const QString& why,
                           const std::function<void(Backend, QString)>& done)
{
    if (!why.isEmpty())
        m_keychainError = why;
    m_backend = Backend::File;
    QString error;
    if (!m_file.write(id, key, &error)) {
        done(Backend::File, error);
        return;
    }
    done(Backend::File, {});
}

void KeyStore::store(const QString& id, const QString& key,
                     std::function<void(Backend, QString)> done)
{
    if (!m_useKeychain || m_backend == Backend::File) {
        storeInFile(id, key, {}, done);
        return;
    }
    auto* job = new QKeychain::WritePasswordJob(kService, this);
    job->setAutoDelete(true);
    job->setKey(id);
    job->setTextData(key);
    connect(job, &QKeychain::Job::finished, this, [this, id, key, done](QKeychain::Job* j) {
        if (j->error() != QKeychain::NoError) {
            storeInFile(id, key, j->errorString(), done);
            return;
        }
        m_backend = Backend::Keychain;
        QString ignored;
        m_file.remove(id, &ignored); // no second copy of the secret
        done(Backend::Keychain, {});
    });
    job->start();
}

void KeyStore::load(const QString& id, std::function<void(std::optional<QString>, QString)> done)
{
    const auto fromFile = [this, id, done](const QString& why) {
        if (!why.isEmpty() && m_backend != Backend::Keychain) {
            m_keychainError = why;
            m_backend = Backend::File;
        }
        QString error;
        const auto key = m_file.read(id, &error);
        if (key) {
            done(key, {});
            return;
        }
        done(std::nullopt,
             error.isEmpty() ? QStringLiteral("No API key is stored for this connection.") : error);
    };
    if (!m_useKeychain || m_backend == Backend::File) {
        fromFile({});
        return;
    }
    auto* job = new QKeychain::ReadPasswordJob(kService, this);
    job->setAutoDelete(true);
    job->setKey(id);
    connect(job, &QKeychain::Job::finished, this, [this, done, fromFile](QKeychain::Job* j) {
        auto* read = static_cast<QKeychain::ReadPasswordJob*>(j);
        if (read->error() == QKeychain::NoError) {
            m_backend = Backend::Keychain;
            done(read->textData(), {});
            return;
        }
        // Not found in a working keychain: it may have been saved to the file earlier.
        fromFile(read->error() == QKeychain::EntryNotFound ? QString() : read->errorString());
    });
    job->start();
}

void KeyStore::remove(const QString& id)
{
    QString ignored;
    m_file.remove(id, &ignored);
    if (!m_useKeychain || m_backend == Backend::File)
        return;
    auto* job = new QKeychain::DeletePasswordJob(kService, this);
    job->setAutoDelete(true);
    job->setKey(id);
    job->start();
}

} // namespace lizard::app
