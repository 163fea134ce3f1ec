#include "ui/files/fileiconproxy.h"

#include "models/files/sandboxfilemodel.h"

#include <QFileIconProvider>

namespace lizard::ui::files {

using models::files::SandboxFileModel;

FileIconProxy::FileIconProxy(QObject* parent) : FileSortProxy(parent)
{
    const QFileIconProvider provider;
    m_folder = provider.icon(QAbstractFileIconProvider::Folder);
    m_file = provider.icon(QAbstractFileIconProvider::File);
}

QVariant FileIconProxy::data(const QModelIndex& index, int role) const
{
    if (role == Qt::DecorationRole && index.column() == SandboxFileModel::NameColumn) {
        return index.data(SandboxFileModel::IsDirRole).toBool()
                   ? m_folder
                   : m_file; // links: what they lead to
    }
    return FileSortProxy::data(index, role);
}

} // namespace lizard::ui::files
