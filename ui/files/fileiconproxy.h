#pragma once
// The sorted file tree as the panel shows it: FileSortProxy plus folder and file icons.

#include "models/files/filesortproxy.h"

#include <QIcon>

namespace lizard::ui::files {

class FileIconProxy : public models::files::FileSortProxy
{
    Q_OBJECT
public:
    explicit FileIconProxy(QObject* parent = nullptr);
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    QIcon m_folder;
    QIcon m_file;
};

} // namespace lizard::ui::files
