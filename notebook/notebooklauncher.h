#pragma once
// "New notebook" up to the moment a notebook can open: creates an `interpreter` sandbox in a
// project with the given lifetime, then starts its Python kernel (an empty run in the default
// Python context, so the first cell does not wait for it and its count starts at 1). Cancel, or
// a failure after the sandbox exists, kills the sandbox: nothing half-made is left behind.
// The object deletes itself after it reported ready, failed or cancelled.

#include "client/outcome.h"

#include <QObject>
#include <QPointer>

namespace lizard::client {
class CodeInterpreter;
class LizardApi;
} // namespace lizard::client

namespace lizard::notebook {

class NotebookLauncher : public QObject
{
    Q_OBJECT
public:
    enum class Stage { CreatingSandbox = 1, StartingPython = 2 };
    static constexpr int kStages = 2;

    // `api` must outlive the launcher.
    NotebookLauncher(client::LizardApi* api, const QString& projectId, int lifetimeMinutes,
                     QObject* parent = nullptr);

    // Before start(): the template and size (empty: the server's default) of the sandbox, and the
    // words its messages start with. A template other than `interpreter` gets no Python start.
    void setSandboxKind(const QString& templateName, const QString& size);
    void setLabel(const QString& label) { m_label = label; }

    void start();
    // Stops where it is; a sandbox that exists (or that the create in flight makes) is killed,
    // then cancelled() follows.
    void cancel();
    static QString stageText(Stage stage);

signals:
    void stageChanged(lizard::notebook::NotebookLauncher::Stage stage);
    void sandboxCreated(const lizard::client::SandboxInfo& info);
    void ready(const QString& sandboxId);
    void failed(const QString& message);
    void cancelled();

private:
    void onCreated(client::Outcome<client::SandboxInfo> outcome);
    void startPython();
    // Kills the sandbox, then ends with failed(why) (or cancelled() when why is empty).
    void killAndEnd(const QString& why);
    void end();

    QPointer<client::LizardApi> m_api;
    QString m_projectId;
    int m_lifetimeMinutes;
    QString m_template = QStringLiteral("interpreter");
    QString m_size;
    QString m_label = QStringLiteral("New notebook");
    QString m_sandboxId;
    bool m_creating = false; // the create call is in flight
    client::CodeInterpreter* m_interpreter = nullptr;
    bool m_cancelling = false;
    bool m_ended = false;
};

} // namespace lizard::notebook
