#pragma once
// A notebook at work: its document and file, the run queue and runner that execute its cells,
// the kernel (its code context), the recovery copy kept while it is dirty, and the sandbox it
// is bound to (watched for its end, pause and deadline). Everything a notebook does that is not
// drawing: NotebookPage shows one, and tests drive one without a window.

#include "notebook/notebookerror.h"
#include "notebook/notebookfile.h"
#include "notebook/notebookkernel.h"
#include "notebook/recoverystore.h"

#include <QObject>
#include <QPointer>

namespace lizard::client {
class LizardApi;
}

namespace lizard::notebook {

class CodeRunner;
class NotebookDocument;
class RecoveryWatcher;
class RunQueue;
class SandboxWatch;

class NotebookSession : public QObject
{
    Q_OBJECT
public:
    // Takes ownership of runner and kernel (kernel may be null: one fixed context). The
    // document starts with one empty code cell and nothing to save.
    NotebookSession(const QString& sandboxId, CodeRunner* runner, NotebookKernel* kernel,
                    QObject* parent = nullptr);
    ~NotebookSession() override;

    NotebookDocument* document() const { return m_document; }
    NotebookFile* file() const { return m_file; }
    RunQueue* runQueue() const { return m_queue; }
    CodeRunner* runner() const { return m_runner; }
    NotebookKernel* kernel() const { return m_kernel; }
    SandboxWatch* sandboxWatch() const { return m_watch; }
    RecoveryWatcher* recoveryWatcher() const { return m_recovery; }

    // The file's name, or "Untitled-N.ipynb" until saved; a fork's copy says whose branch it is.
    QString displayName() const;
    QString untitledName() const { return m_untitled; }
    void setBranchOf(const QString& originalTitle);
    QString branchOf() const { return m_branchOf; }

    MaybeError open(const QString& path);
    // As open, with the file read and parsed off this thread (NotebookFile::openInBackground).
    void openInBackground(const QString& path, std::function<void(MaybeError)> done);
    MaybeError save();
    MaybeError saveAs(const QString& path);
    // Autosave to store while open; the copy goes when the session closes on purpose.
    void enableRecovery(const RecoveryStore& store, int intervalMs = 5000);
    // Closed on purpose (the user closed the tab): runs stop, no recovery copy stays.
    void close();

    // The sandbox: watched on api (null: not connected); auto-extended while in use if asked.
    QString sandboxId() const { return m_sandboxId; }
    void setApi(client::LizardApi* api);
    void setAutoExtend(bool on);
    // Moves the notebook to another sandbox (the kernel was rebound to it by the caller): the
    // watch and the metadata follow; sources and outputs stay.
    void setSandboxId(const QString& sandboxId);
    // Template and size for "Run on a new sandbox": the notebook's metadata, else the sandbox's,
    // else `interpreter` and the server's default size.
    QString sandboxTemplate() const;
    QString sandboxSize() const;

    // "unknown", "starting", "idle", "busy" or "dead": the kernel's, busy while cells run.
    QString kernelState() const;
    ContextChoice context() const;
    void interrupt();
    void restartKernel();
    void clearOutputs();
    // An error of the context list: said only while the sandbox is still there (when it has
    // ended, the sandbox's own notice says more).
    void reportContextError(const QString& message);

signals:
    void kernelStateChanged(const QString& state);
    void contextChanged(); // another context, or another language
    void sandboxChanged(const QString& sandboxId);
    void titleChanged(); // the name, the branch or the dirty flag
    // Something to tell the user about the session: a kernel that started afresh, a restart, a
    // failed autosave, a paused sandbox resuming, a move to another sandbox.
    void notice(const QString& message);

private:
    void bindSandbox();
    void watchCells();
    void rememberSandboxInfo();
    void updateKernelState();
    void syncContextMetadata();

    QString m_sandboxId;
    QString m_untitled;
    QString m_branchOf;
    NotebookDocument* m_document;
    NotebookFile* m_file;
    CodeRunner* m_runner;
    QPointer<NotebookKernel> m_kernel;
    RunQueue* m_queue;
    RecoveryWatcher* m_recovery = nullptr;
    SandboxWatch* m_watch;
    QString m_kernelState;
};

} // namespace lizard::notebook
