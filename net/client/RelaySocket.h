#pragma once

#include "net/client/RelayError.h"
#include "net/nostr/Event.h"
#include "net/nostr/Filter.h"
#include "net/nostr/Keys.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QTimer>
#include <QUrl>

#include <qcoro/qcorotask.h>

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

class QWebSocket;

namespace buzz::client {

class RequestLog;

// The relay's WebSocket (NIP-01 + NIP-42), used for live updates. Behaves like the desktop's
// relayClientSession: authenticates on the relay's challenge, keeps subscriptions across
// reconnects (re-REQ with since = last seen created_at − 5 s), reconnects with backoff 1 s → 30 s,
// flags a half-open socket as Stalled when no frame arrived for 60 s (passive: it never writes to
// probe), and treats an AUTH rejection as terminal until reconnectNow() (the user acting).
class RelaySocket : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Disconnected, // not started or closed by close()
        Connecting, // TCP/WS handshake in progress
        Authenticating, // AUTH sent, waiting for OK
        Connected, // authenticated, subscriptions live
        Stalled, // connected but silent for 60 s; a reconnect is under way
        Backoff, // waiting before the next reconnect attempt
        AuthRejected, // the relay refused our AUTH: no automatic reconnect
    };
    Q_ENUM(State)

    struct Timing
    {
        std::chrono::milliseconds initialBackoff {1000};
        std::chrono::milliseconds maxBackoff {30000};
        std::chrono::milliseconds stallAfter {60000};
        std::chrono::milliseconds watchdogInterval {10000};
        std::chrono::milliseconds authTimeout {8000};
    };

    RelaySocket(const QUrl &relayUrl, RequestLog *log, QObject *parent = nullptr);
    ~RelaySocket() override;

    void setSecretKey(std::shared_ptr<const nostr::SecretKey> key);
    void setTiming(Timing timing) { m_timing = timing; }
    QUrl wsUrl() const { return m_wsUrl; }
    State state() const { return m_state; }
    QString lastError() const { return m_lastError; }

    void open(); // start connecting (idempotent)
    void close(); // stop, no reconnect
    void reconnectNow(); // user action: leaves AuthRejected/Backoff and connects at once

    // A long-lived subscription that survives reconnects. Returns its id. Events arrive through
    // eventReceived(id, …); history ends with endOfStoredEvents(id).
    QString subscribe(std::vector<nostr::Filter> filters, const QString &caller);
    void unsubscribe(const QString &subscriptionId);

    // One-shot reads over the socket (REQ until EOSE then CLOSE; COUNT). Fail fast when not
    // connected.
    QCoro::Task<Result<std::vector<nostr::Event>>>
    fetch(std::vector<nostr::Filter> filters, QString caller,
          std::chrono::milliseconds timeout = std::chrono::seconds(10));
    QCoro::Task<Result<qint64>> count(std::vector<nostr::Filter> filters, QString caller,
                                      std::chrono::milliseconds timeout = std::chrono::seconds(10));

signals:
    void stateChanged(buzz::client::RelaySocket::State state);
    void eventReceived(const QString &subscriptionId, const buzz::nostr::Event &event);
    void endOfStoredEvents(const QString &subscriptionId);
    void subscriptionClosed(const QString &subscriptionId, const QString &reason); // relay CLOSED
    void notice(const QString &text);
    void authenticated(const QString &publicKeyHex);
    void authRejected(const QString &reason);
    // Internal: a one-shot fetch/count finished (EOSE, COUNT or CLOSED arrived).
    void oneShotFinished(const QString &subscriptionId);

private:
    struct Subscription
    {
        std::vector<nostr::Filter> filters;
        QString caller;
        qint64 lastSeenCreatedAt = 0; // 0 = nothing seen yet
        bool oneShot = false;
        bool isCount = false;
        bool sentSinceConnect = false;
        qint64 sentAtNs = 0;
        // one-shot results
        std::vector<nostr::Event> events;
        std::optional<qint64> count;
        std::optional<QString> closedReason;
        bool finished = false;
        // Ids delivered recently: history and live fan-out may overlap, and a resubscribe
        // re-reads the last 5 s on purpose. Each event is reported once.
        QSet<QString> recentIds;
    };

    void setState(State state);
    void connectSocket();
    void scheduleReconnect();
    void onConnected();
    void onDisconnected();
    void onTextMessage(const QString &text);
    void onWatchdog();
    void handleAuthChallenge(const QString &challenge);
    void handleOk(const QString &eventId, bool accepted, const QString &message);
    void sendReq(const QString &id, Subscription &subscription);
    void logOneShot(const QString &id, const Subscription &subscription, const QString &status,
                    const QString &error);
    QCoro::Task<bool> waitOneShot(QString id, std::chrono::milliseconds timeout);
    void sendJson(const QByteArray &json);
    void becomeConnected();

    QUrl m_wsUrl;
    RequestLog *m_log;
    std::shared_ptr<const nostr::SecretKey> m_key;
    Timing m_timing;
    QWebSocket *m_socket = nullptr;
    State m_state = State::Disconnected;
    QString m_lastError;
    QString m_pendingAuthId;
    QTimer m_reconnectTimer;
    QTimer m_watchdog;
    QTimer m_authTimer;
    QTimer m_keepAlive;
    QElapsedTimer m_sinceLastFrame;
    std::chrono::milliseconds m_nextBackoff {1000};
    bool m_wanted = false;
    quint64 m_nextId = 1;
    QHash<QString, Subscription> m_subscriptions;
};

} // namespace buzz::client
