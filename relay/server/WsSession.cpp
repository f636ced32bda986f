#include "relay/server/WsSession.h"

#include "net/nostr/Kinds.h"
#include "relay/server/WsFrameGuard.h"

#include <QLoggingCategory>
#include <QPointer>

#include <unordered_set>

Q_LOGGING_CATEGORY(lcRelayWs, "buzz.relay.ws")

namespace buzz::relay {

namespace {

std::string lowered(std::string text)
{
    for (char &c : text)
        c = c >= 'A' && c <= 'Z' ? char(c + 32) : c;
    return text;
}

// The CLOSED reason for a history/count read that did not succeed (nullopt: answer normally).
std::optional<std::string> closedReasonFor(const QueryResult &result)
{
    switch (result.status) {
    case QueryResult::Status::Ok:
    case QueryResult::Status::Internal: // upstream still answers EOSE after a database error
        return std::nullopt;
    case QueryResult::Status::BadRequest:
    case QueryResult::Status::Forbidden:
        return result.message;
    case QueryResult::Status::TimedOut:
        return std::string("error: query timed out");
    case QueryResult::Status::Retryable:
        if (result.message.rfind("error: ", 0) == 0)
            return result.message;
        if (result.message.rfind("retryable:", 0) == 0)
            return "error: " + result.message;
        return "error: retryable: " + result.message;
    }
    return std::nullopt;
}

} // namespace

WsSession::WsSession(std::unique_ptr<QWebSocket> socket, WsFrameGuard *frames,
                     std::string community, std::string authRelayUrl, const ServerContext &context,
                     QObject *parent)
    : QObject(parent)
    , m_socket(std::move(socket))
    , m_community(std::move(community))
    , m_authRelayUrl(std::move(authRelayUrl))
    , m_context(context)
    , m_outbound(OutboundQueue::kDefaultCapacity, OutboundQueue::kDefaultMaxConsecutiveFull,
                 context.maxOutboundBytes)
{
    m_socket->setParent(nullptr);
    // A frame or message over 64 KiB closes the socket (close code 1009), as upstream: no NOTICE.
    m_socket->setMaxAllowedIncomingFrameSize(ws::kMaxFrameBytes);
    m_socket->setMaxAllowedIncomingMessageSize(ws::kMaxFrameBytes);
    connect(m_socket.get(), &QWebSocket::textMessageReceived, this, &WsSession::onTextMessage);
    connect(m_socket.get(), &QWebSocket::binaryMessageReceived, this, &WsSession::onBinaryMessage);
    connect(m_socket.get(), &QWebSocket::disconnected, this, [this] {
        if (!m_finished) {
            m_finished = true;
            releaseAccount();
            emit finished(this);
        }
    });
    connect(m_socket.get(), &QWebSocket::bytesWritten, this, [this] { account(false); });
    // Liveness: a peer that stops answering pings (a dead laptop, a dropped NAT mapping) is cut
    // after a few intervals instead of holding its subscriptions forever. Any pong counts.
    connect(m_socket.get(), &QWebSocket::pong, this, [this] { m_unansweredPings = 0; });
    m_pingTimer.setInterval(m_context.pingIntervalMs);
    connect(&m_pingTimer, &QTimer::timeout, this, &WsSession::onPingDue);
    m_pingTimer.start();
    m_context.metrics->increment("buzz_ws_connections_total");
    send(ws::authFrame(m_handshake.challenge()));
    if (frames) {
        QPointer<WsSession> self(this);
        frames->activate(
            [self](const std::string &reason) {
                if (self)
                    self->failProtocol(reason);
            },
            [self] {
                if (self)
                    self->checkOutbound();
            });
    }
}

void WsSession::failProtocol(const std::string &reason)
{
    if (m_finished || m_closing)
        return;
    m_closing = true;
    m_context.metrics->increment(
        ServerMetrics::labelled("buzz_ws_disconnects_total", "reason", "protocol_error"));
    m_pingTimer.stop();
    // Closing the socket drops what it holds unread: the offending frame is never acted on.
    m_socket->close(QWebSocketProtocol::CloseCodeProtocolError, QString::fromStdString(reason));
}

void WsSession::onPingDue()
{
    if (m_unansweredPings >= m_context.maxUnansweredPings) {
        m_context.metrics->increment(
            ServerMetrics::labelled("buzz_ws_disconnects_total", "reason", "ping_timeout"));
        m_pingTimer.stop();
        m_socket->abort(); // emits disconnected → finished
        return;
    }
    ++m_unansweredPings;
    m_context.metrics->increment("buzz_ws_pings_total");
    m_socket->ping();
}

WsSession::~WsSession()
{
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
    releaseAccount();
}

void WsSession::account(bool relieve)
{
    if (!m_context.budget || m_finished)
        return;
    const std::int64_t waiting = m_socket->bytesToWrite();
    if (waiting == m_accounted)
        return;
    m_context.budget->add(waiting - m_accounted);
    m_accounted = waiting;
    m_peakWaiting = std::max(m_peakWaiting, waiting);
    if (relieve && m_context.budget->over() && m_context.relieveOutbound)
        m_context.relieveOutbound();
}

void WsSession::releaseAccount()
{
    if (m_context.budget && m_accounted != 0)
        m_context.budget->add(-m_accounted);
    m_accounted = 0;
    // A megabyte or more waited in this socket: hand what it used back to the system.
    if (m_peakWaiting >= std::int64_t(OutboundBudget::kSmallAnswerBytes) && m_context.releaseMemory)
        m_context.releaseMemory();
    m_peakWaiting = 0;
}

void WsSession::dropForRelayOutbound()
{
    if (m_finished)
        return;
    m_context.metrics->increment(
        ServerMetrics::labelled("buzz_ws_disconnects_total", "reason", "relay_outbound_memory"));
    m_pingTimer.stop();
    m_socket->abort(); // emits disconnected → finished
    releaseAccount();
}

void WsSession::closeSocket()
{
    m_socket->close(QWebSocketProtocol::CloseCodeGoingAway);
}

RequestContext WsSession::requestContext() const
{
    return RequestContext {m_community, m_handshake.pubkey(), Transport::WebSocket};
}

void WsSession::send(const std::string &frame)
{
    if (m_finished || m_closing)
        return;
    if (m_outbound.offer(OutboundQueue::wireBytes(frame.size()), m_socket->bytesToWrite())
        == OutboundQueue::Verdict::Disconnect) {
        dropSlowConsumer();
        return;
    }
    m_socket->sendTextMessage(QString::fromUtf8(frame.data(), qsizetype(frame.size())));
    account(true);
}

void WsSession::checkOutbound()
{
    // QWebSocket answered the pings it just read with pongs of its own: a client that sends
    // pings and never reads is cut like one that never reads its history.
    if (!m_finished && !m_closing
        && m_outbound.check(m_socket->bytesToWrite()) == OutboundQueue::Verdict::Disconnect) {
        dropSlowConsumer();
        return;
    }
    account(true);
}

void WsSession::dropSlowConsumer()
{
    m_context.metrics->increment(
        ServerMetrics::labelled("buzz_ws_disconnects_total", "reason", "slow_consumer"));
    m_pingTimer.stop();
    m_socket->abort(); // emits disconnected → finished
}

bool WsSession::sendLiveEvent(const Subscription &subscription, const StoredEvent &stored)
{
    if (m_finished || m_closing)
        return false;
    const std::string frame = ws::eventFrame(subscription.id(), stored.json);
    switch (
        m_outbound.offerLive(OutboundQueue::wireBytes(frame.size()), m_socket->bytesToWrite())) {
    case OutboundQueue::Verdict::Send:
        m_socket->sendTextMessage(QString::fromUtf8(frame.data(), qsizetype(frame.size())));
        account(true);
        return !m_finished;
    case OutboundQueue::Verdict::Drop:
        m_context.metrics->increment("buzz_ws_live_events_dropped_total");
        return false;
    case OutboundQueue::Verdict::Disconnect:
        dropSlowConsumer();
        return false;
    }
    return false;
}

void WsSession::sendEvent(const Subscription &subscription, const StoredEvent &stored)
{
    send(ws::eventFrame(subscription.id(), stored.json));
}

void WsSession::onTextMessage(const QString &message)
{
    const QByteArray utf8 = message.toUtf8();
    handleFrame(std::string_view(utf8.constData(), std::size_t(utf8.size())));
}

void WsSession::onBinaryMessage(const QByteArray &message)
{
    // Upstream decodes binary frames as UTF-8 text.
    handleFrame(std::string_view(message.constData(), std::size_t(message.size())));
}

void WsSession::handleFrame(std::string_view text)
{
    if (m_finished || m_closing)
        return; // cut: nothing more is read or answered
    auto parsed = ws::parseClientMessage(text);
    if (!parsed) {
        m_context.metrics->increment(
            ServerMetrics::labelled("buzz_ws_messages_total", "type", "invalid"));
        send(ws::parseErrorNotice(parsed.error()));
        return;
    }
    std::visit(
        [this](auto &&message) {
            using T = std::decay_t<decltype(message)>;
            if constexpr (std::is_same_v<T, ws::AuthMessage>) {
                handleAuth(std::move(message));
            } else if constexpr (std::is_same_v<T, ws::EventMessage>) {
                handleEvent(std::move(message));
            } else if constexpr (std::is_same_v<T, ws::ReqMessage>) {
                handleReq(std::move(message));
            } else if constexpr (std::is_same_v<T, ws::CountMessage>) {
                handleCount(std::move(message));
            } else {
                handleClose(message);
            }
        },
        std::move(parsed).value());
}

void WsSession::handleAuth(ws::AuthMessage message)
{
    m_context.metrics->increment(ServerMetrics::labelled("buzz_ws_messages_total", "type", "AUTH"));
    const auto reply = m_handshake.handleAuth(message.event, m_authRelayUrl, m_context.clock(),
                                              m_context.membership);
    if (!reply.detail.empty())
        qCDebug(lcRelayWs) << "NIP-42 refused:" << QString::fromStdString(reply.detail);
    m_context.metrics->increment(
        ServerMetrics::labelled("buzz_ws_auth_total", "result", reply.accepted ? "ok" : "refused"));
    send(ws::okFrame(message.event.id, reply.accepted, reply.message));
}

void WsSession::handleEvent(ws::EventMessage message)
{
    m_context.metrics->increment(
        ServerMetrics::labelled("buzz_ws_messages_total", "type", "EVENT"));
    const nostr::Event &event = message.event;
    if (!m_handshake.isAuthenticated()) {
        send(ws::okFrame(event.id, false, "auth-required: not authenticated"));
        return;
    }
    if (event.pubkey != m_handshake.pubkey() && event.kind != nostr::kinds::kGiftWrap) {
        send(ws::okFrame(event.id, false,
                         "invalid: event pubkey does not match authenticated identity"));
        return;
    }
    if (event.kind == nostr::kinds::kAuth) {
        send(ws::okFrame(event.id, false, "invalid: AUTH events cannot be submitted via EVENT"));
        return;
    }
    auto shared = std::make_shared<const nostr::Event>(std::move(message.event));
    RelayEngine *engine = m_context.engine;
    const RequestContext context = requestContext();
    // Asynchronous: the pool thread verifies the signature and is free again while the event
    // waits for its group commit; the OK is sent once that committed.
    m_context.runOffThreadAsync<IngestResult>(
        this,
        [engine, shared, context](std::function<void(IngestResult)> reply) {
            engine->ingestAsync(shared, context, std::move(reply));
        },
        [this, id = shared->id](IngestResult result) {
            std::string message = result.message;
            if (result.status == IngestResult::Status::Internal)
                message = "error: internal server error";
            send(ws::okFrame(id, result.accepted(), message));
        });
}

void WsSession::handleReq(ws::ReqMessage message)
{
    m_context.metrics->increment(ServerMetrics::labelled("buzz_ws_messages_total", "type", "REQ"));
    if (!m_handshake.isAuthenticated()) {
        send(ws::noticeFrame("auth-required: authenticate before subscribing"));
        send(ws::closedFrame(message.subscriptionId, "auth-required: not authenticated"));
        return;
    }
    const bool replacing = m_subscriptions.count(message.subscriptionId) > 0;
    if (!replacing && m_subscriptions.size() >= ws::kMaxSubscriptions) {
        send(ws::closedFrame(message.subscriptionId, "error: too many subscriptions"));
        return;
    }
    auto subscription = std::make_shared<Subscription>(
        message.subscriptionId, std::move(message.filters), m_nextGeneration++);
    if (subscription->mixesSearchAndNonSearch()) {
        m_subscriptions.erase(subscription->id());
        send(ws::closedFrame(subscription->id(),
                             "error: mixed search and non-search filters not supported"));
        return;
    }
    // Registered before the history read so live events committed meanwhile are buffered, not lost.
    m_subscriptions[subscription->id()] = subscription;

    struct HistoryOutcome
    {
        AdmissionResult refusal;
        QueryResult history;
    };
    RelayEngine *engine = m_context.engine;
    const RequestContext context = requestContext();
    m_context.runOffThread(
        this,
        [engine, subscription, context] {
            HistoryOutcome outcome;
            outcome.refusal = engine->admitSubscription(subscription->filters(), context);
            if (!outcome.refusal)
                outcome.history =
                    engine->query(subscription->filters(), context, ReadPath::ReqHistorical);
            return outcome;
        },
        [this, subscription](HistoryOutcome outcome) {
            finishHistory(subscription, std::move(outcome.refusal), std::move(outcome.history));
        });
}

void WsSession::finishHistory(const std::shared_ptr<Subscription> &subscription,
                              AdmissionResult refusal, QueryResult history)
{
    const auto current = m_subscriptions.find(subscription->id());
    if (current == m_subscriptions.end() || current->second != subscription)
        return; // closed or replaced by a newer REQ with the same id while the history was read
    const std::optional<std::string> reason = refusal ? refusal : closedReasonFor(history);
    if (reason) {
        if (!refusal && history.status == QueryResult::Status::Retryable
            && history.message == OutboundBudget::kFullMessage) {
            m_context.metrics->increment(ServerMetrics::labelled("buzz_ws_reads_refused_total",
                                                                 "reason", "outbound_memory"));
            // The rows read before the refusal (a megabyte or more) were freed on a worker.
            if (m_context.releaseMemory)
                m_context.releaseMemory();
        }
        m_subscriptions.erase(current);
        send(ws::closedFrame(subscription->id(), *reason));
        return;
    }
    // A large history is freed when this returns: its memory goes back to the system soon.
    if (history.hold && history.hold->bytes() >= OutboundBudget::kSmallAnswerBytes
        && m_context.releaseMemory)
        m_context.releaseMemory();
    std::unordered_set<std::string> sentIds;
    sentIds.reserve(history.events.size());
    for (const StoredEvent &stored : history.events) {
        if (m_finished)
            return; // cut as a slow consumer while the history went out
        if (sentIds.insert(stored.event.id).second)
            sendEvent(*subscription, stored);
    }
    send(ws::eoseFrame(subscription->id(), history.routeDescription()));
    m_context.metrics->increment("buzz_ws_history_events_sent_total", sentIds.size());
    if (subscription->isSearch()) {
        m_subscriptions.erase(subscription->id()); // NIP-50 REQs are one-shot: never live
        return;
    }
    for (const auto &stored : subscription->finishHistory(sentIds))
        sendEvent(*subscription, *stored);
}

void WsSession::handleCount(ws::CountMessage message)
{
    m_context.metrics->increment(
        ServerMetrics::labelled("buzz_ws_messages_total", "type", "COUNT"));
    if (!m_handshake.isAuthenticated()) {
        send(ws::closedFrame(message.subscriptionId, "auth-required: not authenticated"));
        return;
    }
    auto filters = std::make_shared<const std::vector<nostr::Filter>>(std::move(message.filters));
    RelayEngine *engine = m_context.engine;
    const RequestContext context = requestContext();
    m_context.runOffThread(
        this,
        [engine, filters, context] { return engine->count(*filters, context, ReadPath::CountReq); },
        [this, id = message.subscriptionId](QueryResult result) {
            if (result.status == QueryResult::Status::Internal) {
                send(ws::closedFrame(id, "error: internal server error"));
                return;
            }
            if (const auto reason = closedReasonFor(result)) {
                send(ws::closedFrame(id, *reason));
                return;
            }
            send(ws::countFrame(id, result.count));
        });
}

void WsSession::handleClose(const ws::CloseMessage &message)
{
    m_context.metrics->increment(
        ServerMetrics::labelled("buzz_ws_messages_total", "type", "CLOSE"));
    m_subscriptions.erase(message.subscriptionId);
    send(ws::closedFrame(message.subscriptionId, ""));
}

bool WsSession::subscribesTo(const std::string &channel) const
{
    if (!m_handshake.isAuthenticated())
        return false;
    for (const auto &[id, subscription] : m_subscriptions) {
        const auto &scope = subscription->channelScope();
        if (scope && lowered(*scope) == channel)
            return true;
    }
    return false;
}

void WsSession::revokeChannel(const std::string &channel)
{
    for (auto it = m_subscriptions.begin(); it != m_subscriptions.end();) {
        const auto &scope = it->second->channelScope();
        if (scope && lowered(*scope) == channel) {
            const std::string id = it->first;
            it = m_subscriptions.erase(it);
            m_context.metrics->increment("buzz_ws_subscriptions_revoked_total");
            send(ws::closedFrame(id, "restricted: channel access revoked"));
        } else {
            ++it;
        }
    }
}

bool WsSession::wantsLive(const StoredEvent &stored) const
{
    if (!m_handshake.isAuthenticated() || stored.community != m_community)
        return false;
    for (const auto &[id, subscription] : m_subscriptions) {
        if (subscription->acceptsLive(stored))
            return true;
    }
    return false;
}

void WsSession::deliverLive(const std::shared_ptr<const StoredEvent> &stored)
{
    if (stored->community != m_community)
        return;
    for (const auto &[id, subscription] : m_subscriptions) {
        if (!subscription->acceptsLive(*stored))
            continue;
        if (subscription->isLoadingHistory()) {
            subscription->bufferWhileLoading(stored);
        } else if (sendLiveEvent(*subscription, *stored)) {
            m_context.metrics->increment("buzz_ws_live_events_sent_total");
        } else if (m_finished) {
            return; // cut as a slow consumer
        }
    }
}

} // namespace buzz::relay
