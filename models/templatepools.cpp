#include "models/templatepools.h"

#include "client/lizardapi.h"

#include <memory>

namespace lizard::models {

TemplatePools::TemplatePools(client::LizardApi* api, QObject* parent) : QObject(parent), m_api(api)
{
}

void TemplatePools::load()
{
    if (!m_api) {
        emit unavailable(QStringLiteral("Not connected."));
        return;
    }
    m_api->listTemplatePools(this, [this](client::Outcome<QList<client::TemplatePool>> o) {
        if (o)
            emit loaded(o.value());
        else if (o.error().httpStatus == 404 || o.error().httpStatus == 501)
            emit unavailable(QStringLiteral("This server keeps no warm pools (they are a feature "
                                            "of lizard-local)."));
        else
            emit unavailable(o.error().toDisplayString());
    });
}

void TemplatePools::apply(const QMap<QString, int>& sizes)
{
    if (sizes.isEmpty()) {
        emit applied({});
        return;
    }
    if (!m_api) {
        emit applied(QStringLiteral("Warm pools: not connected."));
        return;
    }
    auto pending = std::make_shared<int>(int(sizes.size()));
    auto errors = std::make_shared<QStringList>();
    for (auto it = sizes.cbegin(); it != sizes.cend(); ++it) {
        m_api->setTemplatePool(it.key(), it.value(), this,
                               [this, pending, errors](client::Outcome<client::TemplatePool> o) {
                                   if (!o)
                                       *errors << o.error().toDisplayString();
                                   if (--*pending == 0)
                                       emit applied(errors->join(QStringLiteral("; ")));
                               });
    }
}

} // namespace lizard::models
