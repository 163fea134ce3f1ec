#pragma once
// One live cell of an open notebook. Views observe a cell through its signals; every change
// that alters the saved file also emits edited(), which the document turns into "dirty".

#include "notebook/celldata.h"

#include <QObject>

namespace lizard::notebook {

class Cell : public QObject
{
    Q_OBJECT
public:
    explicit Cell(CellData data, QObject* parent = nullptr);

    QString id() const { return m_data.id; }
    CellType type() const { return m_data.type; }
    QString source() const { return m_data.source; }
    const OutputList& outputs() const { return m_data.outputs; }
    std::optional<int> executionCount() const { return m_data.executionCount; }
    const nlohmann::json& metadata() const { return m_data.metadata; }
    const nlohmann::json& attachments() const { return m_data.attachments; }
    CellStatus status() const { return m_status; }
    // What the outputs hold in memory, in bytes (a spilled stream counts its head and tail).
    qint64 outputMemoryBytes() const;
    const CellData& data() const { return m_data; }

    void setSource(const QString& source);
    // Changing to markdown or raw drops outputs and execution count (nbformat has none there);
    // changing to code drops attachments (nbformat has none there) and resets the status.
    void setType(CellType type);
    // A stream that continues the last stream of the same name is merged into it
    // (outputChanged); anything else is appended (outputAdded). A stream that grows large goes
    // to disk (StreamOutput::spillThresholdChars), keeping its head and tail in memory.
    void appendOutput(const Output& output);
    void clearOutputs();
    // Replaces output index (outputChanged). False when out of range.
    bool setOutput(int index, const Output& output);
    void setExecutionCount(std::optional<int> count);
    void setMetadata(const nlohmann::json& metadata);
    void setStatus(CellStatus status); // runtime only: not saved, not an edit

signals:
    void sourceChanged();
    void typeChanged(lizard::notebook::CellType type);
    void outputAdded(int index);
    void outputChanged(int index);
    void outputsCleared();
    void executionCountChanged();
    void metadataChanged();
    void statusChanged(lizard::notebook::CellStatus status);
    void edited();

private:
    CellData m_data;
    CellStatus m_status = CellStatus::Idle;
};

} // namespace lizard::notebook
