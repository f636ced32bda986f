#include "relay/server/HttpConnectionGuard.h"

#include "relay/server/HttpReplyOrder.h"
#include "relay/server/ServerMetrics.h"

#include <QTcpSocket>

#include <sys/socket.h>

namespace buzz::relay {

namespace {

// How long a refused connection keeps reading (and discarding) what the client is still
// sending after the answer: closing with unread bytes would reset the connection, and the client
// could lose the answer before reading it.
constexpr int kDrainMs = 2000;

const char *refusalReason(int status)
{
    switch (status) {
    case 404:
        return "unknown_host";
    case 408:
        return "timeout";
    case 413:
        return "body_too_large";
    case 426:
        return "malformed_upgrade";
    case 431:
        return "head_too_large";
    default:
        return "malformed";
    }
}

} // namespace

HttpConnectionGuard::HttpConnectionGuard(QTcpSocket *socket, QObject *httpServer,
                                         const HttpLimits &limits, const Hooks &hooks)
    : QObject(socket)
    , m_socket(socket)
    , m_httpServer(httpServer)
    , m_limits(limits)
    , m_guard(limits)
    , m_hooks(hooks)
    , m_metrics(hooks.metrics)
    , m_replies(new HttpReplyOrder(socket))
{
    m_replies->setOnWritten([this] { account(); });
    m_readConnection =
        connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnectionGuard::onReadyRead);
    connect(m_socket, &QTcpSocket::bytesWritten, this, &HttpConnectionGuard::onBytesWritten);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &HttpConnectionGuard::onTimeout);
    m_timer.start(m_limits.idleTimeoutMs);
}

void HttpConnectionGuard::followHttpServer()
{
    if (m_following)
        return;
    m_following = true;
    connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnectionGuard::afterHttpServerRead);
}

void HttpConnectionGuard::afterHttpServerRead()
{
    // Whatever QHttpServer left in the buffer was seen by onReadyRead before it.
    m_seenUnread = std::min(m_seenUnread, std::max<qint64>(0, m_socket->bytesAvailable()));
    if (m_draining)
        cutWhenHandled();
}

void HttpConnectionGuard::onReadyRead()
{
    if (m_draining) {
        // Once QHttpServer handed over the requests before the refused one, the rest is
        // discarded unread; until then it stays for QHttpServer.
        if (m_cut)
            m_socket->readAll();
        return;
    }
    if (!m_following) // GuardedTcpServer missed it: too late for what QHttpServer read already
        followHttpServer();
    const qint64 available = m_socket->bytesAvailable();
    // QHttpServer re-emits readyRead after each request while bytes are left: those were fed
    // already. New bytes are appended behind them.
    const qint64 fresh = available - std::min(m_seenUnread, available);
    if (fresh <= 0) {
        m_seenUnread = std::max<qint64>(0, available);
        return;
    }
    // Only the head needs the bytes themselves; a body is counted, never copied.
    const QByteArray bytes = m_socket->peek(available);
    m_seenUnread = available;
    const auto verdict =
        m_guard.feed(std::string_view(bytes.constData() + (available - fresh), std::size_t(fresh)));
    switch (verdict.kind) {
    case HttpRequestGuard::Verdict::Kind::Continue:
        rearm();
        return;
    case HttpRequestGuard::Verdict::Kind::Reject:
        refuse(verdict.status, verdict.body, "text/plain; charset=utf-8");
        return;
    case HttpRequestGuard::Verdict::Kind::Upgrade:
        if (!m_hooks.isKnownHost(m_guard.lastHead().host)) {
            refuse(404, R"({"error":"relay: no community is configured for this host"})",
                   "application/json");
            return;
        }
        // Its 101 would overtake the answers still owed before it.
        if (m_replies->taken() != m_guard.completedRequests() || m_replies->owed() > 0) {
            refuse(400, "a WebSocket handshake cannot follow unanswered requests",
                   "text/plain; charset=utf-8");
            return;
        }
        handOver();
        return;
    }
}

void HttpConnectionGuard::handOver()
{
    // QHttpServer never parses the handshake: its readyRead slot goes, the head stays unread
    // for QWebSocketServer, and the socket is a WebSocket from here (its own limits apply).
    if (m_httpServer)
        QObject::disconnect(m_socket, &QTcpSocket::readyRead, m_httpServer, nullptr);
    // QHttpServer may have read the first part of the head in a read transaction.
    if (m_socket->isTransactionStarted())
        m_socket->rollbackTransaction();
    stopWatching();
    m_handedOver = true;
    releaseAccount(); // its WebSocket session counts what it sends
    if (m_hooks.upgrade)
        m_hooks.upgrade(m_socket);
    else
        m_socket->abort();
}

void HttpConnectionGuard::rearm()
{
    const auto phase = m_guard.phase();
    const bool newRequest = m_guard.completedRequests() != m_timedRequests;
    if (phase == m_timedPhase && !newRequest && phase != HttpRequestGuard::Phase::Idle)
        return; // a head or body deadline is not extended by more bytes
    m_timedPhase = phase;
    m_timedRequests = m_guard.completedRequests();
    switch (phase) {
    case HttpRequestGuard::Phase::Idle:
        m_timer.start(m_limits.idleTimeoutMs);
        break;
    case HttpRequestGuard::Phase::Head:
        m_timer.start(m_limits.headTimeoutMs);
        break;
    case HttpRequestGuard::Phase::Body:
        m_timer.start(m_limits.bodyTimeoutMs);
        break;
    case HttpRequestGuard::Phase::Upgraded:
    case HttpRequestGuard::Phase::Rejected:
        m_timer.stop();
        break;
    }
}

HttpConnectionGuard::~HttpConnectionGuard()
{
    releaseAccount();
}

void HttpConnectionGuard::account()
{
    if (!m_hooks.budget || m_handedOver)
        return;
    const std::int64_t waiting = m_socket->bytesToWrite();
    if (waiting == m_accounted)
        return;
    m_hooks.budget->add(waiting - m_accounted);
    m_accounted = waiting;
    m_peakWaiting = std::max(m_peakWaiting, waiting);
    if (m_hooks.budget->over() && m_hooks.relieveOutbound)
        m_hooks.relieveOutbound();
}

void HttpConnectionGuard::releaseAccount()
{
    if (m_hooks.budget && m_accounted != 0)
        m_hooks.budget->add(-m_accounted);
    m_accounted = 0;
    // Answers of a megabyte or more were buffered: hand what they used back to the system.
    if (m_peakWaiting >= std::int64_t(OutboundBudget::kSmallAnswerBytes) && m_hooks.releaseMemory)
        m_hooks.releaseMemory();
    m_peakWaiting = 0;
}

void HttpConnectionGuard::shed()
{
    m_metrics->increment(ServerMetrics::labelled("buzz_http_connections_closed_total", "reason",
                                                 "relay_outbound_memory"));
    m_timer.stop();
    m_socket->abort();
    releaseAccount();
}

void HttpConnectionGuard::onBytesWritten()
{
    account();
    if (m_draining) {
        if (m_replies->closed() && m_socket->bytesToWrite() == 0 && !m_shutDown) {
            m_shutDown = true;
            ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR); // FIN after the answer
        }
        return;
    }
    if (m_guard.phase() == HttpRequestGuard::Phase::Idle)
        m_timer.start(m_limits.idleTimeoutMs); // an answer still going out is not idleness
}

void HttpConnectionGuard::onTimeout()
{
    if (m_draining) {
        if (!m_cut) {
            cut(); // QHttpServer did not take the requests before the refused one in time
            return;
        }
        if (!m_replies->closed()) {
            m_timer.start(kDrainMs); // answers before the refusal are still being computed
            return;
        }
        m_socket->abort();
        return;
    }
    if (!m_readConnection) {
        // QHttpServer gave up on the socket (a request it could not parse) and cut every
        // connection to it, its own clean-up included: close and free it here.
        m_socket->abort();
        m_socket->deleteLater();
        return;
    }
    switch (m_guard.phase()) {
    case HttpRequestGuard::Phase::Idle:
        if (m_socket->bytesToWrite() > 0 || m_replies->owed() > 0) {
            m_timer.start(m_limits.idleTimeoutMs);
            return;
        }
        m_metrics->increment(
            ServerMetrics::labelled("buzz_http_connections_closed_total", "reason", "idle"));
        m_socket->disconnectFromHost();
        return;
    case HttpRequestGuard::Phase::Head:
    case HttpRequestGuard::Phase::Body:
        refuse(408, "request timeout", "text/plain; charset=utf-8");
        return;
    case HttpRequestGuard::Phase::Upgraded:
    case HttpRequestGuard::Phase::Rejected:
        return;
    }
}

void HttpConnectionGuard::refuse(int status, const std::string &body, const QByteArray &contentType)
{
    m_metrics->increment(
        ServerMetrics::labelled("buzz_http_refused_total", "reason", refusalReason(status)));
    m_refusal = "HTTP/1.1 " + QByteArray::number(status) + ' '
        + HttpRequestGuard::reasonPhrase(status) + "\r\nContent-Type: " + contentType
        + "\r\nContent-Length: " + QByteArray::number(qsizetype(body.size()))
        + "\r\nConnection: close\r\n\r\n";
    m_refusal.append(body.data(), qsizetype(body.size()));
    m_draining = true;
    // The requests received whole before the refused one are still answered, in order, and the
    // refusal after them: QHttpServer hands them over (one per readyRead) before it is cut off.
    m_refuseAfter = m_guard.completedRequests();
    m_timer.start(kDrainMs);
    cutWhenHandled();
}

void HttpConnectionGuard::cutWhenHandled()
{
    if (!m_cut && m_replies->taken() >= m_refuseAfter)
        cut();
}

void HttpConnectionGuard::cut()
{
    m_cut = true;
    if (m_httpServer)
        QObject::disconnect(m_socket, &QTcpSocket::readyRead, m_httpServer, nullptr);
    // QHttpServer may hold everything since its request began in a read transaction.
    if (m_socket->isTransactionStarted())
        m_socket->commitTransaction();
    m_socket->readAll();
    m_timer.stop();
    m_replies->closeWith(std::exchange(m_refusal, {}), [this] {
        m_timer.start(kDrainMs); // the client gets this long to read it before the cut
        onBytesWritten();
    });
}

void HttpConnectionGuard::stopWatching()
{
    m_timer.stop();
    disconnect(m_socket, nullptr, this, nullptr);
}

} // namespace buzz::relay
