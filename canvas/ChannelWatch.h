#pragma once

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
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
}

namespace buzz::canvas {

// Keeps the channel list live. What the relay pushes (docs/buzz-protocol.md §Subscriptions:
// channel rows reach only subscriptions scoped to that channel):
//  - per listed channel, {"kinds":[39000,39001,39002],"#h":[id]}: its metadata (rename, archive,
//    visibility) and membership changes, the relay-signed discovery events;
//  - {"kinds":[44100,44101],"#p":[me]}: someone added us to a channel or removed us from one.
// What it does not push: a channel someone else creates. Its relay-signed 39000 announcement is
// stored scoped to the new channel, and a subscription without that channel's #h (which nobody
// knows yet) never receives channel-scoped events live. So every 3 s (discoveryInterval) while
// connected the watch asks for the announcements since the newest it has seen,
// {"kinds":[39000],"since":<newest created_at>} (writer-served, one small read): one for a channel
// the list does not have yet means a re-read — a new channel shows within 5 s without F5. A slow
// full re-read (rediscoveryInterval, 60 s) still catches what no announcement says (a deleted
// channel); F5 asks at once. Every reason ends in changed(), coalesced over 250 ms, and the owner
// re-reads the list (ChannelService::list). Caller labels: channels_watch,
// channels_watch_membership, channels_discover.
class ChannelWatch : public QObject
{
    Q_OBJECT
public:
    // At most this many channels get their own subscription (the relay allows 1 024 per connection;
    // the canvas watch needs some); the rest are found by the poll.
    static constexpr int kMaxWatchedChannels = 200;

    explicit ChannelWatch(client::RelayConnection *connection, QObject *parent = nullptr);
    ~ChannelWatch() override;

    // The channels the list shows now; subscriptions follow it (new ones added, gone ones closed).
    // The first call also starts the membership subscription and the poll.
    void setChannels(const QStringList &channelIds);
    QStringList watchedChannels() const { return m_byChannel.keys(); }

    void setRediscoveryInterval(std::chrono::milliseconds interval);
    void setDiscoveryInterval(std::chrono::milliseconds interval);
    void setCoalesceInterval(std::chrono::milliseconds interval);

signals:
    void changed();

private:
    void onEvent(const QString &subscriptionId, const nostr::Event &event);
    void onResynced(const QString &subscriptionId);
    void discover();
    void subscribeMembership();
    // Coalesce, not debounce: a steady stream of events must not postpone the re-read forever.
    void poke()
    {
        if (!m_coalesce.isActive())
            m_coalesce.start();
    }

    client::RelayConnection *m_connection;
    // The socket may go first when the app tears its services down: closing our subscriptions is
    // then moot.
    QPointer<client::RelaySocket> m_socket;
    QHash<QString, QString> m_byChannel; // channel → subscription id
    QSet<QString> m_subscriptions; // every id of ours
    QString m_membership; // the #p subscription
    QString m_membershipFor; // the pubkey it was made for
    QTimer m_coalesce;
    QTimer m_rediscover;
    QTimer m_discover;
    QSet<QString> m_listed; // every channel the list shows (also beyond kMaxWatchedChannels)
    QSet<QString> m_announced; // unlisted channels already reported once (not re-read forever)
    qint64 m_newestAnnouncement = 0; // created_at of the newest 39000 seen (the relay's clock)
    bool m_discovering = false;
};

} // namespace buzz::canvas
