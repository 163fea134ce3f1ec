#include "notebook/notebookfile.h"

#include "client/offthread.h"
#include "notebook/ipynbreader.h"
#include "notebook/ipynbwriter.h"

#include <QFileInfo>

namespace lizard::notebook {

NotebookFile::NotebookFile(NotebookDocument* document, QObject* parent)
    : QObject(parent), m_document(document)
{
}

MaybeError NotebookFile::open(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    return adopt(absolute, IpynbReader::readFile(absolute));
}

void NotebookFile::openInBackground(const QString& path, std::function<void(MaybeError)> done)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    client::runOffThread<Expected<NotebookData>>(
        this, [absolute] { return IpynbReader::readFile(absolute); },
        [this, absolute, done = std::move(done)](Expected<NotebookData> data) {
            done(adopt(absolute, std::move(data)));
        });
}

MaybeError NotebookFile::adopt(const QString& absolute, Expected<NotebookData> data)
{
    if (!data) {
        setPath(absolute, true);
        return data.error();
    }
    m_document->reset(data.value());
    setPath(absolute, false);
    return std::nullopt;
}

void NotebookFile::restore(const QString& originalPath, const NotebookData& data)
{
    m_document->reset(data, true);
    setPath(originalPath.isEmpty() ? QString() : QFileInfo(originalPath).absoluteFilePath(), false);
}

MaybeError NotebookFile::save()
{
    if (m_path.isEmpty())
        return NotebookError{{}, {}, QStringLiteral("the notebook has no file yet; use Save As")};
    if (m_loadFailed)
        return NotebookError{m_path,
                             {},
                             QStringLiteral("this file could not be loaded, so saving over it "
                                            "would destroy it; use Save As to choose where to "
                                            "write")};
    if (MaybeError error = IpynbWriter::writeFile(m_path, m_document->toData()))
        return error;
    m_document->setClean();
    emit saved(m_path);
    return std::nullopt;
}

MaybeError NotebookFile::saveAs(const QString& path)
{
    if (path.isEmpty())
        return NotebookError{{}, {}, QStringLiteral("no file name given")};
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (MaybeError error = IpynbWriter::writeFile(absolute, m_document->toData()))
        return error;
    setPath(absolute, false);
    m_document->setClean();
    emit saved(absolute);
    return std::nullopt;
}

void NotebookFile::setPath(const QString& path, bool loadFailed)
{
    m_loadFailed = loadFailed;
    if (path == m_path)
        return;
    m_path = path;
    emit pathChanged(path);
}

} // namespace lizard::notebook
