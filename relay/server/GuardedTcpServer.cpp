#include "relay/server/GuardedTcpServer.h"

#include "relay/server/ServerMetrics.h"

#include <QLoggingCategory>
#include <QTcpSocket>

Q_LOGGING_CATEGORY(lcRelayAccept, "buzz.relay.accept")

namespace buzz::relay {

GuardedTcpServer::GuardedTcpServer(HttpLimits limits, HttpConnectionGuard::HostCheck isKnownHost,
                                   ServerMetrics *metrics, QObject *parent)
    : QTcpServer(parent)
    , m_limits(limits)
    , m_isKnownHost(std::move(isKnownHost))
    , m_metrics(metrics)
{
    m_acceptRetry.setSingleShot(true);
    m_acceptRetry.setInterval(kAcceptRetryMs);
    connect(&m_acceptRetry, &QTimer::timeout, this, &QTcpServer::resumeAccepting);
    connect(this, &QTcpServer::acceptError, this, &GuardedTcpServer::onAcceptError);
}

void GuardedTcpServer::incomingConnection(qintptr socketDescriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(socketDescriptor)) {
        delete socket;
        return;
    }
    ++m_open;
    auto *guard = new HttpConnectionGuard(socket, m_httpServer, m_limits, m_isKnownHost, m_metrics);
    // The guard is the socket's child: it goes when the socket goes, whoever deletes it
    // (QHttpServer, a WebSocket), and nobody else cuts its signals.
    connect(guard, &QObject::destroyed, this, [this] { --m_open; });
    addPendingConnection(socket);
}

void GuardedTcpServer::onAcceptError(QAbstractSocket::SocketError error)
{
    m_metrics->increment("buzz_http_accept_errors_total");
    qCWarning(lcRelayAccept) << "accept failed:" << errorString() << "- retrying in"
                             << kAcceptRetryMs << "ms";
    Q_UNUSED(error);
    m_acceptRetry.start();
}

} // namespace buzz::relay
