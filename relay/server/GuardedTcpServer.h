#pragma once

#include "relay/server/HttpConnectionGuard.h"
#include "relay/server/HttpRequestGuard.h"

#include <QPointer>
#include <QTcpServer>
#include <QTimer>

#include <vector>

namespace buzz::relay {

class ServerMetrics;

// The listening socket handed to QHttpServer (QAbstractHttpServer::bind): every accepted
// connection gets an HttpConnectionGuard before QHttpServer connects to it.
//
// Out of file descriptors, Qt 6.4 treats accept()'s EMFILE as a temporary error: it neither pauses
// nor says so, and its level-triggered notifier calls accept() again at once, for ever (a whole
// core spent while 300 half-sent requests held every descriptor). So this server never lets it get
// there: it stops accepting at `maxOpenConnections` (the descriptors left under RLIMIT_NOFILE
// when it started listening, less a reserve for the store, replicas and the event loop) and resumes
// when a connection is freed; the timeouts of HttpConnectionGuard free those held by clients that
// never finish a request. New connections wait in the kernel's backlog meanwhile. An accept()
// error Qt does report (it pauses for good then) is retried after kAcceptRetryMs.
class GuardedTcpServer : public QTcpServer
{
    Q_OBJECT
public:
    static constexpr int kAcceptRetryMs = 200;
    // Descriptors kept free for everything but client connections: SQLite files and WAL of the
    // writer, its readers and the replicas, event loop and thread pool eventfds, logs.
    static constexpr int kReservedDescriptors = 64;
    static constexpr int kMinOpenConnections = 16;

    GuardedTcpServer(HttpLimits limits, HttpConnectionGuard::Hooks hooks, int maxOpenConnections,
                     QObject *parent = nullptr);

    // Connections this process can hold now: the RLIMIT_NOFILE soft limit less the descriptors
    // already open and kReservedDescriptors, at least kMinOpenConnections.
    static int descriptorBudget();
    int maxOpenConnections() const { return m_maxOpen; }

    // The server QHttpServer reads from; set once bound, before the first connection.
    void setHttpServer(QObject *httpServer) { m_httpServer = httpServer; }
    // Accepted connections not yet closed (HTTP and WebSocket alike).
    int openConnections() const { return m_open; }
    // The guards of connections still on HTTP.
    std::vector<HttpConnectionGuard *> httpGuards() const;

    // QHttpServer takes each connection here; QTcpServer re-enables accepting in it, so a full
    // server pauses again. QHttpServer connects to a connection right after taking it and then
    // asks for the next (its loop ends on nullptr): that is where the connection's guard puts its
    // second slot behind QHttpServer's (HttpConnectionGuard::followHttpServer).
    QTcpSocket *nextPendingConnection() override;

protected:
    void incomingConnection(qintptr socketDescriptor) override;

private:
    void onAcceptError(QAbstractSocket::SocketError error);
    void onConnectionFreed();
    void resumeUnlessFull();
    void setFull(bool full);

    HttpLimits m_limits;
    HttpConnectionGuard::Hooks m_hooks;
    ServerMetrics *m_metrics;
    QPointer<HttpConnectionGuard> m_handedOut; // its socket was taken last, not yet followed
    QObject *m_httpServer = nullptr;
    QTimer m_acceptRetry;
    int m_open = 0;
    int m_maxOpen;
    int m_maxPending = 0; // QTcpServer's own bound on accepted, not yet taken connections
    bool m_full = false; // paused because m_open reached m_maxOpen
};

} // namespace buzz::relay
