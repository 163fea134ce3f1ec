#pragma once
// Following a template build's log (GET /api/templates/{name}/builds/{id}/log, Server-Sent
// Events): the lines so far, then each new one, then the build as it ended.

#include "client/templatetypes.h"
#include "client/types.h"

#include <QObject>
#include <QStringList>

namespace lizard::client {

// Lines come in batches, in order; then exactly one of ended (with the build as it ended) or
// failed. cancel() closes the connection; failed(Cancelled) follows from the event loop. Slots
// may delete the stream.
class TemplateBuildStream : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    virtual void cancel() = 0;
signals:
    void lines(const QStringList& lines);
    void ended(const lizard::client::TemplateBuild& build);
    void failed(const lizard::client::ApiError& error);
};

} // namespace lizard::client
