#include "scriptedrunner.h"

#include <QPointer>
#include <QTimer>

namespace lizard::notebook::test {

void ScriptedRunner::run(const QString& code, const QHash<QString, QString>& envs)
{
    calls << code;
    envsSeen << envs;
    maxActive = std::max(maxActive, ++active);
    m_steps = code.split('\n', Qt::SkipEmptyParts);
    schedule();
}

void ScriptedRunner::interrupt()
{
    ++interrupts;
    if (!waiting)
        return;
    waiting = false;
    // What ipykernel reports for an interrupted cell.
    m_steps = QStringList{QStringLiteral("raise:KeyboardInterrupt:")};
    schedule();
}

void ScriptedRunner::release()
{
    if (!waiting)
        return;
    waiting = false;
    schedule();
}

void ScriptedRunner::schedule()
{
    if (sync)
        step();
    else
        QTimer::singleShot(0, this, &ScriptedRunner::step);
}

void ScriptedRunner::step()
{
    if (m_steps.isEmpty()) {
        --active;
        emit done(++m_count);
        return;
    }
    const QString line = m_steps.takeFirst();
    const QString kind = line.section(':', 0, 0);
    const QString rest = line.section(':', 1);
    if (kind == QLatin1String("out") || kind == QLatin1String("err")) {
        emit streamReceived(
            StreamOutput{kind == QLatin1String("out") ? "stdout" : "stderr", rest + '\n'});
    } else if (kind == QLatin1String("result")) {
        RichOutput r;
        r.kind = RichOutput::Kind::ExecuteResult;
        r.data[rest.section('=', 0, 0).toStdString()] = rest.section('=', 1).toStdString();
        emit resultReceived(r);
    } else if (kind == QLatin1String("display") || kind == QLatin1String("update")) {
        RichOutput r;
        r.kind = RichOutput::Kind::DisplayData;
        r.displayId = rest.section(':', 0, 0);
        const QString bundle = rest.section(':', 1);
        r.data[bundle.section('=', 0, 0).toStdString()] = bundle.section('=', 1).toStdString();
        if (kind == QLatin1String("display"))
            emit resultReceived(r);
        else
            emit displayUpdated(r.displayId, r);
    } else if (kind == QLatin1String("raise")) {
        emit errorReceived(ErrorOutput{rest.section(':', 0, 0),
                                       rest.section(':', 1),
                                       {"\x1b[0;31m" + rest.section(':', 0, 0) + "\x1b[0m"}});
    } else if (kind == QLatin1String("wait")) {
        waiting = true;
        return;
    } else if (kind == QLatin1String("fail")) {
        m_steps.clear();
        --active;
        emit failed(rest);
        return;
    }
    schedule();
}

void ScriptedRunner::complete(const QString& code, int cursor, QObject* ctx, CompleteDone done)
{
    completeCalls << code.left(cursor) + '|' + code.mid(cursor);
    int start = cursor;
    while (start > 0 && (code[start - 1].isLetterOrNumber() || code[start - 1] == u'_'))
        --start;
    CompletionReply reply{start, cursor, {}};
    for (const Completion& c : completions) {
        if (c.text.startsWith(code.mid(start, cursor - start)))
            reply.matches.append(c);
    }
    QPointer<QObject> guard(ctx);
    auto answer = [guard, done, reply] {
        if (guard)
            done(reply);
    };
    if (holdCompletions)
        m_held.append(answer);
    else
        QTimer::singleShot(0, this, answer);
}

void ScriptedRunner::answerCompletions()
{
    const auto held = std::exchange(m_held, {});
    for (const auto& answer : held)
        answer();
}

void ScriptedRunner::inspect(const QString& code, int cursor, QObject* ctx, InspectDone done)
{
    inspectCalls << QString(code).insert(cursor, u'|');
    // The dotted name around the cursor, as a kernel's inspect finds it.
    const auto isName = [](QChar c) { return c.isLetterOrNumber() || c == u'_' || c == u'.'; };
    int from = cursor, to = cursor;
    while (from > 0 && isName(code.at(from - 1)))
        --from;
    while (to < code.size() && isName(code.at(to)))
        ++to;
    const QString text = helpByName.value(code.mid(from, to - from), help);
    QPointer<QObject> guard(ctx);
    QTimer::singleShot(0, this, [guard, done, text] {
        if (guard)
            done(text.isEmpty() ? std::nullopt : std::optional<QString>(text));
    });
}

} // namespace lizard::notebook::test
