#pragma once
// Percent-encoding as the official SDK does it: encodeURIComponent for path segments,
// and query values.

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace lizard::client {

// JavaScript's encodeURIComponent: everything but A-Z a-z 0-9 - _ . ! ~ * ' ( ) is escaped.
QByteArray encodeUriComponent(const QString& value);

// path + "?k=v&..." with keys and values encoded; pairs with an empty value are left out.
QByteArray withQuery(const QByteArray& path, const QList<QPair<QByteArray, QString>>& query);

} // namespace lizard::client
