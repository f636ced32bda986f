#pragma once

#include "RelayTestFixture.h"

#include <QByteArray>
#include <QList>
#include <QNetworkAccessManager>
#include <QPair>

#include <nlohmann/json.hpp>

#include <string>

namespace buzz::relay::test {

struct HttpTestResponse
{
    int status = 0; // 0: no HTTP answer (connection refused, closed, or timed out)
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;

    QByteArray header(const QByteArray &name) const;
    nlohmann::json json() const; // discarded value when the body is not JSON
    std::string error() const; // the `error` string of an error body, else ""
};

// Blocking HTTP client for tests: every request NIP-98-signs with `key` (fresh nonce per request)
// unless signing is turned off or no key was given.
class HttpTestClient
{
public:
    HttpTestClient(RelayTestFixture &relay, const nostr::SecretKey *key = nullptr);

    void setKey(const nostr::SecretKey *key) { m_key = key; }
    void setHostHeader(QByteArray host) { m_host = std::move(host); } // empty = the real one
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }

    HttpTestResponse postEvent(const nostr::Event &event);
    HttpTestResponse query(const std::string &filtersJson);
    HttpTestResponse count(const std::string &filtersJson);

    // Signed when a key is set and `authorization` is empty; `authorization` overrides.
    HttpTestResponse post(const QString &path, const QByteArray &body,
                          const QList<QPair<QByteArray, QByteArray>> &headers = {},
                          const QByteArray &authorization = {});
    HttpTestResponse get(const QString &path,
                         const QList<QPair<QByteArray, QByteArray>> &headers = {});

    // A valid NIP-98 header for `path` and `body` at the relay's clock (for replay and tamper
    // tests).
    QByteArray authorizationFor(const QString &path, const QByteArray &body,
                                std::optional<std::int64_t> at = std::nullopt) const;

private:
    HttpTestResponse send(const QByteArray &verb, const QString &path, const QByteArray &body,
                          const QList<QPair<QByteArray, QByteArray>> &headers);

    RelayTestFixture &m_relay;
    const nostr::SecretKey *m_key;
    QByteArray m_host;
    int m_timeoutMs = 10000;
    QNetworkAccessManager m_network;
};

} // namespace buzz::relay::test
