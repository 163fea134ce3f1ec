#pragma once
// lizard-local's warm pools of the templates, as Preferences shows and changes them: listed,
// then each changed size set (PATCH /api/templates/{name}). A server without pools (the cloud)
// answers 404: `unavailable` says so.

#include "client/outcome.h"

#include <QMap>
#include <QObject>
#include <QPointer>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class TemplatePools : public QObject
{
    Q_OBJECT
public:
    // api: not owned; null: `unavailable` ("not connected").
    explicit TemplatePools(client::LizardApi* api, QObject* parent = nullptr);

    void load();
    // Sets each template's size in `sizes`; `applied` once every call answered.
    void apply(const QMap<QString, int>& sizes);

signals:
    void loaded(const QList<lizard::client::TemplatePool>& pools);
    void unavailable(const QString& why);
    void applied(const QString& error); // empty when every size was set

private:
    QPointer<client::LizardApi> m_api;
};

} // namespace lizard::models
