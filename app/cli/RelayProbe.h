#pragma once

#include <QNetworkReply>

#include "net/nostr/Event.h"
#include "net/nostr/Keys.h"

#include <QByteArray>
#include <QNetworkAccessManager>
#include <QString>
#include <QUrl>

#include <nlohmann/json.hpp>
#include <qcoro/qcorotask.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

namespace buzz::cli {

// One HTTP answer as `relay check` saw it: nothing classified, nothing hidden.
struct ProbeAnswer
{
    int status = 0; // 0: no HTTP answer at all (networkError says why)
    QByteArray body;
    QString route; // X-Buzz-Read-Route, empty when the relay did not send it
    QString networkError;

    // The relay's {"error": text}, else the body itself (shortened).
    QString errorText() const;
    // The body as JSON; discarded (is_discarded()) when it is not JSON.
    nlohmann::json json() const;
    // "409 {"error":"…"}" or "no answer: …", at most ~300 characters: a row's observed answer.
    QString describe() const;
    // 200 with {"accepted": true}: the relay stored the event (or already had it).
    bool accepted() const;
};

// The HTTP side of `relay check`: the bridge with NIP-98 headers the check builds itself (a
// replayed header, a wrong `u`, a wrong method, a skewed time), NIP-11, and the events and
// filters exactly as given (no Filter type in between, so a bad `consistency` can be sent).
// Answers are reported as they came; nothing is verified or retried here.
class RelayProbe
{
public:
    RelayProbe(QUrl httpBase, std::shared_ptr<const nostr::SecretKey> key,
               std::chrono::milliseconds timeout);

    const nostr::SecretKey &key() const { return *m_key; }
    QUrl httpBase() const { return m_httpBase; }
    // The URL a NIP-98 `u` tag names for `path` (the bridge's own rule: http(s) + host + path).
    QString urlFor(const QString &path) const;
    static std::int64_t now();

    // "Nostr <base64>" for a kind-27235 event naming `url` and `method`, signed at `createdAt`,
    // with the body's payload hash and a fresh nonce.
    std::string authorization(const QString &url, const QString &method, const QByteArray &body,
                              std::int64_t createdAt) const;

    // GET; `authorization` (e.g. "Bearer …" for our relay's /admin) only when not empty.
    QCoro::Task<ProbeAnswer> get(QString path, QByteArray accept, QByteArray authorization = {});
    // POST with exactly this Authorization header.
    QCoro::Task<ProbeAnswer> post(QString path, QByteArray body, QByteArray authorization);
    // POST with a fresh, correct NIP-98 header.
    QCoro::Task<ProbeAnswer> postSigned(QString path, QByteArray body);
    QCoro::Task<ProbeAnswer> publish(const nostr::Event &event);
    QCoro::Task<ProbeAnswer> query(nlohmann::json filters);

    nostr::Event sign(int kind, std::int64_t createdAt, nostr::Tags tags,
                      std::string content) const;

private:
    QCoro::Task<ProbeAnswer> awaitAnswer(QNetworkReply *started);
    QNetworkAccessManager m_network;
    QUrl m_httpBase;
    std::shared_ptr<const nostr::SecretKey> m_key;
    std::chrono::milliseconds m_timeout;
};

} // namespace buzz::cli
