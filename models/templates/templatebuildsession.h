#pragma once
// What the recipe editor does with the server: checks the recipe as the user types (the
// server's own parser, POST /api/templates/check, at most one check in flight), reads the files
// its `files` step names from the recipe's folder (the user's disk, with the user's rights;
// nothing outside that folder, links included), starts the build and follows its log.

#include "client/templatetypes.h"
#include "client/types.h"

#include <QMap>
#include <QObject>
#include <QPointer>

namespace lizard::client {
class LizardApi;
class PendingCall;
class TemplateBuildStream;
} // namespace lizard::client

namespace lizard::models {

class TemplateBuildSession : public QObject
{
    Q_OBJECT
public:
    explicit TemplateBuildSession(client::LizardApi* api, QObject* parent = nullptr);
    ~TemplateBuildSession() override;

    // Checks `recipe` (the newest text wins: a check in flight is answered, then the newest is
    // checked). checked() or checkFailed() follows.
    void check(const QString& recipe);
    // Reads the files, starts the build and follows its log: started(), lines()…, then ended()
    // or failed(). False (with failed()) when it could not start.
    void build(const QString& name, const QString& recipe, const QString& folder);
    // Follows a build that runs already (or has ended: its log, then ended()).
    void follow(const QString& name, const QString& buildId);
    void stopFollowing();
    bool busy() const { return m_building; }

    // The files `sources` name, read below `folder`. A source that leads out of it (through
    // "..", an absolute path or a link) or cannot be read is an error naming it.
    static client::Outcome<QMap<QString, QByteArray>> readFiles(const QString& folder,
                                                                const QStringList& sources);
    // "line 4: ..." of a recipe error: its line (1-based), or 0.
    static int errorLine(const QString& message);

signals:
    void checked(const lizard::client::RecipeCheck& check);
    void checkFailed(int line, const QString& message); // line 0: not about a line
    void started(const lizard::client::TemplateBuild& build);
    void lines(const QStringList& lines);
    void ended(const lizard::client::TemplateBuild& build);
    void failed(const QString& message);

private:
    void sendCheck();

    QPointer<client::LizardApi> m_api;
    QPointer<client::PendingCall> m_checkCall;
    QString m_pendingCheck;
    bool m_checkQueued = false;
    QPointer<client::TemplateBuildStream> m_stream;
    bool m_building = false;
};

} // namespace lizard::models
