#include "notebook/coderunner.h"

#include <QPointer>

namespace lizard::notebook {

CodeRunner::~CodeRunner() = default;

void CodeRunner::complete(const QString&, int, QObject* ctx, CompleteDone done)
{
    QMetaObject::invokeMethod(
        ctx ? ctx : this, [done] { done(std::nullopt); }, Qt::QueuedConnection);
}

void CodeRunner::inspect(const QString&, int, QObject* ctx, InspectDone done)
{
    QMetaObject::invokeMethod(
        ctx ? ctx : this, [done] { done(std::nullopt); }, Qt::QueuedConnection);
}

void CodeRunner::listVariables(const QString&, QObject* ctx, VariablesDone done)
{
    QMetaObject::invokeMethod(
        ctx ? ctx : this, [done] { done(VariableList{}); }, Qt::QueuedConnection);
}

void CodeRunner::tableRows(const TableRowsRequest&, QObject* ctx, TableRowsDone done)
{
    QMetaObject::invokeMethod(
        ctx ? ctx : this,
        [done] {
            done(client::TableRows{},
                 QStringLiteral("this notebook has no kernel to ask for more rows"));
        },
        Qt::QueuedConnection);
}

void CodeRunner::tableForVariable(const QString&, QObject* ctx, TableDone done)
{
    QMetaObject::invokeMethod(
        ctx ? ctx : this,
        [done] { done(nlohmann::json(), QStringLiteral("this notebook has no kernel to ask")); },
        Qt::QueuedConnection);
}

} // namespace lizard::notebook
