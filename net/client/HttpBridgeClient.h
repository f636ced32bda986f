#pragma once

#include "net/client/RelayError.h"
#include "net/nostr/Event.h"
#include "net/nostr/Filter.h"

#include <QObject>
#include <QString>
#include <QUrl>

#include <qcoro/qcorotask.h>

#include <chrono>
#include <functional>
#include <optional>
#include <vector>

class QNetworkAccessManager;

namespace buzz::client {

class RequestLog;
struct RequestLogEntry;
class Signer;

// Per-request settings. The caller label ends up in the RequestLog (diagnostics, --trace).
struct RequestOptions
{
    QString caller;
    std::chrono::milliseconds timeout {10000}; // whole request, like the real CLI's 10 s
};

// Helpers for call sites inside coroutines: g++ 12 miscompiles braced-init temporaries
// ({filter}, {"caller"}) in a co_await expression, so build them through plain functions.
inline RequestOptions options(QString caller,
                              std::chrono::milliseconds timeout = std::chrono::milliseconds(10000))
{
    return RequestOptions {std::move(caller), timeout};
}
template<class... F>
std::vector<nostr::Filter> filters(F... each)
{
    std::vector<nostr::Filter> list;
    list.reserve(sizeof...(each));
    (list.push_back(std::move(each)), ...);
    return list;
}

// Answer to POST /events. 200 answers land here, including accepted=false ones
// ("duplicate: channel already exists"); 4xx/5xx (incl. 409 CAS conflicts) are RelayErrors.
struct PublishResponse
{
    QString eventId;
    bool accepted = false;
    QString message;
    QString route;
};

// Answer to POST /query: events in the relay's order (created_at DESC, id ASC per filter), each
// one verified (EventVerifier: id, signature, and that it answers the filters asked); the others
// are dropped and counted on the request's row of the RequestLog.
struct QueryResponse
{
    std::vector<nostr::Event> events;
    int dropped = 0; // events of the answer that failed verification
    QString route; // X-Buzz-Read-Route, e.g. "writer; reason=strong" or "replica; reason=fresh"
};

struct CountResponse
{
    qint64 count = 0;
    QString route;
};

// The client side of the relay's HTTP bridge (relay::HttpBridge answers it): POST /events, /query,
// /count, each with a fresh NIP-98 header (u, method, payload, nonce). Consistency is carried by
// the filters themselves (Filter::consistency): the bridge never adds or strips it. Errors use the
// desktop's classification and wording (RelayError). Every request is appended to the RequestLog.
class HttpBridgeClient : public QObject
{
    Q_OBJECT
public:
    // `relayUrl` may be ws(s):// or http(s)://; the HTTP base is derived (ws→http, trailing /
    // trimmed). `signer` (not owned) signs each request's NIP-98 header with the key it holds at
    // that moment.
    HttpBridgeClient(const QUrl &relayUrl, Signer *signer, RequestLog *log,
                     QObject *parent = nullptr);

    // The largest answer the bridge reads: twice the relay's own cap on an answer (32 MiB of event
    // JSON, relay/README.md "Limits"). A longer answer, or one announcing more, is cut off as it
    // arrives and the request fails with Kind::Internal, "the relay's answer passed 64 MiB, the
    // client's limit, and was cut off" (an answer came: not an unknown outcome).
    // (CappedReply; `buzz-canvas-cli relay check` reads with the same cap.)
    static constexpr qint64 kMaxAnswerBytes = qint64(64) << 20;
    ~HttpBridgeClient() override;

    QUrl httpBase() const { return m_httpBase; }

    // POST /events with the event's exact JSON. Re-sending the same Event sends the same bytes
    // (same id), which is how a retry avoids publishing twice.
    QCoro::Task<Result<PublishResponse>> publish(const nostr::Event &event, RequestOptions options);
    QCoro::Task<Result<QueryResponse>> query(const std::vector<nostr::Filter> &filters,
                                             RequestOptions options);
    QCoro::Task<Result<CountResponse>> count(const std::vector<nostr::Filter> &filters,
                                             RequestOptions options);
    // GET / with Accept: application/nostr+json (docs/buzz-protocol.md §NIP-11): the key the relay
    // signs its own answers with (`self`, 64 lower-case hex), empty when it names none.
    QCoro::Task<Result<QString>> relayPublicKey(RequestOptions options);

    // Lower level: POST `path` with a JSON body; returns the parsed 2xx body text. Used by the
    // three calls above (exposed for tests and diagnostics).
    struct RawResponse
    {
        int httpStatus = 0;
        QByteArray body;
        QString route;
    };
    QCoro::Task<Result<RawResponse>> post(const QString &path, const QByteArray &body,
                                          const RequestOptions &options, bool strong,
                                          QString logDetail);
    // Reads a 2xx answer before the request is logged, so what it finds (events dropped, a body
    // that is not what was asked for) is on the request's row; an error fails the request.
    using AnswerCheck =
        std::function<std::optional<RelayError>(const RawResponse &answer, RequestLogEntry &entry)>;

    // The desktop's error classification of a finished HTTP exchange (docs/buzz-protocol.md
    // §Desktop wording); exposed so it is testable without a network. `contentType` and `location`
    // are response headers.
    static RelayError classifyHttpFailure(int httpStatus, const QByteArray &body,
                                          const QString &contentType, const QString &location);

signals:
    // A request got no answer from the relay (RelayError::outcomeUnknown()): the connection may
    // have stalled. RelayConnection has the WebSocket probe it.
    void requestUnanswered();

private:
    QCoro::Task<Result<RawResponse>> exchange(QString path, QByteArray body, RequestOptions options,
                                              bool strong, QString logDetail, AnswerCheck check);

    QNetworkAccessManager *m_network;
    Signer *m_signer;
    RequestLog *m_log;
    QUrl m_httpBase;
};

} // namespace buzz::client
