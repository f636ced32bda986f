#include "net/client/RelaySocket.h"

#include "net/client/EventVerifier.h"
#include "net/client/RequestLog.h"
#include "net/client/Signer.h"
#include "net/nostr/Nip42.h"
#include "net/nostr/RelayUrl.h"

#include <QLoggingCategory>
#include <QWebSocket>

#include <nlohmann/json.hpp>

#include <algorithm>

Q_LOGGING_CATEGORY(lcSocket, "buzz.client.socket")

namespace buzz::client {

namespace {

using std::chrono::milliseconds;

QByteArray frame(const nlohmann::json &message)
{
    return QByteArray::fromStdString(message.dump());
}

} // namespace

RelaySocket::RelaySocket(const QUrl &relayUrl, Signer *signer, RequestLog *log, QObject *parent)
    : QObject(parent)
    , m_signer(signer)
    , m_log(log)
{
    m_wsUrl =
        QUrl(QString::fromStdString(nostr::wsUrlFromHttpBase(relayUrl.toString().toStdString())));
    m_clock.start();
    m_reconnectTimer.setSingleShot(true);
    connect(&m_reconnectTimer, &QTimer::timeout, this, &RelaySocket::connectSocket);
    m_connectTimer.setSingleShot(true);
    connect(&m_connectTimer, &QTimer::timeout, this, [this] {
        // No handshake, challenge or OK in time: an ordinary (retryable) failure, unlike a
        // rejection.
        onConnectionLost(QStringLiteral("the relay did not complete the connection in time"));
    });
    connect(&m_keepAlive, &QTimer::timeout, this, &RelaySocket::onKeepAlive);
    m_probeTimer.setSingleShot(true);
    connect(&m_probeTimer, &QTimer::timeout, this, [this] {
        if (m_state == State::Connected && m_lastFrameMs < m_probeStartedMs)
            becomeStalled(QStringLiteral("the relay stopped answering"));
    });
    m_resubscribeTimer.setSingleShot(true);
    connect(&m_resubscribeTimer, &QTimer::timeout, this, &RelaySocket::sendDueResubscriptions);
    if (m_signer)
        connect(m_signer, &Signer::keyChanged, this, &RelaySocket::onKeyChanged);
}

RelaySocket::~RelaySocket()
{
    m_wanted = false;
    disposeSocket();
}

void RelaySocket::setTiming(Timing timing)
{
    m_timing = timing;
    m_nextBackoff = std::clamp(m_nextBackoff, m_timing.initialBackoff, m_timing.maxBackoff);
    if (m_keepAlive.isActive())
        m_keepAlive.start(m_timing.pingInterval);
    if (m_reconnectTimer.isActive())
        m_reconnectTimer.start(
            std::min(milliseconds(m_reconnectTimer.remainingTime()), m_timing.initialBackoff));
}

void RelaySocket::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(state);
}

void RelaySocket::setSubscriptionState(const QString &id, Subscription &subscription,
                                       SubscriptionState state)
{
    if (subscription.state == state)
        return;
    subscription.state = state;
    emit subscriptionStateChanged(id, state); // may unsubscribe: `subscription` is not used after
}

milliseconds RelaySocket::nextAttemptIn() const
{
    if (m_state != State::Reconnecting || !m_reconnectTimer.isActive())
        return milliseconds(0);
    return milliseconds(std::max(0, m_reconnectTimer.remainingTime()));
}

milliseconds RelaySocket::silentFor() const
{
    return m_socket ? milliseconds(nowMs() - m_lastFrameMs) : milliseconds(0);
}

void RelaySocket::open()
{
    if (m_wanted)
        return;
    m_wanted = true;
    m_nextBackoff = m_timing.initialBackoff;
    connectSocket();
}

void RelaySocket::close()
{
    m_wanted = false;
    m_reconnectTimer.stop();
    m_resubscribeTimer.stop();
    disposeSocket();
    suspendSubscriptions();
    setState(State::Idle);
}

void RelaySocket::reconnectNow()
{
    m_wanted = true;
    m_reconnectTimer.stop();
    m_nextBackoff = m_timing.initialBackoff;
    disposeSocket();
    suspendSubscriptions();
    connectSocket();
}

void RelaySocket::probe()
{
    if (m_state != State::Connected || !m_socket || m_probeTimer.isActive())
        return;
    m_probeStartedMs = nowMs();
    m_socket->ping();
    m_probeTimer.start(m_timing.probeTimeout);
}

void RelaySocket::connectSocket()
{
    if (!m_wanted)
        return;
    disposeSocket();
    m_socket = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, this);
    // Qt checks each frame's announced length before reading it, and the message as it grows.
    m_socket->setMaxAllowedIncomingFrameSize(kMaxMessageBytes);
    m_socket->setMaxAllowedIncomingMessageSize(kMaxMessageBytes);
    ++m_connectionSerial;
    connect(m_socket, &QWebSocket::connected, this, [this] { m_lastFrameMs = nowMs(); });
    connect(m_socket, &QWebSocket::disconnected, this, [this] {
        if (m_socket->closeCode() == QWebSocketProtocol::CloseCodeTooMuchData)
            onConnectionLost(QStringLiteral("the relay sent a message over %1 MiB, the client's "
                                            "limit")
                                 .arg(kMaxMessageBytes >> 20),
                             true);
        else
            onConnectionLost(
                m_state == State::Connecting
                    ? QStringLiteral("could not connect (%1)").arg(m_socket->errorString())
                    : QStringLiteral("the connection was lost"));
    });
    connect(m_socket, &QWebSocket::textMessageReceived, this, &RelaySocket::onTextMessage);
    connect(m_socket, &QWebSocket::pong, this, &RelaySocket::onFrame);
    m_pendingAuthId.clear();
    m_authenticatedAs.clear();
    setState(State::Connecting);
    m_lastFrameMs = nowMs();
    m_connectTimer.start(m_timing.connectTimeout);
    m_socket->open(m_wsUrl); // the relay speaks first: ["AUTH", challenge]
}

void RelaySocket::disposeSocket()
{
    m_connectTimer.stop();
    m_keepAlive.stop();
    m_probeTimer.stop();
    if (!m_socket)
        return;
    QWebSocket *socket = std::exchange(m_socket, nullptr);
    socket->disconnect(this);
    socket->flush(); // what was sent last ("offline" as the app quits) still goes out
    socket->abort();
    socket->deleteLater();
}

void RelaySocket::suspendSubscriptions()
{
    // Nothing is live without a connection; whatever was sent must be caught up on later.
    const QStringList ids = m_subscriptions.keys();
    for (const QString &id : ids) {
        auto it = m_subscriptions.find(id);
        if (it == m_subscriptions.end())
            continue;
        it->gap = it->gap || it->sent;
        setSubscriptionState(id, *it, SubscriptionState::Pending);
    }
}

void RelaySocket::onConnectionLost(const QString &reason, bool relayFault)
{
    const State was = m_state;
    disposeSocket();
    m_authenticatedAs.clear();
    suspendSubscriptions();
    if (!m_wanted) {
        setState(State::Idle);
        return;
    }
    if (was == State::AuthRejected)
        return;
    m_troubleSinceConnected = true;
    if (was == State::Connecting)
        ++m_failedAttempts;
    m_lastError = reason;
    m_lastErrorIsRelays = relayFault;
    qCInfo(lcSocket) << "relay connection:" << reason << "- retrying in" << m_nextBackoff.count()
                     << "ms";
    setState(State::Reconnecting);
    m_reconnectTimer.start(m_nextBackoff);
    m_nextBackoff = std::min(m_nextBackoff * 2, m_timing.maxBackoff);
}

void RelaySocket::onFrame()
{
    m_lastFrameMs = nowMs();
    if (m_state != State::Stalled)
        return;
    m_lastError.clear();
    m_troubleSinceConnected = false;
    setState(State::Connected);
    emit recovered();
}

void RelaySocket::onKeepAlive()
{
    if (!m_socket)
        return;
    const qint64 silent = nowMs() - m_lastFrameMs;
    if (m_state == State::Stalled
        && silent >= (m_timing.stallAfter + m_timing.reconnectAfterStall).count()) {
        onConnectionLost(QStringLiteral("the relay stopped answering"));
        return;
    }
    if (m_state == State::Connected && silent >= m_timing.stallAfter.count())
        becomeStalled(QStringLiteral("the relay stopped answering"));
    m_socket->ping();
}

void RelaySocket::onKeyChanged()
{
    // The relay refuses a second AUTH on one connection: a new identity needs a new connection.
    // While waiting to reconnect there is nothing to do: the next attempt signs with the new key.
    if (!m_wanted || m_state == State::Reconnecting)
        return;
    qCInfo(lcSocket) << "identity changed: reconnecting to authenticate with the new key";
    reconnectNow();
}

void RelaySocket::becomeStalled(const QString &reason)
{
    qCInfo(lcSocket) << "no frame for" << nowMs() - m_lastFrameMs << "ms: connection stalled";
    m_lastError = reason;
    m_lastErrorIsRelays = false;
    m_troubleSinceConnected = true;
    setState(State::Stalled);
}

void RelaySocket::sendJson(const QByteArray &json)
{
    if (m_socket)
        m_socket->sendTextMessage(QString::fromUtf8(json));
}

void RelaySocket::handleAuthChallenge(const QString &challenge)
{
    const auto key = m_signer ? m_signer->key() : nullptr;
    if (!key) {
        rejectAuth(QStringLiteral("no identity configured"));
        return;
    }
    const nostr::Event auth =
        nostr::nip42::buildAuthEvent(*key, m_wsUrl.toString().toStdString(),
                                     challenge.toStdString(), QDateTime::currentSecsSinceEpoch());
    m_pendingAuthId = QString::fromStdString(auth.id);
    m_pendingAuthAs = QString::fromStdString(key->publicKeyHex());
    if (m_log) {
        RequestLogEntry entry;
        entry.startedAt = m_authSentAt = QDateTime::currentDateTimeUtc();
        m_authSentAtMs = nowMs();
        entry.caller = QStringLiteral("auth");
        entry.method = QStringLiteral("WS AUTH");
        entry.read = false;
        entry.detail =
            QStringLiteral("NIP-42 event %1 as %2").arg(m_pendingAuthId, m_pendingAuthAs);
        m_authLogSequence = m_log->begin(entry);
    }
    sendJson(frame(nlohmann::json::array({"AUTH", auth.toJsonValue()})));
}

bool RelaySocket::sendEvent(const nostr::Event &event, const QString &caller)
{
    if (!m_socket || (m_state != State::Connected && m_state != State::Stalled))
        return false;
    sendJson(frame(nlohmann::json::array({"EVENT", event.toJsonValue()})));
    logFrame(
        QStringLiteral("WS EVENT"), caller, QStringLiteral("sent"),
        QStringLiteral("event %1 kind %2").arg(QString::fromStdString(event.id)).arg(event.kind));
    return true;
}

void RelaySocket::handleOk(const QString &eventId, bool accepted, const QString &message)
{
    if (eventId.isEmpty() || eventId != m_pendingAuthId) {
        emit eventAnswered(eventId, accepted, message); // a sendEvent's OK
        return;
    }
    if (m_log) {
        RequestLogEntry entry;
        entry.sequence = std::exchange(m_authLogSequence, 0);
        entry.startedAt = m_authSentAt;
        entry.caller = QStringLiteral("auth");
        entry.method = QStringLiteral("WS AUTH");
        entry.read = false;
        entry.status = accepted ? QStringLiteral("ok") : QStringLiteral("auth");
        entry.errorDetail = message;
        entry.latencyMs = double(nowMs() - m_authSentAtMs);
        entry.detail =
            QStringLiteral("NIP-42 event %1 as %2").arg(m_pendingAuthId, m_pendingAuthAs);
        m_log->append(entry);
    }
    m_pendingAuthId.clear();
    if (m_state == State::Connected || m_state == State::Stalled) {
        // A later challenge on a connection that is signed in already: its refusal ("already
        // authenticated") says nothing about the identity the connection carries.
        if (!accepted)
            qCInfo(lcSocket) << "relay refused a repeated AUTH:" << message;
        return;
    }
    if (accepted)
        becomeConnected();
    else
        rejectAuth(message);
}

void RelaySocket::rejectAuth(const QString &reason)
{
    // Terminal until the user acts or the key changes: reconnecting would be rejected again.
    qCInfo(lcSocket) << "relay refused authentication:" << reason;
    m_reconnectTimer.stop();
    m_lastError = reason;
    m_troubleSinceConnected = true;
    ++m_failedAttempts;
    disposeSocket();
    suspendSubscriptions();
    setState(State::AuthRejected);
}

void RelaySocket::becomeConnected()
{
    m_connectTimer.stop();
    m_nextBackoff = m_timing.initialBackoff;
    m_failedAttempts = 0;
    m_lastError.clear();
    m_authenticatedAs = m_pendingAuthAs;
    const bool recovering = std::exchange(m_troubleSinceConnected, false);
    m_keepAlive.start(m_timing.pingInterval);
    setState(State::Connected);
    // A slot may have subscribed (and sent) already; each subscription goes out once.
    const QStringList ids = m_subscriptions.keys();
    for (const QString &id : ids) {
        auto it = m_subscriptions.find(id);
        if (it != m_subscriptions.end() && it->sentOnConnection != m_connectionSerial)
            sendReq(id, *it);
    }
    if (recovering && m_state == State::Connected)
        emit recovered();
}

void RelaySocket::sendReq(const QString &id, Subscription &subscription)
{
    if (subscription.logSequence != 0) // the previous REQ never got its EOSE or CLOSED
        logReq(subscription, QStringLiteral("network"),
               QStringLiteral("no answer before the REQ was sent again"));
    const QByteArray message = subscription.reqFrame(id);
    subscription.sent = true;
    subscription.sentOnConnection = m_connectionSerial;
    subscription.sentAt = QDateTime::currentDateTimeUtc();
    subscription.sentAtMs = nowMs();
    if (m_log) {
        RequestLogEntry entry;
        entry.startedAt = subscription.sentAt;
        entry.caller = subscription.caller;
        entry.method = QStringLiteral("WS REQ");
        entry.strong = subscription.isStrong();
        entry.detail = QString::fromUtf8(message);
        subscription.logSequence = m_log->begin(entry);
    }
    sendJson(message);
    setSubscriptionState(id, subscription, SubscriptionState::Pending);
}

void RelaySocket::sendDueResubscriptions()
{
    if (!m_socket || (m_state != State::Connected && m_state != State::Stalled))
        return; // the next connection sends every subscription anyway
    const qint64 now = nowMs();
    const QStringList ids = m_subscriptions.keys();
    for (const QString &id : ids) {
        auto it = m_subscriptions.find(id);
        if (it != m_subscriptions.end() && it->state == SubscriptionState::Resubscribing
            && it->resubscribeAtMs <= now)
            sendReq(id, *it);
    }
    scheduleResubscriptions();
}

void RelaySocket::scheduleResubscriptions()
{
    std::optional<qint64> earliest;
    for (const Subscription &subscription : std::as_const(m_subscriptions)) {
        if (subscription.state == SubscriptionState::Resubscribing)
            earliest = std::min(earliest.value_or(subscription.resubscribeAtMs),
                                subscription.resubscribeAtMs);
    }
    if (earliest)
        m_resubscribeTimer.start(milliseconds(std::max<qint64>(0, *earliest - nowMs())));
    else
        m_resubscribeTimer.stop();
}

QString RelaySocket::subscribe(std::vector<nostr::Filter> filters, const QString &caller)
{
    const QString id = QStringLiteral("sub%1").arg(m_nextId++);
    Subscription subscription;
    subscription.filters = std::move(filters);
    subscription.caller = caller;
    subscription.nextBackoff = m_timing.initialBackoff;
    auto it = m_subscriptions.insert(id, std::move(subscription));
    if (m_socket && (m_state == State::Connected || m_state == State::Stalled))
        sendReq(id, *it);
    return id;
}

void RelaySocket::unsubscribe(const QString &subscriptionId)
{
    const auto it = m_subscriptions.constFind(subscriptionId);
    if (it == m_subscriptions.constEnd())
        return;
    const QString caller = it->caller;
    m_subscriptions.remove(subscriptionId);
    if (m_socket && (m_state == State::Connected || m_state == State::Stalled)) {
        logFrame(QStringLiteral("WS CLOSE"), caller, QStringLiteral("sent"), subscriptionId);
        sendJson(frame(nlohmann::json::array({"CLOSE", subscriptionId.toStdString()})));
    }
}

RelaySocket::SubscriptionState RelaySocket::subscriptionState(const QString &subscriptionId) const
{
    const auto it = m_subscriptions.constFind(subscriptionId);
    return it == m_subscriptions.constEnd() ? SubscriptionState::Refused : it->state;
}

QString RelaySocket::subscriptionError(const QString &subscriptionId) const
{
    const auto it = m_subscriptions.constFind(subscriptionId);
    return it == m_subscriptions.constEnd() ? QString() : it->closedReason;
}

milliseconds RelaySocket::resubscribeIn(const QString &subscriptionId) const
{
    const auto it = m_subscriptions.constFind(subscriptionId);
    if (it == m_subscriptions.constEnd() || it->state != SubscriptionState::Resubscribing)
        return milliseconds(0);
    return milliseconds(std::max<qint64>(0, it->resubscribeAtMs - nowMs()));
}

void RelaySocket::handleEndOfStoredEvents(const QString &id, const QString &route)
{
    auto it = m_subscriptions.find(id);
    if (it == m_subscriptions.end() || it->state != SubscriptionState::Pending)
        return;
    logReq(*it, QStringLiteral("ok"), {}, route);
    it->nextBackoff = m_timing.initialBackoff;
    it->closedReason.clear();
    const bool resynced = std::exchange(it->gap, false);
    setSubscriptionState(id, *it, SubscriptionState::Live);
    if (resynced && m_subscriptions.contains(id))
        emit subscriptionResynced(id);
}

void RelaySocket::handleClosed(const QString &id, const QString &reason)
{
    auto it = m_subscriptions.find(id);
    if (it == m_subscriptions.end())
        return;
    logReq(*it, Subscription::closedStatus(reason), reason);
    it->closedReason = reason;
    it->gap = true;
    if (Subscription::isPermanentRefusal(reason)) {
        qCInfo(lcSocket) << "relay refused subscription" << id << ":" << reason;
        setSubscriptionState(id, *it, SubscriptionState::Refused);
        return;
    }
    it->resubscribeAtMs = nowMs() + it->nextBackoff.count();
    qCInfo(lcSocket) << "relay closed subscription" << id << ":" << reason << "- resubscribing in"
                     << it->nextBackoff.count() << "ms";
    it->nextBackoff = std::min(it->nextBackoff * 2, m_timing.maxBackoff);
    setSubscriptionState(id, *it, SubscriptionState::Resubscribing);
    scheduleResubscriptions();
}

void RelaySocket::logFrame(const QString &method, const QString &caller, const QString &status,
                           const QString &detail, const QString &droppedReason)
{
    if (m_log)
        m_log->appendFrame(method, caller, status, detail, droppedReason);
}

void RelaySocket::logReq(Subscription &subscription, const QString &status, const QString &error,
                         const QString &route)
{
    if (!m_log)
        return;
    RequestLogEntry entry;
    entry.sequence = std::exchange(subscription.logSequence, 0);
    entry.detail = QString::fromUtf8(subscription.reqFrame(QStringLiteral("…")));
    entry.startedAt = subscription.sentAt;
    entry.caller = subscription.caller;
    entry.method = QStringLiteral("WS REQ");
    entry.strong = subscription.isStrong();
    entry.status = status;
    entry.errorDetail = error;
    entry.route = route;
    entry.latencyMs = static_cast<double>(nowMs() - subscription.sentAtMs);
    m_log->append(entry);
}

void RelaySocket::onTextMessage(const QString &text)
{
    onFrame();
    const QByteArray utf8 = text.toUtf8();
    nlohmann::json message =
        nlohmann::json::parse(utf8.constBegin(), utf8.constEnd(), nullptr, false);
    if (!message.is_array() || message.empty() || !message[0].is_string()) {
        qCDebug(lcSocket) << "ignoring malformed frame";
        return;
    }
    const std::string type = message[0].get<std::string>();
    auto str = [&](std::size_t index) {
        return index < message.size() && message[index].is_string()
            ? QString::fromStdString(message[index].get<std::string>())
            : QString();
    };
    if (type == "EVENT" && message.size() >= 3) {
        const QString id = str(1);
        auto event = nostr::Event::fromJson(message[2]);
        if (!event) {
            qCDebug(lcSocket) << "malformed event:" << QString::fromStdString(event.error());
            return;
        }
        auto it = m_subscriptions.find(id);
        if (it == m_subscriptions.end())
            return;
        const QString detail = QStringLiteral("event %1 kind %2 on %3")
                                   .arg(QString::fromStdString(event->id))
                                   .arg(event->kind)
                                   .arg(id);
        // Verified before anything else sees it, once: the subscription's filters are what
        // was asked for (a relay may send anything on any subscription id).
        if (auto problem = EventVerifier::problem(*event, it->filters, m_relayKey)) {
            logFrame(QStringLiteral("WS EVENT"), it->caller, QStringLiteral("dropped"), detail,
                     *problem);
            return;
        }
        if (it->acceptEvent(*event)) {
            logFrame(QStringLiteral("WS EVENT"), it->caller, QStringLiteral("received"), detail);
            emit eventReceived(id, *event);
        }
    } else if (type == "EOSE") {
        handleEndOfStoredEvents(str(1), RelaySubscription::eoseRoute(message));
    } else if (type == "CLOSED") {
        handleClosed(str(1), str(2));
    } else if (type == "OK" && message.size() >= 4) {
        handleOk(str(1), message[2].is_boolean() && message[2].get<bool>(), str(3));
    } else if (type == "AUTH") {
        handleAuthChallenge(str(1));
    } else if (type == "NOTICE") {
        qCInfo(lcSocket) << "relay notice:" << str(1);
        logFrame(QStringLiteral("WS NOTICE"), QStringLiteral("relay"), QStringLiteral("received"),
                 str(1));
    }
}

} // namespace buzz::client
