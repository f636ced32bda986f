#include "relay/server/GuardedTcpServer.h"

#include "relay/server/ServerMetrics.h"

#include <QDir>
#include <QLoggingCategory>
#include <QTcpSocket>

#include <sys/resource.h>

#include <algorithm>
#include <limits>

Q_LOGGING_CATEGORY(lcRelayAccept, "buzz.relay.accept")

namespace buzz::relay {

GuardedTcpServer::GuardedTcpServer(HttpLimits limits, HttpConnectionGuard::Hooks hooks,
                                   int maxOpenConnections, QObject *parent)
    : QTcpServer(parent)
    , m_limits(limits)
    , m_hooks(std::move(hooks))
    , m_metrics(m_hooks.metrics)
    , m_maxOpen(std::max(1, maxOpenConnections))
{
    m_maxPending = maxPendingConnections();
    m_acceptRetry.setSingleShot(true);
    m_acceptRetry.setInterval(kAcceptRetryMs);
    connect(&m_acceptRetry, &QTimer::timeout, this, &GuardedTcpServer::resumeUnlessFull);
    connect(this, &QTcpServer::acceptError, this, &GuardedTcpServer::onAcceptError);
}

int GuardedTcpServer::descriptorBudget()
{
    rlimit limit {};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return std::numeric_limits<int>::max();
    // /proc/self/fd lists this process's open descriptors (the directory's own one included).
    const qsizetype open = QDir(QStringLiteral("/proc/self/fd"))
                               .entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot)
                               .size();
    const auto soft = static_cast<long long>(std::min<rlim_t>(limit.rlim_cur, 1 << 30));
    return int(std::max<long long>(kMinOpenConnections, soft - open - kReservedDescriptors));
}

void GuardedTcpServer::incomingConnection(qintptr socketDescriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(socketDescriptor)) {
        delete socket;
        return;
    }
    ++m_open;
    auto *guard = new HttpConnectionGuard(socket, m_httpServer, m_limits, m_hooks);
    // The guard is the socket's child: it goes when the socket goes, whoever deletes it
    // (QHttpServer, a WebSocket), and nobody else cuts its signals.
    connect(guard, &QObject::destroyed, this, &GuardedTcpServer::onConnectionFreed);
    addPendingConnection(socket);
    if (m_open >= m_maxOpen && !m_full) {
        setFull(true);
        m_metrics->increment("buzz_http_accept_paused_total");
        qCWarning(lcRelayAccept) << m_open
                                 << "connections open, the most this process's descriptors allow:"
                                    " new ones wait until one closes";
    }
}

QTcpSocket *GuardedTcpServer::nextPendingConnection()
{
    if (m_handedOut)
        m_handedOut->followHttpServer();
    m_handedOut = nullptr;
    QTcpSocket *socket = QTcpServer::nextPendingConnection();
    if (socket)
        m_handedOut =
            socket->findChild<HttpConnectionGuard *>(QString(), Qt::FindDirectChildrenOnly);
    if (m_full)
        pauseAccepting();
    return socket;
}

std::vector<HttpConnectionGuard *> GuardedTcpServer::httpGuards() const
{
    std::vector<HttpConnectionGuard *> guards;
    for (QTcpSocket *socket : findChildren<QTcpSocket *>(QString(), Qt::FindDirectChildrenOnly)) {
        auto *guard =
            socket->findChild<HttpConnectionGuard *>(QString(), Qt::FindDirectChildrenOnly);
        if (guard && guard->waitingBytes() > 0)
            guards.push_back(guard);
    }
    return guards;
}

void GuardedTcpServer::onConnectionFreed()
{
    --m_open;
    if (m_full && m_open < m_maxOpen)
        setFull(false);
}

// QTcpServer accepts in a loop until accept() finds nothing, pausing or not; a pending-connection
// bound of 0 is what ends that loop before its next accept().
void GuardedTcpServer::setFull(bool full)
{
    m_full = full;
    if (full) {
        setMaxPendingConnections(0);
        pauseAccepting();
    } else {
        setMaxPendingConnections(m_maxPending);
        if (!m_acceptRetry.isActive())
            resumeAccepting();
    }
}

void GuardedTcpServer::resumeUnlessFull()
{
    if (!m_full)
        resumeAccepting();
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
