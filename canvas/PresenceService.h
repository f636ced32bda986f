#pragma once

#include "canvas/PresenceModel.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <chrono>

namespace buzz::client {
class RelayConnection;
class RelaySocket;
} // namespace buzz::client
namespace buzz::nostr {
struct Event;
class SecretKey;
} // namespace buzz::nostr

namespace buzz::canvas {

// Presence and typing over the relay's WebSocket (docs/buzz-protocol.md §Presence and typing), for
// the one canvas the window has open. What it sends:
//  - kind 20001 with PresenceModel::statusFor(channel, editing) when a canvas opens, when its
//    editor opens or closes, again every heartbeatInterval (30 s: well inside the relay's 90 s)
//    and on every new connection; "offline" when no canvas is open any more, on goOffline (quit,
//    signals included) and for the old identity just before the key changes (sign-out);
//  - kind 20002 with ["h", channel] while the user types, at most one per typingInterval.
// What it reads, into model():
//  - {"kinds":[20001]}: everyone's own status events, live (signed by them);
//  - {"kinds":[20001],"authors":[the channel's members and everyone seen]}: the relay's answer
//    from its presence table, relay-signed, used only when signed by the key the relay names in
//    its NIP-11 document (EventVerifier), then their own events live;
//  - {"kinds":[20002],"#h":[channel]}: typing in the open channel.
// Someone the relay's answer cannot name (not a member: anyone may open an open channel's canvas)
// would learn who is here only from their next heartbeats; so whoever sees a newcomer arrive on
// its canvas says again that it is here, once, kAnswerDelay later (one event per arrival each).
// Every event is verified where it arrives (RelaySocket: id, signature, what was asked for), and
// typing must name the open channel in its first `h` tag. Caller labels: presence, typing,
// presence_watch, presence_query, typing_watch, presence_members, relay_info.
class PresenceService : public QObject
{
    Q_OBJECT
public:
    static constexpr std::chrono::milliseconds kHeartbeatInterval {30000};
    static constexpr std::chrono::milliseconds kTypingInterval {3000};
    static constexpr int kMaxAskedAuthors = 500; // one presence query's authors
    static constexpr std::chrono::milliseconds kAnswerDelay {300}; // arrivals meanwhile: one answer

    explicit PresenceService(client::RelayConnection *connection, QObject *parent = nullptr);
    ~PresenceService() override;

    PresenceModel *model() const { return m_model; }

    // The canvas the window shows now (empty: none, which publishes "offline").
    void setChannel(const QString &channel);
    QString channel() const { return m_channel; }
    void setEditing(bool editing);
    // A keystroke in the editor: a typing event unless one went out within typingInterval.
    void typed();
    // The app quits (or changes relay): "offline" now, flushed before the socket closes. Nothing
    // is published afterwards.
    void goOffline();

    void setHeartbeatInterval(std::chrono::milliseconds interval);
    void setTypingInterval(std::chrono::milliseconds interval) { m_typingInterval = interval; }

signals:
    // The relay answered one of our events (tests, Diagnostics).
    void published(const QString &status, bool accepted);

private:
    void publishStatus(const QString &status, const nostr::SecretKey &key);
    void publishCurrent();
    void onSocketState();
    void onEvent(const QString &subscriptionId, const nostr::Event &event);
    void onKeyAboutToChange();
    void onKeyChanged();
    void fetchRelayKey();
    void fetchMembers(const QString &channel);
    void watchTyping();
    void askAbout(const QStringList &pubkeys);
    void closeSubscription(QString &id);

    client::RelayConnection *m_connection;
    QPointer<client::RelaySocket> m_socket;
    PresenceModel *m_model;
    QString m_channel;
    bool m_editing = false;
    bool m_offline = false; // goOffline(): nothing more is sent
    QString m_lastStatus; // what the relay holds for us now ("" = nothing sent yet)
    qint64 m_lastStamp = 0; // created_at of our last status: each next one is newer
    qint64 m_lastTypingMs = 0;
    std::chrono::milliseconds m_typingInterval = kTypingInterval;
    QTimer m_heartbeat;
    QTimer m_answer; // a newcomer arrived: say we are here
    QString m_globalWatch;
    QString m_presenceQuery;
    QStringList m_asked; // authors of m_presenceQuery
    QStringList m_members; // of m_channel
    QString m_typingWatch;
    bool m_relayKeyAsked = false;
    QString m_relayKey; // NIP-11 `self`: the signer of the relay's presence answers
    QHash<QString, QString> m_sent; // event id → status, until the relay's OK
};

} // namespace buzz::canvas
