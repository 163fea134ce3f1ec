#include "notebook/notebooksearch.h"

#include "notebook/ansihtml.h"

namespace lizard::notebook {

bool comesBefore(const SearchMatch& a, const SearchMatch& b)
{
    const auto key = [](const SearchMatch& m) {
        return std::tuple(m.cell, m.place == SearchMatch::Place::InSource ? -1 : m.output, m.start);
    };
    return key(a) < key(b);
}

QString outputSearchText(const Output& output)
{
    if (const auto* stream = std::get_if<StreamOutput>(&output)) {
        if (stream->spilled) // the middle is on disk: find covers what the view shows
            return stream->spilled->head + u'\n' + stream->text;
        return stream->text;
    }
    if (const auto* rich = std::get_if<RichOutput>(&output)) {
        for (const char* mime : {"text/plain", "text/markdown", "text/html"}) {
            if (rich->has(QLatin1String(mime)))
                return rich->text(QLatin1String(mime));
        }
        return {};
    }
    const auto& error = std::get<ErrorOutput>(output);
    QString text = error.ename + QStringLiteral(": ") + error.evalue;
    for (const QString& line : error.traceback)
        text += u'\n' + line;
    return stripAnsi(text);
}

QList<std::pair<int, int>> findInText(const QString& text, const QString& needle,
                                      Qt::CaseSensitivity cs)
{
    QList<std::pair<int, int>> found;
    if (needle.isEmpty())
        return found;
    for (qsizetype at = text.indexOf(needle, 0, cs); at >= 0;
         at = text.indexOf(needle, at + needle.size(), cs))
        found.append({int(at), int(needle.size())});
    return found;
}

QList<SearchMatch> findInNotebook(const NotebookData& data, const QString& needle,
                                  Qt::CaseSensitivity cs)
{
    QList<SearchMatch> matches;
    if (needle.isEmpty())
        return matches;
    for (int c = 0; c < int(data.cells.size()); ++c) {
        const CellData& cell = data.cells[size_t(c)];
        for (const auto& [start, length] : findInText(cell.source, needle, cs))
            matches.append({c, SearchMatch::Place::InSource, -1, start, length});
        for (int o = 0; o < int(cell.outputs.size()); ++o) {
            for (const auto& [start, length] :
                 findInText(outputSearchText(cell.outputs[size_t(o)]), needle, cs))
                matches.append({c, SearchMatch::Place::InOutput, o, start, length});
        }
    }
    return matches;
}

QString replaceAllInText(const QString& text, const QString& needle, const QString& replacement,
                         Qt::CaseSensitivity cs, int* count)
{
    const auto found = findInText(text, needle, cs);
    if (count)
        *count = int(found.size());
    if (found.isEmpty())
        return text;
    QString out;
    out.reserve(text.size() + found.size() * (replacement.size() - needle.size()));
    int from = 0;
    for (const auto& [start, length] : found) {
        out += QStringView(text).mid(from, start - from);
        out += replacement;
        from = start + length;
    }
    out += QStringView(text).mid(from);
    return out;
}

} // namespace lizard::notebook
