#pragma once

#include "relay/server/HttpRequestGuard.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

class QTcpSocket;

namespace buzz::relay {

class ServerMetrics;

// The socket side of HttpRequestGuard. Its readyRead slot is connected before QHttpServer's, so it
// sees every byte of a request head before QHttpServer parses (and buffers) anything; a request
// the guard refuses is answered here and QHttpServer never reads it. It also enforces the head,
// body and idle timeouts, and stops watching once the connection became a WebSocket. A child of
// its socket, so it goes with it.
class HttpConnectionGuard : public QObject
{
    Q_OBJECT
public:
    // True when the Host header names a community (a WebSocket upgrade is answered 404 otherwise).
    using HostCheck = std::function<bool(std::string_view host)>;

    HttpConnectionGuard(QTcpSocket *socket, QObject *httpServer, const HttpLimits &limits,
                        HostCheck isKnownHost, ServerMetrics *metrics);

private:
    void onReadyRead();
    void onTimeout();
    void onBytesWritten();
    void rearm();
    void refuse(int status, const std::string &body, const QByteArray &contentType);
    void stopWatching();

    QTcpSocket *m_socket;
    QPointer<QObject> m_httpServer;
    HttpLimits m_limits;
    HttpRequestGuard m_guard;
    HostCheck m_isKnownHost;
    ServerMetrics *m_metrics;
    QTimer m_timer;
    QMetaObject::Connection m_readConnection;
    HttpRequestGuard::Phase m_timedPhase = HttpRequestGuard::Phase::Idle;
    std::uint64_t m_timedRequests = 0;
    bool m_draining = false; // refused: answer written, the rest of the request discarded
    bool m_shutDown = false;
};

} // namespace buzz::relay
