#pragma once

// A tiny HTTP/1.1 proxy between a client under test and the in-process relay. It records every
// request the relay receives (method, path, body) and can inject one fault at a chosen request:
// drop the request before the relay sees it, drop the response after the relay answered (the
// write committed, the client never hears), hold the request until released, answer a held
// /query with an empty array itself (a stale read), or answer like a gateway whose relay did not
// answer (502 before the relay saw the request, 504 after it committed).
//
// WebSocket upgrades are tunnelled frame by frame: the proxy tracks the subscriptions each client
// opened and can CLOSE them as the relay does (busy reader, query timeout). Whole-relay faults:
// freeze (nothing moves either way, like a stopped process: pings go unanswered), refuse
// connections (the relay is down), drop every open connection (a restart or a network cut).

#include "WsFrameReader.h"

#include <QByteArray>
#include <QObject>
#include <QTcpServer>
#include <QUrl>

#include <functional>
#include <vector>

class QTcpSocket;

namespace buzz::test {

class RecordingProxy : public QObject
{
    Q_OBJECT
public:
    struct Request
    {
        QByteArray method;
        QByteArray path;
        QByteArray body;
        QByteArray authorization; // the NIP-98 header: Qt's own re-sends repeat it byte for byte
    };

    // DropRequest drops the matching request and every later copy of it with the same
    // Authorization header — i.e. the re-sends Qt makes by itself — but not a new request.
    // BadGateway: a plain-text 502 from the proxy, the relay never sees the request.
    // GatewayTimeout: the relay processes the request; its answer is replaced by a plain-text 504.
    enum class Fault { DropRequest, DropResponse, Hold, BadGateway, GatewayTimeout };
    using Predicate = std::function<bool(const Request &)>;

    explicit RecordingProxy(QObject *parent = nullptr);
    ~RecordingProxy() override;

    bool listen();
    quint16 port() const { return m_port; }
    QUrl url() const; // http://127.0.0.1:<port>
    void setUpstreamPort(quint16 port) { m_upstreamPort = port; }

    // Arms a one-shot fault for the first request matching `predicate`. Several faults may be
    // armed; each request fires at most the first armed fault that matches it.
    void injectFault(Fault fault, Predicate predicate);
    bool isHolding() const { return m_held != nullptr; }
    // Releases a held request: forward it, or (fakeEmptyArray) answer 200 [] without forwarding.
    void release(bool fakeEmptyArray = false);
    // Forgets the armed faults that have not fired yet.
    void disarm() { m_faults.clear(); }

    // Requests that reached the relay (dropped-before-relay requests are not in here).
    const std::vector<Request> &forwarded() const { return m_forwarded; }
    std::vector<Request> forwarded(const QByteArray &path) const;
    void clear() { m_forwarded.clear(); }

    static Predicate eventsPost();
    static Predicate queryContaining(const QByteArray &needle);

    // Whole-relay faults. Frozen: bytes stay unread in both directions until unfrozen (new
    // connections are accepted, as a stopped process's listen backlog does). Refusing: the port
    // is closed, connections are refused; false listens on the same port again.
    void setFrozen(bool frozen);
    void setRefusing(bool refusing);
    void dropConnections(); // aborts every open connection, WebSocket tunnels included

    // Closes the live subscriptions whose REQ frame contains `needle` the way the relay does:
    // ["CLOSED", id, reason] to the client, ["CLOSE", id] to the relay, and nothing more for that
    // id until the client sends a new REQ for it. Returns how many were closed.
    int closeSubscriptions(const QByteArray &needle, const QString &reason);
    // Sends a text message to every WebSocket client as if the relay had (e.g. a second AUTH
    // challenge).
    void sendToClients(const QByteArray &message);
    // REQs seen on open tunnels and not closed since (client CLOSE or closeSubscriptions).
    int openSubscriptions(const QByteArray &needle = {}) const;

signals:
    void requestHeld();
    void subscriptionOpened(); // a REQ went through to the relay

private:
    struct Pipe;
    void onNewConnection();
    void onClientData(Pipe *pipe);
    void onUpstreamData(Pipe *pipe);
    void closePipe(Pipe *pipe);
    void forward(Pipe *pipe, const QByteArray &raw, const Request &request);
    void answerAndClose(Pipe *pipe, const QByteArray &status, const QByteArray &body);
    void tunnelFromClient(Pipe *pipe, const QByteArray &bytes);
    void tunnelFromRelay(Pipe *pipe, const QByteArray &bytes);
    void flushInjected(Pipe *pipe);

    QTcpServer m_server;
    quint16 m_port = 0;
    quint16 m_upstreamPort = 0;
    bool m_frozen = false;
    std::vector<Pipe *> m_pipes;
    std::vector<Request> m_forwarded;
    struct ArmedFault
    {
        Fault fault;
        Predicate predicate;
    };
    std::vector<ArmedFault> m_faults;
    std::vector<QByteArray> m_droppedAuthorizations;
    Pipe *m_held = nullptr;
    QByteArray m_heldRaw;
    Request m_heldRequest;
};

} // namespace buzz::test
