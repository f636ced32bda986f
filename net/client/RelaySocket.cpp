#include "net/client/RelaySocket.h"

#include "net/client/RequestLog.h"
#include "net/nostr/Nip42.h"
#include "net/nostr/RelayUrl.h"

#include <QCoroSignal>
#include <QDateTime>
#include <QLoggingCategory>
#include <QWebSocket>

#include <nlohmann/json.hpp>

Q_LOGGING_CATEGORY(lcSocket, "buzz.client.socket")

namespace buzz::client {

namespace {

constexpr qint64 kResubscribeOverlapSecs = 5;

QByteArray frame(const nlohmann::json &message)
{
    return QByteArray::fromStdString(message.dump());
}

bool anyStrong(const std::vector<nostr::Filter> &filters)
{
    for (const auto &filter : filters) {
        if (filter.isStrong())
            return true;
    }
    return false;
}

} // namespace

RelaySocket::RelaySocket(const QUrl &relayUrl, RequestLog *log, QObject *parent)
    : QObject(parent)
    , m_log(log)
{
    m_wsUrl =
        QUrl(QString::fromStdString(nostr::wsUrlFromHttpBase(relayUrl.toString().toStdString())));
    m_reconnectTimer.setSingleShot(true);
    connect(&m_reconnectTimer, &QTimer::timeout, this, &RelaySocket::connectSocket);
    connect(&m_watchdog, &QTimer::timeout, this, &RelaySocket::onWatchdog);
    m_authTimer.setSingleShot(true);
    connect(&m_authTimer, &QTimer::timeout, this, [this] {
        // No challenge or no OK in time: an ordinary (retryable) failure, unlike a rejection.
        m_lastError = QStringLiteral("authentication timed out");
        if (m_socket)
            m_socket->abort();
    });
    // Keep-alive pings so a quiet but healthy connection keeps producing inbound frames (pongs);
    // the watchdog itself stays passive.
    connect(&m_keepAlive, &QTimer::timeout, this, [this] {
        if (m_socket && m_socket->state() == QAbstractSocket::ConnectedState)
            m_socket->ping();
    });
}

RelaySocket::~RelaySocket()
{
    m_wanted = false;
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
}

void RelaySocket::setSecretKey(std::shared_ptr<const nostr::SecretKey> key)
{
    m_key = std::move(key);
}

void RelaySocket::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(state);
}

void RelaySocket::open()
{
    if (m_wanted && m_state != State::Disconnected)
        return;
    m_wanted = true;
    m_nextBackoff = m_timing.initialBackoff;
    connectSocket();
}

void RelaySocket::close()
{
    m_wanted = false;
    m_reconnectTimer.stop();
    m_watchdog.stop();
    m_keepAlive.stop();
    m_authTimer.stop();
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->close();
        m_socket->deleteLater();
        m_socket = nullptr;
    }
    setState(State::Disconnected);
}

void RelaySocket::reconnectNow()
{
    m_wanted = true;
    m_reconnectTimer.stop();
    m_nextBackoff = m_timing.initialBackoff;
    m_lastError.clear();
    connectSocket();
}

void RelaySocket::connectSocket()
{
    if (!m_wanted)
        return;
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
        m_socket->deleteLater();
    }
    m_socket = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, this);
    connect(m_socket, &QWebSocket::connected, this, &RelaySocket::onConnected);
    connect(m_socket, &QWebSocket::disconnected, this, &RelaySocket::onDisconnected);
    connect(m_socket, &QWebSocket::textMessageReceived, this, &RelaySocket::onTextMessage);
    connect(m_socket, &QWebSocket::pong, this, [this] { m_sinceLastFrame.restart(); });
    for (auto it = m_subscriptions.begin(); it != m_subscriptions.end(); ++it)
        it->sentSinceConnect = false;
    m_pendingAuthId.clear();
    setState(State::Connecting);
    m_sinceLastFrame.start();
    m_authTimer.start(m_timing.authTimeout);
    m_socket->open(m_wsUrl);
}

void RelaySocket::scheduleReconnect()
{
    if (!m_wanted || m_state == State::AuthRejected)
        return;
    setState(State::Backoff);
    m_reconnectTimer.start(m_nextBackoff);
    m_nextBackoff = std::min(m_nextBackoff * 2, m_timing.maxBackoff);
}

void RelaySocket::onConnected()
{
    m_sinceLastFrame.restart();
    m_watchdog.start(m_timing.watchdogInterval);
    m_keepAlive.start(std::max<std::chrono::milliseconds>(m_timing.stallAfter / 3,
                                                          std::chrono::milliseconds(50)));
    setState(State::Authenticating); // the relay speaks first: ["AUTH", challenge]
}

void RelaySocket::onDisconnected()
{
    m_watchdog.stop();
    m_keepAlive.stop();
    m_authTimer.stop();
    if (m_socket)
        m_lastError = m_lastError.isEmpty() ? m_socket->errorString() : m_lastError;
    // One-shot reads cannot survive a reconnect: fail them now.
    for (auto it = m_subscriptions.begin(); it != m_subscriptions.end(); ++it) {
        if (it->oneShot && !it->finished) {
            it->finished = true;
            it->closedReason = QStringLiteral("connection lost");
            emit oneShotFinished(it.key());
        }
    }
    if (m_state == State::AuthRejected || !m_wanted) {
        if (!m_wanted)
            setState(State::Disconnected);
        return;
    }
    scheduleReconnect();
}

void RelaySocket::onWatchdog()
{
    if (!m_socket || m_state == State::Backoff || m_state == State::AuthRejected)
        return;
    if (m_sinceLastFrame.elapsed() < m_timing.stallAfter.count())
        return;
    qCInfo(lcSocket) << "no frame for" << m_sinceLastFrame.elapsed()
                     << "ms: connection stalled, reconnecting";
    m_lastError = QStringLiteral("connection stalled");
    setState(State::Stalled);
    m_socket->abort(); // → disconnected → backoff → reconnect
}

void RelaySocket::sendJson(const QByteArray &json)
{
    if (m_socket)
        m_socket->sendTextMessage(QString::fromUtf8(json));
}

void RelaySocket::handleAuthChallenge(const QString &challenge)
{
    if (!m_key) {
        m_lastError = QStringLiteral("no identity configured");
        setState(State::AuthRejected);
        emit authRejected(m_lastError);
        m_socket->close();
        return;
    }
    const nostr::Event auth =
        nostr::nip42::buildAuthEvent(*m_key, m_wsUrl.toString().toStdString(),
                                     challenge.toStdString(), QDateTime::currentSecsSinceEpoch());
    m_pendingAuthId = QString::fromStdString(auth.id);
    setState(State::Authenticating);
    sendJson(frame(nlohmann::json::array({"AUTH", auth.toJsonValue()})));
}

void RelaySocket::handleOk(const QString &eventId, bool accepted, const QString &message)
{
    if (eventId != m_pendingAuthId)
        return;
    m_pendingAuthId.clear();
    m_authTimer.stop();
    if (accepted) {
        becomeConnected();
        return;
    }
    // Terminal until the user acts: reconnecting would only be rejected again.
    m_lastError = message;
    setState(State::AuthRejected);
    emit authRejected(message);
    m_reconnectTimer.stop();
    m_socket->close();
}

void RelaySocket::becomeConnected()
{
    m_nextBackoff = m_timing.initialBackoff;
    m_lastError.clear();
    setState(State::Connected);
    emit authenticated(m_key ? QString::fromStdString(m_key->publicKeyHex()) : QString());
    for (auto it = m_subscriptions.begin(); it != m_subscriptions.end(); ++it) {
        if (!it->finished)
            sendReq(it.key(), *it);
    }
}

void RelaySocket::sendReq(const QString &id, Subscription &subscription)
{
    nlohmann::json message =
        nlohmann::json::array({subscription.isCount ? "COUNT" : "REQ", id.toStdString()});
    for (nostr::Filter filter : subscription.filters) {
        // Resubscribing after a reconnect: ask only for what we may have missed, with overlap.
        if (subscription.lastSeenCreatedAt > 0) {
            const qint64 since = subscription.lastSeenCreatedAt - kResubscribeOverlapSecs;
            if (!filter.since || *filter.since < since)
                filter.since = since;
        }
        message.push_back(filter.toJsonValue());
    }
    subscription.sentSinceConnect = true;
    subscription.sentAtNs = QDateTime::currentMSecsSinceEpoch() * 1000000;
    sendJson(frame(message));
}

QString RelaySocket::subscribe(std::vector<nostr::Filter> filters, const QString &caller)
{
    const QString id = QStringLiteral("sub%1").arg(m_nextId++);
    Subscription subscription;
    subscription.filters = std::move(filters);
    subscription.caller = caller;
    auto it = m_subscriptions.insert(id, std::move(subscription));
    if (m_state == State::Connected)
        sendReq(id, *it);
    return id;
}

void RelaySocket::unsubscribe(const QString &subscriptionId)
{
    if (m_subscriptions.remove(subscriptionId) && m_state == State::Connected)
        sendJson(frame(nlohmann::json::array({"CLOSE", subscriptionId.toStdString()})));
}

void RelaySocket::logOneShot(const QString &id, const Subscription &subscription,
                             const QString &status, const QString &error)
{
    Q_UNUSED(id)
    if (!m_log)
        return;
    RequestLogEntry entry;
    entry.startedAt = QDateTime::fromMSecsSinceEpoch(subscription.sentAtNs / 1000000, Qt::UTC);
    entry.caller = subscription.caller;
    entry.method = subscription.isCount ? QStringLiteral("WS COUNT") : QStringLiteral("WS REQ");
    entry.strong = anyStrong(subscription.filters);
    entry.status = status;
    entry.errorDetail = error;
    entry.latencyMs = subscription.sentAtNs == 0
        ? 0
        : static_cast<double>(QDateTime::currentMSecsSinceEpoch() * 1000000 - subscription.sentAtNs)
            / 1e6;
    m_log->append(entry);
}

QCoro::Task<bool> RelaySocket::waitOneShot(QString id, std::chrono::milliseconds timeout)
{
    QElapsedTimer elapsed;
    elapsed.start();
    while (true) {
        auto it = m_subscriptions.find(id);
        if (it == m_subscriptions.end())
            co_return false;
        if (it->finished)
            co_return true;
        const auto left = timeout - std::chrono::milliseconds(elapsed.elapsed());
        if (left.count() <= 0)
            co_return false;
        co_await qCoro(this, &RelaySocket::oneShotFinished, left);
    }
}

QCoro::Task<Result<std::vector<nostr::Event>>>
RelaySocket::fetch(std::vector<nostr::Filter> filters, QString caller,
                   std::chrono::milliseconds timeout)
{
    if (m_state != State::Connected)
        co_return fail(
            RelayError::make(RelayError::Kind::Network, QStringLiteral("not connected"),
                             QStringLiteral("relay unreachable: could not connect to relay")));
    const QString id = QStringLiteral("q%1").arg(m_nextId++);
    Subscription subscription;
    subscription.filters = std::move(filters);
    subscription.caller = caller;
    subscription.oneShot = true;
    auto it = m_subscriptions.insert(id, std::move(subscription));
    sendReq(id, *it);
    const bool finished = co_await waitOneShot(id, timeout);
    Subscription done = m_subscriptions.take(id);
    if (!finished) {
        if (m_state == State::Connected)
            sendJson(frame(nlohmann::json::array({"CLOSE", id.toStdString()})));
        logOneShot(id, done, QStringLiteral("timeout"),
                   QStringLiteral("relay unreachable: request timed out"));
        co_return fail(RelayError::make(RelayError::Kind::Timeout,
                                        QStringLiteral("request timed out"),
                                        QStringLiteral("relay unreachable: request timed out")));
    }
    if (done.closedReason) {
        const bool timedOut = done.closedReason->contains(QLatin1String("query timed out"));
        const bool lost = *done.closedReason == QLatin1String("connection lost");
        RelayError error = RelayError::make(
            lost ? RelayError::Kind::Network
                 : (timedOut ? RelayError::Kind::Retryable : RelayError::Kind::BadRequest),
            *done.closedReason,
            lost ? QStringLiteral("relay unreachable: network error") : *done.closedReason);
        if (done.closedReason->startsWith(QLatin1String("auth-required"))
            || done.closedReason->startsWith(QLatin1String("restricted")))
            error.kind = RelayError::Kind::Auth;
        logOneShot(id, done, error.kindName(), error.detail);
        co_return fail(error);
    }
    sendJson(frame(nlohmann::json::array({"CLOSE", id.toStdString()})));
    logOneShot(id, done, QStringLiteral("ok"), {});
    co_return std::move(done.events);
}

QCoro::Task<Result<qint64>> RelaySocket::count(std::vector<nostr::Filter> filters, QString caller,
                                               std::chrono::milliseconds timeout)
{
    if (m_state != State::Connected)
        co_return fail(
            RelayError::make(RelayError::Kind::Network, QStringLiteral("not connected"),
                             QStringLiteral("relay unreachable: could not connect to relay")));
    const QString id = QStringLiteral("c%1").arg(m_nextId++);
    Subscription subscription;
    subscription.filters = std::move(filters);
    subscription.caller = caller;
    subscription.oneShot = true;
    subscription.isCount = true;
    auto it = m_subscriptions.insert(id, std::move(subscription));
    sendReq(id, *it);
    const bool finished = co_await waitOneShot(id, timeout);
    Subscription done = m_subscriptions.take(id);
    if (!finished || !done.count) {
        const QString reason = !finished ? QStringLiteral("request timed out")
                                         : done.closedReason.value_or(QStringLiteral("no count"));
        RelayError error = RelayError::make(
            finished ? RelayError::Kind::BadRequest : RelayError::Kind::Timeout, reason,
            finished ? reason : QStringLiteral("relay unreachable: request timed out"));
        logOneShot(id, done, error.kindName(), error.detail);
        co_return fail(error);
    }
    logOneShot(id, done, QStringLiteral("ok"), {});
    co_return *done.count;
}

void RelaySocket::onTextMessage(const QString &text)
{
    m_sinceLastFrame.restart();
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
        const QString eventId = QString::fromStdString(event->id);
        if (it->recentIds.contains(eventId))
            return;
        if (it->recentIds.size() >= 1024)
            it->recentIds.clear(); // bounded; the overlap window is only seconds wide
        it->recentIds.insert(eventId);
        if (event->createdAt > it->lastSeenCreatedAt && !it->oneShot)
            it->lastSeenCreatedAt = event->createdAt;
        if (it->oneShot) {
            it->events.push_back(std::move(event).value());
            return;
        }
        emit eventReceived(id, *event);
    } else if (type == "EOSE") {
        const QString id = str(1);
        auto it = m_subscriptions.find(id);
        if (it == m_subscriptions.end())
            return;
        if (it->oneShot) {
            it->finished = true;
            emit oneShotFinished(id);
        } else {
            emit endOfStoredEvents(id);
        }
    } else if (type == "COUNT" && message.size() >= 3 && message[2].is_object()) {
        const QString id = str(1);
        auto it = m_subscriptions.find(id);
        if (it == m_subscriptions.end())
            return;
        it->count = message[2].value("count", qint64(0));
        it->finished = true;
        emit oneShotFinished(id);
    } else if (type == "CLOSED") {
        const QString id = str(1);
        const QString reason = str(2);
        auto it = m_subscriptions.find(id);
        if (it != m_subscriptions.end() && it->oneShot) {
            it->closedReason = reason;
            it->finished = true;
            emit oneShotFinished(id);
            return;
        }
        emit subscriptionClosed(id, reason);
    } else if (type == "OK" && message.size() >= 4) {
        handleOk(str(1), message[2].is_boolean() && message[2].get<bool>(), str(3));
    } else if (type == "AUTH") {
        handleAuthChallenge(str(1));
    } else if (type == "NOTICE") {
        emit notice(str(1));
    }
}

} // namespace buzz::client
