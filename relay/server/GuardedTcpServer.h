#pragma once

#include "relay/server/HttpConnectionGuard.h"
#include "relay/server/HttpRequestGuard.h"

#include <QTcpServer>
#include <QTimer>

namespace buzz::relay {

class ServerMetrics;

// The listening socket handed to QHttpServer (QAbstractHttpServer::bind): every accepted
// connection gets an HttpConnectionGuard before QHttpServer connects to it. When accept() fails
// for lack of resources (no file descriptors left), QTcpServer stops accepting for good; this
// server resumes after a pause instead, once timeouts have freed descriptors.
class GuardedTcpServer : public QTcpServer
{
    Q_OBJECT
public:
    static constexpr int kAcceptRetryMs = 200;

    GuardedTcpServer(HttpLimits limits, HttpConnectionGuard::HostCheck isKnownHost,
                     ServerMetrics *metrics, QObject *parent = nullptr);

    // The server QHttpServer reads from; set once bound, before the first connection.
    void setHttpServer(QObject *httpServer) { m_httpServer = httpServer; }
    // Accepted connections not yet closed (HTTP and WebSocket alike).
    int openConnections() const { return m_open; }

protected:
    void incomingConnection(qintptr socketDescriptor) override;

private:
    void onAcceptError(QAbstractSocket::SocketError error);

    HttpLimits m_limits;
    HttpConnectionGuard::HostCheck m_isKnownHost;
    ServerMetrics *m_metrics;
    QObject *m_httpServer = nullptr;
    QTimer m_acceptRetry;
    int m_open = 0;
};

} // namespace buzz::relay
