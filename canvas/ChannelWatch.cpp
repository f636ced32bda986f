#include "canvas/ChannelWatch.h"

#include "net/client/HttpBridgeClient.h"
#include "net/client/RelayConnection.h"
#include "net/client/RelaySocket.h"
#include "net/client/Signer.h"
#include "net/nostr/Kinds.h"

#include <QDateTime>

#include <algorithm>

#include <qcoro/qcorotask.h>

namespace buzz::canvas {

ChannelWatch::ChannelWatch(client::RelayConnection *connection, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_socket(connection->socket())
{
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(std::chrono::milliseconds(250));
    connect(&m_coalesce, &QTimer::timeout, this, &ChannelWatch::changed);
    m_rediscover.setInterval(std::chrono::seconds(60));
    connect(&m_rediscover, &QTimer::timeout, this, &ChannelWatch::poke);
    m_discover.setInterval(std::chrono::seconds(3));
    connect(&m_discover, &QTimer::timeout, this, &ChannelWatch::discover);
    client::RelaySocket *socket = m_connection->socket();
    connect(socket, &client::RelaySocket::eventReceived, this, &ChannelWatch::onEvent);
    connect(socket, &client::RelaySocket::subscriptionResynced, this, &ChannelWatch::onResynced);
    // "Added to a channel" is addressed to a pubkey: a new identity needs its own subscription.
    connect(m_connection->signer(), &client::Signer::keyChanged, this, [this] {
        if (!m_membershipFor.isEmpty())
            subscribeMembership();
    });
}

ChannelWatch::~ChannelWatch()
{
    if (!m_socket)
        return;
    for (const QString &id : std::as_const(m_subscriptions))
        m_socket->unsubscribe(id);
}

void ChannelWatch::setRediscoveryInterval(std::chrono::milliseconds interval)
{
    m_rediscover.setInterval(interval);
    if (m_rediscover.isActive())
        m_rediscover.start();
}

void ChannelWatch::setDiscoveryInterval(std::chrono::milliseconds interval)
{
    m_discover.setInterval(interval);
    if (m_discover.isActive())
        m_discover.start();
}

void ChannelWatch::setCoalesceInterval(std::chrono::milliseconds interval)
{
    m_coalesce.setInterval(interval);
}

void ChannelWatch::setChannels(const QStringList &channelIds)
{
    client::RelaySocket *socket = m_connection->socket();
    QSet<QString> wanted;
    m_listed.clear();
    for (const QString &id : channelIds) {
        m_listed.insert(id.toLower());
        if (wanted.size() < kMaxWatchedChannels)
            wanted.insert(id.toLower());
    }
    for (auto it = m_byChannel.begin(); it != m_byChannel.end();) {
        if (wanted.contains(it.key())) {
            ++it;
            continue;
        }
        socket->unsubscribe(it.value());
        m_subscriptions.remove(it.value());
        it = m_byChannel.erase(it);
    }
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    for (const QString &channel : std::as_const(wanted)) {
        if (m_byChannel.contains(channel))
            continue;
        nostr::Filter filter;
        filter.kinds = std::vector<int> {nostr::kinds::kGroupMetadata, nostr::kinds::kGroupAdmins,
                                         nostr::kinds::kGroupMembers};
        filter.tags['h'] = {channel.toStdString()};
        filter.since = now;
        const QString id = socket->subscribe({filter}, QStringLiteral("channels_watch"));
        m_byChannel.insert(channel, id);
        m_subscriptions.insert(id);
    }
    if (m_membershipFor.isEmpty())
        subscribeMembership();
    if (!m_rediscover.isActive())
        m_rediscover.start();
    if (!m_discover.isActive())
        m_discover.start();
    socket->open(); // idempotent; the CLI never watches
}

void ChannelWatch::subscribeMembership()
{
    client::RelaySocket *socket = m_connection->socket();
    if (!m_membership.isEmpty()) {
        socket->unsubscribe(m_membership);
        m_subscriptions.remove(m_membership);
        m_membership.clear();
    }
    m_membershipFor = m_connection->publicKeyHex().toLower();
    if (m_membershipFor.isEmpty()) {
        m_membershipFor = QStringLiteral("-"); // asked, but no identity yet
        return;
    }
    nostr::Filter filter;
    filter.kinds =
        std::vector<int> {nostr::kinds::kMemberAddedNotice, nostr::kinds::kMemberRemovedNotice};
    filter.tags['p'] = {m_membershipFor.toStdString()};
    filter.since = QDateTime::currentSecsSinceEpoch();
    m_membership = socket->subscribe({filter}, QStringLiteral("channels_watch_membership"));
    m_subscriptions.insert(m_membership);
}

void ChannelWatch::discover()
{
    // Offline the read would only fail; the list is re-read when the connection is back.
    if (m_discovering || !m_socket || m_socket->state() != client::RelaySocket::State::Connected)
        return;
    m_discovering = true;
    nostr::Filter filter;
    filter.kinds = std::vector<int> {nostr::kinds::kGroupMetadata};
    // Inclusive: announcements in the same second as the newest seen are not missed (those seen
    // come back and are known).
    if (m_newestAnnouncement > 0)
        filter.since = m_newestAnnouncement;
    filter.limit = 100;
    QCoro::connect(
        m_connection->bridge()->query(client::filters(filter),
                                      client::options(QStringLiteral("channels_discover"))),
        this, [this](client::Result<client::QueryResponse> response) {
            m_discovering = false;
            if (!response)
                return; // the next tick asks again
            bool unlisted = false;
            for (const nostr::Event &event : response->events) {
                m_newestAnnouncement = std::max<qint64>(m_newestAnnouncement, event.createdAt);
                const std::string *channel = event.tagValue("d");
                if (!channel)
                    continue;
                const QString id = QString::fromStdString(*channel).toLower();
                if (m_listed.contains(id) || m_announced.contains(id))
                    continue;
                // Once per channel: one the list never shows (a private channel of
                // others) must not re-read the list every few seconds.
                m_announced.insert(id);
                unlisted = true;
            }
            if (unlisted)
                poke();
        });
}

void ChannelWatch::onEvent(const QString &subscriptionId, const nostr::Event &)
{
    if (m_subscriptions.contains(subscriptionId))
        poke();
}

void ChannelWatch::onResynced(const QString &subscriptionId)
{
    // Live again after a gap: whatever changed meanwhile reached no subscription.
    if (m_subscriptions.contains(subscriptionId))
        poke();
}

} // namespace buzz::canvas
