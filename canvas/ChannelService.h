#pragma once

#include "net/client/RelayError.h"
#include "net/nostr/Event.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <qcoro/qcorotask.h>

#include <optional>
#include <vector>

namespace buzz::client {
class RelayConnection;
}

namespace buzz::canvas {

// A channel as the relay describes it (relay-signed 39000 metadata + 39002 membership).
struct ChannelInfo
{
    QString id; // lower-case UUID
    QString name;
    QString about;
    QString topic;
    QString purpose;
    QString type = QStringLiteral("stream"); // stream | forum | dm | workflow
    bool isPrivate = false;
    bool archived = false;
    bool isMember = false;
    QString myRole; // owner | admin | member | guest | bot; empty when not a member
    qint64 updatedAt = 0;

    bool isDirectMessage() const { return type == QLatin1String("dm"); }
    // The relay's write rule (canvas/CanvasWriteRules): a member, or anyone in an open channel;
    // never in an archived one.
    bool canEditCanvas() const;

    static std::optional<ChannelInfo> fromMetadataEvent(const nostr::Event &event); // kind 39000
};

struct CreateChannelRequest
{
    QString name;
    QString about;
    bool isPrivate = false;
    QString type = QStringLiteral("stream");
};

// Channel list / create / join / leave over the HTTP bridge, as the real desktop does it.
// Caller labels: channels_membership, channels_metadata, channels_open, channel_create,
// channel_create_replay, channel_join, channel_leave, channel_info.
class ChannelService : public QObject
{
    Q_OBJECT
public:
    explicit ChannelService(client::RelayConnection *connection, QObject *parent = nullptr);

    // My channels: {"kinds":[39002],"#p":[me]} → their `d` UUIDs → {"kinds":[39000],"#d":[…]};
    // plus open channels ({"kinds":[39000]}) I have not joined (isMember = false). Sorted by name.
    QCoro::Task<client::Result<std::vector<ChannelInfo>>> list();

    // One channel's metadata and my membership (NotFound when the relay has no such channel).
    QCoro::Task<client::Result<ChannelInfo>> info(QString channel);

    // Kind 9007 with a fresh lower-case UUID v4 in `h`. A lost response is retried with the SAME
    // signed event; the relay's "duplicate: channel already exists" for our own replay (same event
    // id stored) counts as success, for someone else's channel as a Conflict.
    QCoro::Task<client::Result<ChannelInfo>> create(CreateChannelRequest request);

    QCoro::Task<client::Result<void>> join(QString channel); // kind 9021
    QCoro::Task<client::Result<void>> leave(QString channel); // kind 9022

    static QString newChannelId(); // lower-case UUID v4
    // A listed channel already called `name` (case, surrounding spaces and a leading '#' ignored),
    // so the user can be warned before making a second one: the relay allows it.
    static std::optional<ChannelInfo> findByName(const std::vector<ChannelInfo> &channels,
                                                 const QString &name);

private:
    QCoro::Task<client::Result<void>> publishMembership(QString channel, int kind, QString caller);

    client::RelayConnection *m_connection;
};

} // namespace buzz::canvas

Q_DECLARE_METATYPE(buzz::canvas::ChannelInfo)
