#pragma once

#include "canvas/CanvasRevision.h"
#include "net/client/RelaySocket.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <chrono>

namespace buzz::client {
class RelayConnection;
}
namespace buzz::nostr {
struct Event;
}

namespace buzz::canvas {

class CanvasService;

// Keeps open canvases live (docs/architecture.md §Live updates): one WebSocket subscription per
// watched channel (kinds [40100], #h [channel], since now).
// canvasChanged fires for every new revision (including our own writes). When the subscription is
// live again after a gap (reconnect, relay CLOSE), the head is read strongly through the
// CanvasService (caller canvas_watch_resync) and reported through canvasChanged too: a change
// signed before `since` and committed during the gap never reaches a live subscription. Consumers
// ignore a head they already show. Beside it, ChannelWatch keeps the channel list live; reads and
// saves stay in CanvasService. Caller label of the subscription: canvas_watch.
class CanvasWatch : public QObject
{
    Q_OBJECT
public:
    // How far behind ours another writer's clock may run: the relay accepts created_at within
    // ±900 s of its own clock (docs/buzz-protocol.md §Ingest order step 2), so two clients can
    // differ by up to twice that.
    static constexpr qint64 kClockSkewSecs = 1800;

    // `reads` answers the strong head read after a gap and supplies the clock `since` is set by.
    CanvasWatch(client::RelayConnection *connection, CanvasService *reads,
                QObject *parent = nullptr);
    ~CanvasWatch() override;

    // Counted: the subscription ends at the last unwatch, so an old session closing after a new
    // one opened on the same channel does not end the new one's updates.
    void watch(const QString &channel);
    void unwatch(const QString &channel);
    bool isWatching(const QString &channel) const { return m_watches.contains(channel.toLower()); }
    // The live subscription's state (Refused when not watching) and the relay's CLOSED reason.
    client::RelaySocket::SubscriptionState watchState(const QString &channel) const;
    QString watchError(const QString &channel) const;
    std::chrono::milliseconds watchRetryIn(const QString &channel) const;

    // A revision some other read showed (a History page, a search result): every open session
    // of `channel` adopts it when it is newer than its head, exactly as a live event (through
    // canvasChanged). A relay may leave a gap no live event fills; what the user sees elsewhere
    // in the window must never be newer than what the header calls current.
    void noteRevision(const QString &channel, const CanvasRevision &revision);

signals:
    void canvasChanged(const QString &channel, const buzz::canvas::CanvasRevision &revision);
    void watchStateChanged(const QString &channel,
                           buzz::client::RelaySocket::SubscriptionState state);

private:
    void onLiveEvent(const QString &subscriptionId, const nostr::Event &event);
    void onResynced(const QString &subscriptionId);

    client::RelayConnection *m_connection;
    CanvasService *m_reads;
    QHash<QString, QString> m_watches; // channel → subscription id
    QHash<QString, QString> m_watchChannels; // subscription id → channel
    QHash<QString, int> m_watchCounts; // channel → sessions watching it
};

} // namespace buzz::canvas
