#pragma once

#include "net/client/RelaySubscription.h"
#include "net/nostr/Event.h"
#include "net/nostr/Filter.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QString>
#include <QTimer>
#include <QUrl>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

class QWebSocket;

namespace buzz::client {

class RequestLog;
class Signer;

// The relay's WebSocket (NIP-01 + NIP-42) for live updates, and the app's one connection state
// machine: the status bar, the connection banner and Diagnostics all show state() (through
// ui/ConnectionStatus), and HTTP requests that go unanswered feed it through probe().
//
//   Idle ──open()──▶ Connecting ──AUTH accepted──▶ Connected
//   Connecting ──refused, closed, or no AUTH OK within connectTimeout──▶ Reconnecting
//   Connecting ──AUTH rejected──▶ AuthRejected: no automatic retry (reconnectNow() or a new key)
//   Connected ──no frame for stallAfter, or a probe() unanswered for probeTimeout──▶ Stalled
//   Stalled ──any frame (a pong)──▶ Connected
//   Stalled ──silent reconnectAfterStall longer──▶ Reconnecting
//   Connected ──connection lost──▶ Reconnecting
//   Reconnecting ──backoff (initialBackoff doubling to maxBackoff) or reconnectNow()──▶ Connecting
//   any ──close()──▶ Idle;  a new key on the Signer while connected ──▶ Connecting (re-AUTH)
//
// Liveness is active: a ping every pingInterval, so a healthy quiet connection keeps producing
// frames (pongs) and a frozen relay is noticed within stallAfter, not when a save times out.
//
// Subscriptions are long-lived and survive everything above: each is re-sent on every new
// connection with since = last seen created_at − 5 s, and one the relay CLOSEs with a transient
// reason ("error: query timed out", "error: retryable: …") is re-sent after its own backoff.
// Whenever a subscription is live again after a gap (reconnect or CLOSE), subscriptionResynced
// says so: an event signed before `since` may have been committed during the gap, so the owner
// re-reads the state it shows.
class RelaySocket : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Idle, // not opened (the CLI), or close()d
        Connecting, // TCP + WebSocket handshake + NIP-42 AUTH in progress
        Connected, // authenticated and answering
        Stalled, // open but silent: the relay stopped answering; reconnects if it stays silent
        Reconnecting, // waiting nextAttemptIn() before the next attempt
        AuthRejected, // the relay refused our AUTH (lastError() says why)
    };
    Q_ENUM(State)

    // The largest message (and frame) read: one event is at most 256 KiB of content, a few MiB as
    // escaped JSON (relay/README.md "Limits"). A larger one closes the connection (1009) and
    // lastError() says "the relay sent a message over 16 MiB, the client's limit"; the socket
    // reconnects as after any lost connection.
    static constexpr qint64 kMaxMessageBytes = qint64(16) << 20;

    // Pending, Live, Resubscribing (REQ again in resubscribeIn()), Refused (see RelaySubscription)
    using SubscriptionState = RelaySubscription::State;

    struct Timing
    {
        std::chrono::milliseconds initialBackoff {1000};
        std::chrono::milliseconds maxBackoff {30000};
        std::chrono::milliseconds connectTimeout {8000}; // handshake + AUTH
        std::chrono::milliseconds pingInterval {5000};
        std::chrono::milliseconds stallAfter {15000};
        std::chrono::milliseconds reconnectAfterStall {15000};
        std::chrono::milliseconds probeTimeout {3000};
    };

    // `signer` (not owned) holds the key for AUTH; a new key re-authenticates an open socket.
    RelaySocket(const QUrl &relayUrl, Signer *signer, RequestLog *log, QObject *parent = nullptr);
    ~RelaySocket() override;

    void setTiming(Timing timing); // takes effect at once (tests use short timings)
    QUrl wsUrl() const { return m_wsUrl; }

    State state() const { return m_state; }
    // Why the last attempt failed, why the connection stalled, or the AUTH rejection; empty when
    // Connected.
    QString lastError() const { return m_lastError; }
    // lastError() is what the relay sent (a message over the limit), not a network problem.
    bool lastErrorIsRelays() const { return m_lastErrorIsRelays; }
    int failedAttempts() const { return m_failedAttempts; } // since the last time Connected
    std::chrono::milliseconds nextAttemptIn() const; // Reconnecting: until the next attempt
    std::chrono::milliseconds silentFor() const; // since the last frame of an open connection
    QString authenticatedAs() const { return m_authenticatedAs; } // pubkey hex, while connected

    void open(); // start connecting (idempotent)
    void close(); // stop, no reconnect
    void reconnectNow(); // user action: a new connection at once, from any state but Idle
    // Something else (an HTTP request) went unanswered: ping now and, if nothing comes back within
    // probeTimeout, call the connection Stalled instead of waiting for stallAfter.
    void probe();

    // A long-lived subscription; returns its id. Events arrive through eventReceived(id, …).
    QString subscribe(std::vector<nostr::Filter> filters, const QString &caller);
    void unsubscribe(const QString &subscriptionId);
    QStringList subscriptionIds() const { return m_subscriptions.keys(); }
    SubscriptionState subscriptionState(const QString &subscriptionId) const;
    QString subscriptionError(const QString &subscriptionId) const; // the relay's CLOSED reason
    std::chrono::milliseconds resubscribeIn(const QString &subscriptionId) const;

    // An event over the WebSocket (the ephemeral kinds the HTTP bridge refuses: presence, typing).
    // False when not connected: nothing was sent. The relay's OK arrives as eventAnswered. What is
    // sent last before the socket closes (an "offline" as the app quits) is flushed, not dropped.
    bool sendEvent(const nostr::Event &event, const QString &caller);
    // The key the relay signs its own answers with (NIP-11 `self`): relay-signed presence answers
    // are used only when signed by it (EventVerifier). Empty: none is used.
    void setRelayPublicKey(const QString &hex) { m_relayKey = hex.toStdString(); }

signals:
    void stateChanged(buzz::client::RelaySocket::State state);
    // Connected again after trouble (failed attempts, a lost or stalled connection, a rejection):
    // requests made meanwhile may have failed and are worth repeating.
    void recovered();
    void eventReceived(const QString &subscriptionId, const buzz::nostr::Event &event);
    void subscriptionStateChanged(const QString &subscriptionId,
                                  buzz::client::RelaySocket::SubscriptionState state);
    void subscriptionResynced(const QString &subscriptionId);
    void eventAnswered(const QString &eventId, bool accepted, const QString &message);

private:
    using Subscription = RelaySubscription;

    qint64 nowMs() const { return m_clock.elapsed(); }
    void setState(State state);
    void setSubscriptionState(const QString &id, Subscription &subscription,
                              SubscriptionState state);
    void connectSocket();
    void disposeSocket();
    void suspendSubscriptions();
    void onConnectionLost(const QString &reason, bool relayFault = false);
    void onTextMessage(const QString &text);
    void onFrame();
    void onKeepAlive();
    void onKeyChanged();
    void becomeStalled(const QString &reason);
    void becomeConnected();
    void handleAuthChallenge(const QString &challenge);
    void handleOk(const QString &eventId, bool accepted, const QString &message);
    void rejectAuth(const QString &reason);
    void handleClosed(const QString &id, const QString &reason);
    // `route`: how the relay says it served the history (our EOSE extension), may be empty.
    void handleEndOfStoredEvents(const QString &id, const QString &route);
    void sendReq(const QString &id, Subscription &subscription);
    void sendDueResubscriptions();
    void scheduleResubscriptions();
    void logReq(Subscription &subscription, const QString &status, const QString &error,
                const QString &route = {});
    // A WebSocket frame other than a REQ, for the Diagnostics dock (never a secret, never event
    // content).
    void logFrame(const QString &method, const QString &caller, const QString &status,
                  const QString &detail, const QString &droppedReason = {});
    void sendJson(const QByteArray &json);

    QUrl m_wsUrl;
    Signer *m_signer;
    RequestLog *m_log;
    Timing m_timing;
    QWebSocket *m_socket = nullptr;
    State m_state = State::Idle;
    std::string m_relayKey;
    QString m_lastError;
    bool m_lastErrorIsRelays = false;
    QString m_pendingAuthId;
    QString m_pendingAuthAs;
    quint64 m_authLogSequence = 0;
    QDateTime m_authSentAt;
    qint64 m_authSentAtMs = 0;
    QString m_authenticatedAs;
    QTimer m_reconnectTimer;
    QTimer m_connectTimer;
    QTimer m_keepAlive;
    QTimer m_probeTimer;
    QTimer m_resubscribeTimer;
    QElapsedTimer m_clock;
    qint64 m_lastFrameMs = 0;
    qint64 m_probeStartedMs = 0;
    std::chrono::milliseconds m_nextBackoff {1000};
    int m_failedAttempts = 0;
    bool m_troubleSinceConnected = false;
    bool m_wanted = false;
    quint64 m_connectionSerial = 0;
    quint64 m_nextId = 1;
    QHash<QString, Subscription> m_subscriptions;
};

} // namespace buzz::client
