#include "canvas/ChannelService.h"

#include "canvas/CanvasWriteRules.h"

#include "net/client/HttpBridgeClient.h"
#include "net/client/RelayConnection.h"
#include "net/nostr/EventOrder.h"
#include "net/nostr/Kinds.h"

#include <QDateTime>
#include <QHash>
#include <QUuid>

#include <algorithm>

namespace buzz::canvas {

using client::fail;
using client::RelayError;
using client::Result;

namespace {

using nostr::kinds::kGroupMembers;
using nostr::kinds::kGroupMetadata;

QString role(const nostr::Event &membersEvent, const QString &pubkey)
{
    for (const nostr::Tag &tag : membersEvent.tags) {
        if (tag.size() >= 2 && tag[0] == "p"
            && QString::fromStdString(tag[1]).compare(pubkey, Qt::CaseInsensitive) == 0)
            return tag.size() >= 4 && !tag[3].empty() ? QString::fromStdString(tag[3])
                                                      : QStringLiteral("member");
    }
    return {};
}

// Replaceable events: keep the newest per channel (d tag).
QHash<QString, nostr::Event> newestByChannel(const std::vector<nostr::Event> &events, int kind)
{
    QHash<QString, nostr::Event> newest;
    for (const nostr::Event &event : events) {
        const std::string *d = event.tagValue("d");
        if (event.kind != kind || !d)
            continue;
        const QString id = QString::fromStdString(*d).toLower();
        auto it = newest.find(id);
        if (it == newest.end() || nostr::isNewer(event, *it))
            newest.insert(id, event);
    }
    return newest;
}

nostr::Filter kindFilter(int kind)
{
    nostr::Filter filter;
    filter.kinds = std::vector<int> {kind};
    return filter;
}

} // namespace

bool ChannelInfo::canEditCanvas() const
{
    return CanvasWriteRules::canWrite(*this);
}

std::optional<ChannelInfo> ChannelInfo::fromMetadataEvent(const nostr::Event &event)
{
    const std::string *d = event.tagValue("d");
    if (event.kind != kGroupMetadata || !d)
        return std::nullopt;
    ChannelInfo info;
    info.id = QString::fromStdString(*d).toLower();
    auto value = [&](const char *name) {
        const std::string *v = event.tagValue(name);
        return v ? QString::fromStdString(*v) : QString();
    };
    info.name = value("name");
    info.about = value("about");
    info.topic = value("topic");
    info.purpose = value("purpose");
    if (const std::string *type = event.tagValue("t"))
        info.type = QString::fromStdString(*type);
    info.isPrivate = event.tagCount("private") > 0;
    info.archived = value("archived") == QLatin1String("true");
    info.updatedAt = event.createdAt;
    return info;
}

ChannelService::ChannelService(client::RelayConnection *connection, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
{
    qRegisterMetaType<buzz::canvas::ChannelInfo>();
}

QString ChannelService::newChannelId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces).toLower();
}

std::optional<ChannelInfo> ChannelService::findByName(const std::vector<ChannelInfo> &channels,
                                                      const QString &name)
{
    const auto normalized = [](const QString &text) {
        QString trimmed = text.trimmed();
        while (trimmed.startsWith(QLatin1Char('#')))
            trimmed.remove(0, 1);
        return trimmed.trimmed();
    };
    const QString wanted = normalized(name);
    if (wanted.isEmpty())
        return std::nullopt;
    for (const ChannelInfo &channel : channels) {
        if (normalized(channel.name).compare(wanted, Qt::CaseInsensitive) == 0)
            return channel;
    }
    return std::nullopt;
}

QCoro::Task<Result<std::vector<ChannelInfo>>> ChannelService::list()
{
    const QString me = m_connection->publicKeyHex();
    nostr::Filter membership = kindFilter(kGroupMembers);
    membership.tags['p'] = {me.toStdString()};
    membership.limit = 500;
    auto members = co_await m_connection->bridge()->query(
        client::filters(membership), client::options(QStringLiteral("channels_membership")));
    if (!members)
        co_return fail(members.error());
    const auto memberEvents = newestByChannel(members->events, kGroupMembers);

    QHash<QString, ChannelInfo> channels;
    if (!memberEvents.isEmpty()) {
        nostr::Filter metadata = kindFilter(kGroupMetadata);
        std::vector<std::string> ids;
        for (auto it = memberEvents.begin(); it != memberEvents.end(); ++it)
            ids.push_back(it.key().toStdString());
        metadata.tags['d'] = ids;
        metadata.limit = static_cast<int>(ids.size());
        auto mine = co_await m_connection->bridge()->query(
            client::filters(metadata), client::options(QStringLiteral("channels_metadata")));
        if (!mine)
            co_return fail(mine.error());
        const auto metadataEvents = newestByChannel(mine->events, kGroupMetadata);
        for (const nostr::Event &event : metadataEvents) {
            if (auto info = ChannelInfo::fromMetadataEvent(event)) {
                info->myRole = role(memberEvents.value(info->id), me);
                info->isMember = !info->myRole.isEmpty();
                channels.insert(info->id, *info);
            }
        }
    }

    nostr::Filter open = kindFilter(kGroupMetadata);
    open.limit = 500;
    auto all = co_await m_connection->bridge()->query(
        client::filters(open), client::options(QStringLiteral("channels_open")));
    if (!all)
        co_return fail(all.error());
    for (const nostr::Event &event : newestByChannel(all->events, kGroupMetadata)) {
        auto info = ChannelInfo::fromMetadataEvent(event);
        if (!info || channels.contains(info->id) || info->isPrivate)
            continue;
        channels.insert(info->id, *info);
    }

    std::vector<ChannelInfo> sorted(channels.begin(), channels.end());
    std::sort(sorted.begin(), sorted.end(), [](const ChannelInfo &a, const ChannelInfo &b) {
        const int byName = a.name.compare(b.name, Qt::CaseInsensitive);
        return byName != 0 ? byName < 0 : a.id < b.id;
    });
    co_return sorted;
}

QCoro::Task<Result<ChannelInfo>> ChannelService::info(QString channel)
{
    channel = channel.toLower();
    nostr::Filter metadata = kindFilter(kGroupMetadata);
    metadata.tags['d'] = {channel.toStdString()};
    metadata.limit = 1;
    nostr::Filter members = kindFilter(kGroupMembers);
    members.tags['d'] = {channel.toStdString()};
    members.limit = 1;
    auto response = co_await m_connection->bridge()->query(
        client::filters(metadata, members), client::options(QStringLiteral("channel_info")));
    if (!response)
        co_return fail(response.error());
    const auto metadataEvents = newestByChannel(response->events, kGroupMetadata);
    const auto memberEvents = newestByChannel(response->events, kGroupMembers);
    if (!metadataEvents.contains(channel))
        co_return fail(RelayError::make(RelayError::Kind::NotFound,
                                        QStringLiteral("channel not found: ") + channel));
    auto info = ChannelInfo::fromMetadataEvent(metadataEvents.value(channel));
    info->myRole = role(memberEvents.value(channel), m_connection->publicKeyHex());
    info->isMember = !info->myRole.isEmpty();
    co_return *info;
}

QCoro::Task<Result<ChannelInfo>> ChannelService::create(CreateChannelRequest request)
{
    const auto key = m_connection->secretKey();
    if (!key)
        co_return fail(
            RelayError::make(RelayError::Kind::Auth, QStringLiteral("no identity configured")));
    if (request.name.trimmed().isEmpty())
        co_return fail(RelayError::make(RelayError::Kind::BadRequest,
                                        QStringLiteral("channel name is required")));
    ChannelInfo info;
    info.id = newChannelId();
    info.name = request.name.trimmed();
    info.about = request.about;
    info.isPrivate = request.isPrivate;
    info.type = request.type;
    info.isMember = true;
    info.myRole = QStringLiteral("owner");

    nostr::Tags tags = {{"h", info.id.toStdString()},
                        {"name", info.name.toStdString()},
                        {"visibility", request.isPrivate ? "private" : "open"},
                        {"channel_type", request.type.toStdString()}};
    if (!request.about.isEmpty())
        tags.push_back({"about", request.about.toStdString()});
    const nostr::Event event = key->signedEvent(
        nostr::kinds::kGroupCreate, QDateTime::currentSecsSinceEpoch(), std::move(tags));
    info.updatedAt = event.createdAt;

    // Is our exact creation event stored? (Same id = our own replay, not someone else's channel.)
    auto ourCreationStored = [this, &event]() -> QCoro::Task<Result<bool>> {
        nostr::Filter byId;
        byId.ids = std::vector<std::string> {event.id};
        byId.limit = 1;
        byId.consistency = nostr::Filter::Consistency::Strong;
        auto found = co_await m_connection->bridge()->query(
            client::filters(byId), client::options(QStringLiteral("channel_create_replay")));
        if (!found)
            co_return fail(found.error());
        co_return !found->events.empty();
    };

    for (int attempt = 0; attempt < 2; ++attempt) {
        auto response = co_await m_connection->bridge()->publish(
            event,
            client::options(attempt == 0 ? QStringLiteral("channel_create")
                                         : QStringLiteral("channel_create_retry")));
        if (response && response->accepted)
            co_return info;
        if (response) {
            if (response->message.startsWith(QLatin1String("duplicate:"))) {
                auto stored = co_await ourCreationStored();
                if (stored && *stored)
                    co_return info;
                co_return fail(RelayError::make(
                    RelayError::Kind::Conflict, response->message,
                    QStringLiteral("relay rejected event: ") + response->message, 200));
            }
            co_return fail(RelayError::make(
                RelayError::Kind::BadRequest, response->message,
                QStringLiteral("relay rejected event: ") + response->message, 200));
        }
        if (!response.error().outcomeUnknown())
            co_return fail(response.error());
        auto stored = co_await ourCreationStored();
        if (stored && *stored)
            co_return info;
        if (!stored)
            co_return fail(response.error());
        // Not stored: safe to send the same signed event once more.
    }
    co_return fail(RelayError::make(RelayError::Kind::Network, QStringLiteral("network error"),
                                    QStringLiteral("relay unreachable: network error")));
}

QCoro::Task<Result<void>> ChannelService::publishMembership(QString channel, int kind,
                                                            QString caller)
{
    const auto key = m_connection->secretKey();
    if (!key)
        co_return fail(
            RelayError::make(RelayError::Kind::Auth, QStringLiteral("no identity configured")));
    const nostr::Event event = key->signedEvent(kind, QDateTime::currentSecsSinceEpoch(),
                                                {{"h", channel.toLower().toStdString()}});
    auto response = co_await m_connection->bridge()->publish(event, client::options(caller));
    if (!response)
        co_return fail(response.error());
    if (!response->accepted)
        co_return fail(
            RelayError::make(RelayError::Kind::BadRequest, response->message,
                             QStringLiteral("relay rejected event: ") + response->message, 200));
    co_return Result<void>();
}

QCoro::Task<Result<void>> ChannelService::join(QString channel)
{
    co_return co_await publishMembership(channel, nostr::kinds::kGroupJoin,
                                         QStringLiteral("channel_join"));
}

QCoro::Task<Result<void>> ChannelService::leave(QString channel)
{
    co_return co_await publishMembership(channel, nostr::kinds::kGroupLeave,
                                         QStringLiteral("channel_leave"));
}

} // namespace buzz::canvas
