#pragma once
// The files panel's uploads and downloads: one row each with a progress bar, Cancel for the
// selected (or only) running one, and Clear for finished rows. Hidden while there are none.

#include <QWidget>

class QPushButton;
class QTableView;

namespace lizard::models::files {
class TransferJobsModel;
}

namespace lizard::ui::files {

class TransfersView : public QWidget
{
    Q_OBJECT
public:
    explicit TransfersView(models::files::TransferJobsModel* model, QWidget* parent = nullptr);
    QTableView* table() const { return m_table; }
    QPushButton* cancelButton() const { return m_cancel; }

private:
    void cancelSelected();
    void updateState();

    models::files::TransferJobsModel* m_model;
    QTableView* m_table;
    QPushButton* m_cancel;
    QPushButton* m_clear;
};

} // namespace lizard::ui::files
