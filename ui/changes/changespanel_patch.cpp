// "Save as patch…" of the Changes tab: the listed changes, each file's versions read in turn,
// written as one patch once all are in (never a half-written file: QSaveFile). "Save as tar…":
// lizard-local's archive of the sandbox's layer, streamed into the file.
#include "models/changes/changesession.h"
#include "models/changes/changetreemodel.h"
#include "models/changes/patchmaker.h"
#include "ui/changes/changespanel.h"

#include <QAction>
#include <QCheckBox>
#include <QSaveFile>

namespace lizard::ui::changes {

void ChangesPanel::savePatch(const QString& file)
{
    if (!m_session->ready() || m_patchMaker)
        return;
    auto* maker =
        new models::changes::PatchMaker(m_session->api(), m_session->sandboxId(),
                                        m_session->against(), m_model->changes().changes, this);
    m_patchMaker = maker;
    updateActions();
    const auto done = [this, maker](const QString& text) {
        maker->deleteLater();
        m_patchMaker = nullptr;
        updateActions();
        setStatus(text);
        emit message(text);
    };
    connect(maker, &models::changes::PatchMaker::progress, this, [this](int at, int total) {
        setStatus(QStringLiteral("Making the patch: %1 of %2 changes read").arg(at).arg(total));
    });
    connect(maker, &models::changes::PatchMaker::failed, this,
            [done](const QString& why) { done(QStringLiteral("No patch: %1").arg(why)); });
    connect(maker, &models::changes::PatchMaker::finished, this,
            [this, done, file](const QByteArray& patch, int files, const QStringList& leftOut) {
                QSaveFile out(file);
                if (!out.open(QIODevice::WriteOnly) || out.write(patch) != patch.size() ||
                    !out.commit())
                    return done(QStringLiteral("No patch: %1 cannot be written (%2)")
                                    .arg(file, out.errorString()));
                done(QStringLiteral("Saved %1 file(s)' changes as %2%3")
                         .arg(files)
                         .arg(file)
                         .arg(leftOut.isEmpty()
                                  ? QString()
                                  : QStringLiteral("; %1 left out (listed in its head)")
                                        .arg(leftOut.size())));
                emit patchSaved(file, files);
            });
    maker->start();
}

void ChangesPanel::saveTar(const QString& file)
{
    if (!m_session->ready() || m_session->savingArchive() || !m_session->against().isEmpty())
        return;
    auto* once = new QObject(this); // the connections of this one save
    const auto done = [this, once](const QString& text) {
        once->deleteLater();
        updateActions();
        setStatus(text);
        emit message(text);
    };
    connect(m_session, &models::changes::ChangesSession::archiveProgress, once, [this](qint64 n) {
        setStatus(
            QStringLiteral("Saving the changes as a tar: %1 MB").arg(double(n) / 1e6, 0, 'f', 1));
    });
    connect(m_session, &models::changes::ChangesSession::archiveSaved, once,
            [this, done](const QString& saved, qint64 bytes) {
                done(QStringLiteral("Saved the changes as %1 (%2 bytes)").arg(saved).arg(bytes));
                emit tarSaved(saved, bytes);
            });
    connect(m_session, &models::changes::ChangesSession::archiveFailed, once,
            [done](const client::ApiError& e) {
                done(e.kind == client::ApiError::Kind::Cancelled
                         ? QStringLiteral("The tar was cancelled; nothing was written")
                         : QStringLiteral("No tar: %1").arg(e.toDisplayString()));
            });
    m_session->saveArchive(m_hideCaches->isChecked() ? cachePatterns() : QStringList(), file);
    updateActions();
}

} // namespace lizard::ui::changes
