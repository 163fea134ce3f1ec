#include "models/sandboxfilter.h"

#include "models/sandboxtablemodel.h"

#include <QSet>

namespace lizard::models {

namespace {

bool wordMatches(const client::SandboxInfo& s, const QString& word)
{
    const qsizetype eq = word.indexOf(QLatin1Char('='));
    if (eq > 0) {
        const QString key = word.left(eq);
        const QString value = word.mid(eq + 1);
        for (auto it = s.metadata.cbegin(); it != s.metadata.cend(); ++it)
            if (it.key().compare(key, Qt::CaseInsensitive) == 0 &&
                (value.isEmpty() || it.value().compare(value, Qt::CaseInsensitive) == 0))
                return true;
        return false;
    }
    const auto has = [&word](const QString& text) {
        return text.contains(word, Qt::CaseInsensitive);
    };
    if (has(s.sandboxId) || has(s.templateName) || has(s.status))
        return true;
    for (auto it = s.metadata.cbegin(); it != s.metadata.cend(); ++it)
        if (has(it.key()) || has(it.value()))
            return true;
    return false;
}

} // namespace

SandboxFilterModel::SandboxFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setDynamicSortFilter(true); // a status that changes moves the row in or out at once
}

void SandboxFilterModel::setTableModel(SandboxTableModel* model)
{
    m_table = model;
    setSourceModel(model);
}

void SandboxFilterModel::setStatus(const QString& status)
{
    if (status == m_status)
        return;
    m_status = status;
    invalidateFilter();
}

void SandboxFilterModel::setTemplateName(const QString& name)
{
    if (name == m_template)
        return;
    m_template = name;
    invalidateFilter();
}

void SandboxFilterModel::setSearchText(const QString& text)
{
    if (text == m_search)
        return;
    m_search = text;
    m_words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    invalidateFilter();
}

bool SandboxFilterModel::filtering() const
{
    return !m_status.isEmpty() || !m_template.isEmpty() || !m_words.isEmpty();
}

bool SandboxFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    if (!m_table || sourceRow < 0 || sourceRow >= m_table->rowCount())
        return false;
    const client::SandboxInfo& s = m_table->sandboxAt(sourceRow);
    // The cloud's list holds running sandboxes only and may leave the status out.
    const QString status = s.status.isEmpty() ? QStringLiteral("running") : s.status;
    if (!m_status.isEmpty() && status != m_status)
        return false;
    if (!m_template.isEmpty() && s.templateName != m_template)
        return false;
    for (const QString& word : m_words)
        if (!wordMatches(s, word))
            return false;
    return true;
}

int SandboxFilterModel::rowOf(const QString& sandboxId) const
{
    if (!m_table)
        return -1;
    const int source = m_table->rowOf(sandboxId);
    return source < 0 ? -1 : mapFromSource(m_table->index(source, 0)).row();
}

QString SandboxFilterModel::sandboxIdAt(int row) const
{
    return index(row, 0).data(SandboxTableModel::SandboxIdRole).toString();
}

QStringList SandboxFilterModel::templateNames() const
{
    QSet<QString> names;
    if (m_table)
        for (const client::SandboxInfo& s : m_table->sandboxes())
            if (!s.templateName.isEmpty())
                names.insert(s.templateName);
    QStringList out(names.begin(), names.end());
    out.sort();
    return out;
}

QStringList SandboxFilterModel::statuses() const
{
    QSet<QString> names;
    if (m_table)
        for (const client::SandboxInfo& s : m_table->sandboxes())
            names.insert(s.status.isEmpty() ? QStringLiteral("running") : s.status);
    QStringList out(names.begin(), names.end());
    out.sort();
    return out;
}

} // namespace lizard::models
