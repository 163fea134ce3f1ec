#pragma once
// The Activity tab: what happened in the selected sandbox, live, oldest first (commands, code
// runs, file changes, lifecycle), filtered by kind and searched; the selected entry in full
// beside the list. "Open as notebook" and "Export .ipynb…" turn one context's code runs into
// a notebook. Servers without an activity log (the cloud) get a line that says so.

#include "notebook/celldata.h"

#include <QDateTime>
#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QScrollArea;

namespace lizard::client {
class LizardApi;
struct ApiError;
} // namespace lizard::client

namespace lizard::models {
class ActivityFilterModel;
class ActivityListModel;
} // namespace lizard::models

namespace lizard::ui::activity {

class ActivityEntryView;

class ActivityPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ActivityPanel(QWidget* parent = nullptr);

    void setApi(client::LizardApi* api); // not owned; null: disconnected
    void showSandbox(const QString& sandboxId);

    models::ActivityListModel* model() const { return m_model; }
    models::ActivityFilterModel* filter() const { return m_filter; }
    QListView* list() const { return m_list; }
    ActivityEntryView* entryView() const { return m_entry; }
    QComboBox* kindFilter() const { return m_kind; }
    QLineEdit* searchField() const { return m_search; }
    QCheckBox* showHousekeepingBox() const { return m_showHousekeeping; }
    QPushButton* openNotebookButton() const { return m_openNotebook; }
    QPushButton* exportButton() const { return m_export; }
    QLabel* unavailableLabel() const { return m_unavailable; }

    // The context whose runs Open as notebook and Export use: the selected entry's when it is
    // a run, else the latest run's. Empty when the log has no run.
    QString currentContextId() const;
    // Export without the file dialog: the .ipynb of currentContextId()'s runs. Empty: done.
    QString exportTo(const QString& path) const;
    void openAsNotebook();

signals:
    // The notebook of one context's runs, to open bound to that context of the sandbox.
    void openNotebookRequested(const QString& sandboxId, const lizard::notebook::NotebookData& data,
                               const QString& contextId, const QString& language);
    void showFileRequested(const QString& sandboxId, const QString& path);
    void showChangesRequested(const QString& sandboxId, const QDateTime& from, const QDateTime& to,
                              const QString& what);
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void onAppended();
    void onSelected();
    void exportInteractive();
    void updateButtons();

    models::ActivityListModel* m_model;
    models::ActivityFilterModel* m_filter;
    QComboBox* m_kind;
    QLineEdit* m_search;
    QCheckBox* m_showHousekeeping;
    QPushButton* m_openNotebook;
    QPushButton* m_export;
    QLabel* m_unavailable;
    QListView* m_list;
    QScrollArea* m_scroll;
    ActivityEntryView* m_entry;
    QString m_sandboxId;
};

} // namespace lizard::ui::activity
