#include "notebook/cell.h"

#include "notebook/streamtext.h"

namespace lizard::notebook {

Cell::Cell(CellData data, QObject* parent) : QObject(parent), m_data(std::move(data))
{
    if (!isValidCellId(m_data.id))
        m_data.id = newCellId();
    if (m_data.type != CellType::Code) {
        m_data.outputs.clear();
        m_data.executionCount.reset();
    }
    if (!m_data.metadata.is_object())
        m_data.metadata = nlohmann::json::object();
    // A file opened with a huge stream output keeps memory as bounded as a run that printed it.
    for (std::size_t i = 0; i < m_data.outputs.size(); ++i) {
        const auto* s = std::get_if<StreamOutput>(&m_data.outputs[i]);
        if (s && !s->spilled && s->text.size() > StreamOutput::spillThresholdChars)
            spillIfLarge(std::get<StreamOutput>(m_data.outputs.detach(i)));
    }
}

qint64 Cell::outputMemoryBytes() const
{
    qint64 n = 0;
    for (const Output& o : m_data.outputs)
        n += notebook::outputMemoryBytes(o);
    return n;
}

void Cell::setSource(const QString& source)
{
    if (source == m_data.source)
        return;
    m_data.source = source;
    emit sourceChanged();
    emit edited();
}

void Cell::setType(CellType type)
{
    if (type == m_data.type)
        return;
    m_data.type = type;
    if (type != CellType::Code) {
        const bool hadOutputs = !m_data.outputs.empty();
        m_data.outputs.clear();
        if (hadOutputs)
            emit outputsCleared();
        if (m_data.executionCount) {
            m_data.executionCount.reset();
            emit executionCountChanged();
        }
    } else {
        m_data.attachments = nullptr;
    }
    emit typeChanged(type);
    setStatus(CellStatus::Idle);
    emit edited();
}

void Cell::appendOutput(const Output& output)
{
    if (m_data.type != CellType::Code)
        return; // nbformat keeps outputs on code cells only
    if (!m_data.outputs.empty() && canMergeStream(m_data.outputs.back(), output)) {
        mergeStream(m_data.outputs.detach(m_data.outputs.size() - 1), output);
        emit outputChanged(int(m_data.outputs.size()) - 1);
    } else {
        m_data.outputs.push_back(output);
        if (const auto* s = std::get_if<StreamOutput>(&output); s && !s->spilled)
            spillIfLarge(std::get<StreamOutput>(m_data.outputs.detach(m_data.outputs.size() - 1)));
        emit outputAdded(int(m_data.outputs.size()) - 1);
    }
    emit edited();
}

void Cell::clearOutputs()
{
    if (m_data.outputs.empty())
        return;
    m_data.outputs.clear();
    emit outputsCleared();
    emit edited();
}

bool Cell::setOutput(int index, const Output& output)
{
    if (index < 0 || index >= int(m_data.outputs.size()))
        return false;
    if (m_data.outputs[std::size_t(index)] == output)
        return true;
    m_data.outputs.set(std::size_t(index), output);
    emit outputChanged(index);
    emit edited();
    return true;
}

void Cell::setExecutionCount(std::optional<int> count)
{
    if (count == m_data.executionCount)
        return;
    m_data.executionCount = count;
    emit executionCountChanged();
    emit edited();
}

void Cell::setMetadata(const nlohmann::json& metadata)
{
    const nlohmann::json value = metadata.is_object() ? metadata : nlohmann::json::object();
    if (value == m_data.metadata)
        return;
    m_data.metadata = value;
    emit metadataChanged();
    emit edited();
}

void Cell::setStatus(CellStatus status)
{
    if (status == m_status)
        return;
    m_status = status;
    emit statusChanged(status);
}

} // namespace lizard::notebook
