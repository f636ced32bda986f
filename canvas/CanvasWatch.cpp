#include "canvas/CanvasWatch.h"

#include "canvas/CanvasService.h"
#include "net/client/RelayConnection.h"
#include "net/nostr/Event.h"

#include <qcoro/qcorotask.h>

namespace buzz::canvas {

CanvasWatch::CanvasWatch(client::RelayConnection *connection, CanvasService *reads, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_reads(reads)
{
    qRegisterMetaType<buzz::canvas::CanvasRevision>();
    auto *socket = m_connection->socket();
    connect(socket, &client::RelaySocket::eventReceived, this, &CanvasWatch::onLiveEvent);
    connect(socket, &client::RelaySocket::subscriptionResynced, this, &CanvasWatch::onResynced);
    connect(socket, &client::RelaySocket::subscriptionStateChanged, this,
            [this](const QString &subscriptionId, client::RelaySocket::SubscriptionState state) {
                const auto channel = m_watchChannels.constFind(subscriptionId);
                if (channel != m_watchChannels.constEnd())
                    emit watchStateChanged(*channel, state);
            });
}

CanvasWatch::~CanvasWatch() = default;

void CanvasWatch::watch(const QString &channel)
{
    const QString key = channel.toLower();
    if (m_watchCounts[key]++ > 0)
        return;
    nostr::Filter filter;
    filter.kinds = std::vector<int> {kCanvasKind};
    filter.tags['h'] = {key.toStdString()};
    // Live delivery matches created_at against `since`, and another writer's clock may run up to
    // the relay's skew bound behind ours: a revision signed "before" now must still arrive. The
    // stored newest one the REQ returns first is the head the session already has (ignored) or
    // one that landed since it was read (reported).
    filter.since = m_reads->now() - kClockSkewSecs;
    filter.limit = 1;
    const QString id = m_connection->socket()->subscribe({filter}, QStringLiteral("canvas_watch"));
    m_watches.insert(key, id);
    m_watchChannels.insert(id, key);
    m_connection->socket()->open(); // idempotent: the app opened it already, the CLI never watches
}

void CanvasWatch::unwatch(const QString &channel)
{
    const QString key = channel.toLower();
    const auto count = m_watchCounts.find(key);
    if (count == m_watchCounts.end())
        return;
    if (--*count > 0)
        return;
    m_watchCounts.erase(count);
    const QString id = m_watches.take(key);
    if (id.isEmpty())
        return;
    m_watchChannels.remove(id);
    m_connection->socket()->unsubscribe(id);
}

client::RelaySocket::SubscriptionState CanvasWatch::watchState(const QString &channel) const
{
    const QString id = m_watches.value(channel.toLower());
    return id.isEmpty() ? client::RelaySocket::SubscriptionState::Refused
                        : m_connection->socket()->subscriptionState(id);
}

QString CanvasWatch::watchError(const QString &channel) const
{
    const QString id = m_watches.value(channel.toLower());
    return id.isEmpty() ? QString() : m_connection->socket()->subscriptionError(id);
}

std::chrono::milliseconds CanvasWatch::watchRetryIn(const QString &channel) const
{
    const QString id = m_watches.value(channel.toLower());
    return id.isEmpty() ? std::chrono::milliseconds(0) : m_connection->socket()->resubscribeIn(id);
}

void CanvasWatch::noteRevision(const QString &channel, const CanvasRevision &revision)
{
    emit canvasChanged(channel.toLower(), revision);
}

void CanvasWatch::onResynced(const QString &subscriptionId)
{
    const auto found = m_watchChannels.constFind(subscriptionId);
    if (found == m_watchChannels.constEnd())
        return;
    // Strong: after a gap the writer's head is the only answer that cannot miss the change.
    const QString channel = *found;
    QCoro::connect(m_reads->resyncHead(channel), this,
                   [this, channel](client::Result<std::optional<CanvasRevision>> head) {
                       if (head && *head && m_watches.contains(channel))
                           emit canvasChanged(channel, **head);
                   });
}

void CanvasWatch::onLiveEvent(const QString &subscriptionId, const nostr::Event &event)
{
    const auto channel = m_watchChannels.constFind(subscriptionId);
    if (channel == m_watchChannels.constEnd())
        return;
    if (auto revision = CanvasRevision::fromEvent(event))
        emit canvasChanged(*channel, *revision);
}

} // namespace buzz::canvas
