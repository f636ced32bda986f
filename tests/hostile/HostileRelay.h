#pragma once

// A scripted relay for the clients' hostile-relay suites (issue 26 items 10-15): the HTTP bridge
// (POST /query, /count, /events) and the NIP-01 WebSocket (AUTH, REQ, EVENT) on one loopback
// port, in the test's own process and event loop. Honest by default — a store of events answered
// by filter, newest first, so the app and the CLI can open a channel at all — and scripted per
// test to lie: forged, foreign, oversized, endless or repeated answers, and any frame on any
// subscription. No network beyond 127.0.0.1.

#include "net/nostr/Event.h"
#include "net/nostr/Filter.h"
#include "net/nostr/Keys.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>
#include <QTcpServer>
#include <QWebSocketServer>

#include <functional>
#include <optional>
#include <vector>

class QTcpSocket;
class QWebSocket;

namespace buzz::test {

class HostileRelay : public QObject
{
    Q_OBJECT
public:
    // What the relay answers an HTTP request with.
    struct HttpAnswer
    {
        int status = 200;
        QByteArray body;
        QByteArray contentType = "application/json";
        // Never ends: a chunked answer that starts with `body` and then repeats `endlessUnit`
        // for as long as the client reads (a hostile relay's endless /query answer).
        bool endless = false;
        QByteArray endlessUnit;
        // Claims this Content-Length (a 300 MB answer announced up front) and streams
        // `endlessUnit` until it is reached or the client hangs up.
        qint64 declaredLength = -1;
    };
    struct Request
    {
        QByteArray path;
        QByteArray body;
        std::vector<nostr::Filter> filters; // /query and /count
    };
    // An answer of the script's own, or nullopt for the honest one.
    using HttpScript = std::function<std::optional<HttpAnswer>(const Request &request)>;
    // The frames to send for a REQ instead of the honest stored events + EOSE, or nullopt.
    using ReqScript = std::function<std::optional<std::vector<QByteArray>>(
        const QString &subscriptionId, const std::vector<nostr::Filter> &filters)>;

    explicit HostileRelay(QObject *parent = nullptr);
    ~HostileRelay() override;

    bool listen();
    QString httpUrl() const; // http://127.0.0.1:<port>
    QString wsUrl() const; // ws://127.0.0.1:<port>
    // Signs the relay's own events (channel metadata), as a real relay does.
    const nostr::SecretKey &relayKey() const { return m_relayKey; }

    // The honest part.
    void add(const nostr::Event &event);
    const std::vector<nostr::Event> &stored() const { return m_events; }
    // What an honest relay answers: per filter newest first (created_at DESC, id ASC) up to its
    // limit, keyset cursors honoured, one copy of each event.
    std::vector<nostr::Event> honestAnswer(const std::vector<nostr::Filter> &filters) const;
    static QByteArray eventsJson(const std::vector<nostr::Event> &events);
    // An open channel (kind 39000 signed by the relay key) named `name`.
    void addOpenChannel(const QString &channel, const QString &name, qint64 createdAt);

    void setHttpScript(HttpScript script) { m_httpScript = std::move(script); }
    void setReqScript(ReqScript script) { m_reqScript = std::move(script); }

    // ["EVENT", id, eventJson] on every open subscription whose REQ frame contains `needle`, as
    // is (any bytes). Returns how many subscriptions got it.
    int sendEventOn(const QByteArray &needle, const QByteArray &eventJson);
    // A text message to every WebSocket client, as is.
    void sendText(const QString &message);
    int webSocketClients() const { return int(m_clients.size()); }
    int openSubscriptions(const QByteArray &needle = {}) const;

    const QList<Request> &requests() const { return m_requests; }
    QList<Request> requests(const QByteArray &path) const;
    // Bytes of endless (or over-long) answers written so far, and whether the client hung up.
    qint64 streamedBytes() const { return m_streamedBytes; }
    int streamsCut() const { return m_streamsCut; }

signals:
    void subscribed(const QString &subscriptionId);
    void streamCut(qint64 bytesSent); // a client hung up on an endless or over-long answer

private:
    struct HttpClient;
    struct WsClient;
    void onNewConnection();
    void onHttpData(HttpClient *client);
    void answer(HttpClient *client, const Request &request);
    void writeAnswer(HttpClient *client, const HttpAnswer &answer);
    void pumpStream(HttpClient *client);
    void dropHttpClient(HttpClient *client);
    void onWebSocket();
    void onWsMessage(WsClient *client, const QString &text);

    QTcpServer m_server;
    QWebSocketServer m_webSockets;
    quint16 m_port = 0;
    nostr::SecretKey m_relayKey;
    std::vector<nostr::Event> m_events;
    HttpScript m_httpScript;
    ReqScript m_reqScript;
    std::vector<HttpClient *> m_httpClients;
    std::vector<WsClient *> m_clients;
    QList<Request> m_requests;
    qint64 m_streamedBytes = 0;
    int m_streamsCut = 0;
};

// Events as a hostile relay twists them (test fixtures).
struct Forge
{
    // The same event claiming another author with a signature of all `f`s.
    static nostr::Event forgedSignature(nostr::Event event, const std::string &author);
    // The content changed after signing (id and signature are the original's).
    static nostr::Event alteredContent(nostr::Event event, const std::string &content);
};

} // namespace buzz::test
