#pragma once
// Writes nbformat 4.5 notebooks: cell ids, outputs with every MIME entry, notebook and cell
// metadata and attachments as they were read. Text is split into lines as Jupyter writes it
// (base64 images stay single strings), so files diff well and round-trip through Jupyter.

#include "notebook/celldata.h"
#include "notebook/notebookerror.h"

#include <QByteArray>

class QIODevice;

namespace lizard::notebook {

class IpynbWriter
{
public:
    // The notebook as a JSON tree; spilled stream outputs are read into it whole.
    static nlohmann::json toJson(const NotebookData& data);
    // Writes the file's bytes to out, spilled stream outputs streamed from their files, so
    // memory stays bounded whatever they hold. Empty on success, else the reason.
    static QString write(QIODevice* out, const NotebookData& data);
    static QByteArray serialize(const NotebookData& data);
    // Atomic: the old file stays intact until the new one is completely written. Safe to call
    // from any thread with data no other thread changes (a NotebookDocument::toData() copy).
    static MaybeError writeFile(const QString& path, const NotebookData& data);

    static constexpr int nbformatMajor = 4;
    static constexpr int nbformatMinor = 5;
};

} // namespace lizard::notebook
