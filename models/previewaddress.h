#pragma once
// Addresses of a preview of an exposed port. The page is loaded without the access token (the
// preview sends it as the X-Lizard-Access-Token header, only to the exposure's own origin);
// links for other programs carry it as ?lizard_token=…, which is how the API hands out
// browser URLs.

#include "client/types.h"

#include <QUrl>

namespace lizard::models {

class PreviewAddress
{
public:
    PreviewAddress() = default;
    explicit PreviewAddress(const client::ExposedPort& exposure);

    bool isValid() const { return m_origin.isValid() && !m_origin.host().isEmpty(); }
    QUrl origin() const { return m_origin; } // scheme://host:port/ of the exposure
    QUrl startUrl() const;                   // the exposure's url without its token
    QByteArray token() const { return m_token; }
    int sandboxPort() const { return m_port; }

    bool isSameOrigin(const QUrl& url) const;
    // What the address field shows: the url without lizard_token.
    static QUrl withoutToken(const QUrl& url);
    // url with the token added when it is on the exposure's origin (for Copy URL, Open in browser).
    QUrl shareable(const QUrl& url) const;
    // Typed text → a URL: "/path" and "path" are on the exposure's origin, full URLs as typed.
    QUrl resolveTyped(const QString& text) const;

private:
    QUrl m_origin;
    QUrl m_start;
    QByteArray m_token;
    int m_port = 0;
};

} // namespace lizard::models
