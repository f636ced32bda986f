#pragma once

#include "relay/model/OutboundBudget.h"
#include "relay/server/HttpRequestGuard.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

class QTcpSocket;

namespace buzz::relay {

class HttpReplyOrder;
class ServerMetrics;

// The socket side of HttpRequestGuard. Its readyRead slot is connected before QHttpServer's, so it
// sees every byte of a request head before QHttpServer parses (and buffers) anything; a request
// the guard refuses is answered here, after the answers owed for the requests before it
// (HttpReplyOrder), and QHttpServer never reads it. It also enforces the head,
// body and idle timeouts on every request of the connection. A WebSocket handshake (the only way
// out of HTTP) never reaches QHttpServer: the guard takes the socket from it and hands it to
// `upgrade`. A child of its socket, so it goes with it.
//
// The socket's read buffer holds bytes the guard has seen and QHttpServer has not read yet (it
// reads one request per readyRead). So that each byte is fed to the request guard exactly once, a
// second slot behind QHttpServer's (followHttpServer) notes what is left unread after it.
class HttpConnectionGuard : public QObject
{
    Q_OBJECT
public:
    // What every connection's guard shares, from the server.
    struct Hooks
    {
        // True when the Host header names a community (a WebSocket upgrade is answered 404
        // otherwise).
        std::function<bool(std::string_view host)> isKnownHost;
        // Takes a socket whose WebSocket handshake head is complete and unread in its buffer.
        std::function<void(QTcpSocket *socket)> upgrade;
        ServerMetrics *metrics = nullptr;
        // The relay-wide outbound bound: the bytes waiting in this socket count against it.
        std::shared_ptr<OutboundBudget> budget;
        std::function<void()> relieveOutbound; // the budget is over its limit
        std::function<void()> releaseMemory; // large buffers were freed
    };

    HttpConnectionGuard(QTcpSocket *socket, QObject *httpServer, const HttpLimits &limits,
                        const Hooks &hooks);
    ~HttpConnectionGuard() override;

    // Connects the slot that runs after QHttpServer's readyRead slot; to be called once, right
    // after QHttpServer connected to the socket.
    void followHttpServer();

    // Bytes of answers written and not yet read by the client (0 once the socket is a
    // WebSocket: its session counts them).
    std::int64_t waitingBytes() const { return m_accounted; }
    // Cut for the relay-wide outbound bound.
    void shed();

private:
    void onReadyRead();
    void afterHttpServerRead();
    void onTimeout();
    void onBytesWritten();
    void rearm();
    void refuse(int status, const std::string &body, const QByteArray &contentType);
    void stopWatching();
    // Brings the budget's share of this socket up to date.
    void account();
    void releaseAccount();
    void handOver();
    void cutWhenHandled();
    void cut();

    QTcpSocket *m_socket;
    QPointer<QObject> m_httpServer;
    HttpLimits m_limits;
    HttpRequestGuard m_guard;
    Hooks m_hooks;
    ServerMetrics *m_metrics;
    std::int64_t m_accounted = 0; // bytesToWrite() as last charged to the budget
    std::int64_t m_peakWaiting = 0;
    QTimer m_timer;
    QMetaObject::Connection m_readConnection;
    HttpRequestGuard::Phase m_timedPhase = HttpRequestGuard::Phase::Idle;
    std::uint64_t m_timedRequests = 0;
    qint64 m_seenUnread = 0; // bytes at the front of the read buffer already fed to m_guard
    bool m_following = false;
    bool m_handedOver = false; // a WebSocket now
    HttpReplyOrder *m_replies; // a child of the socket too
    // Refused: the answers owed before the refusal, then the refusal, and the rest discarded.
    bool m_draining = false;
    bool m_cut = false; // QHttpServer no longer reads this connection
    std::uint64_t m_refuseAfter = 0; // requests received whole before the refused one
    QByteArray m_refusal;
    bool m_shutDown = false;
};

} // namespace buzz::relay
