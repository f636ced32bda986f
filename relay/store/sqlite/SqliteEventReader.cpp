#include "relay/store/sqlite/SqliteEventReader.h"

#include "relay/store/EventJson.h"
#include "relay/store/HexKey.h"
#include "relay/store/sqlite/SqliteConnection.h"

#include <string>

namespace buzz::relay::store {

namespace {
model::Channel rowToChannel(const Statement &row)
{
    model::Channel channel;
    channel.community = row.text(0);
    channel.uuid = row.text(1);
    channel.name = row.text(2);
    channel.visibility = row.text(3);
    channel.channelType = row.text(4);
    channel.about = row.text(5);
    channel.topic = row.optionalText(6);
    channel.purpose = row.optionalText(7);
    channel.ttl = row.optionalInt64(8);
    channel.archived = row.int64(9) != 0;
    channel.createdBy = row.text(10);
    channel.createdAt = row.int64(11);
    channel.createEventId = row.text(12);
    return channel;
}

model::ChannelMember rowToMember(const Statement &row)
{
    model::ChannelMember member;
    member.community = row.text(0);
    member.channel = row.text(1);
    member.pubkey = row.text(2);
    member.role = row.text(3);
    member.joinedAt = row.int64(4);
    member.removedAt = row.optionalInt64(5);
    member.removedBy = row.optionalText(6);
    return member;
}
} // namespace

StoredEvent SqliteEventReader::rowToStoredEvent(const Statement &row, int c)
{
    StoredEvent stored;
    stored.community = row.text(c);
    stored.channel = row.optionalText(c + 1);
    nostr::Event &event = stored.event;
    event.id = HexKey::hex(row.blob(c + 2));
    event.pubkey = HexKey::hex(row.blob(c + 3));
    event.createdAt = row.int64(c + 4);
    event.kind = static_cast<int>(row.int64(c + 5));
    const std::string_view tags = row.text(c + 6);
    event.tags = EventJson::parseTags(tags);
    event.content = row.text(c + 7);
    event.sig = HexKey::hex(row.blob(c + 8));
    // The tags column holds the tags exactly as Event::toJson serialises them.
    stored.json = EventJson::canonical(event, tags);
    return stored;
}

std::optional<SqliteEventReader::Found> SqliteEventReader::findById(const std::string &community,
                                                                    const std::string &id)
{
    auto select =
        m_connection.prepare(std::string("SELECT ") + kEventColumns
                             + ", e.deleted_at FROM events e WHERE e.community = ?1 AND e.id = ?2");
    const auto key = HexKey::decode<32>(id);
    if (!key)
        return std::nullopt;
    select.bindStatic(1, community);
    select.bindBlobStatic(2, key->data(), key->size());
    if (!select.step())
        return std::nullopt;
    return Found {rowToStoredEvent(select), select.optionalInt64(kEventColumnCount)};
}

std::optional<SqliteEventReader::Found>
SqliteEventReader::findByExactPair(const std::string &community, const std::string &id,
                                   std::int64_t createdAt)
{
    // The id names at most one row of a community; its created_at must match too.
    auto found = findById(community, id);
    if (!found || found->stored.event.createdAt != createdAt)
        return std::nullopt;
    return found;
}

std::optional<SqliteEventReader::Head> SqliteEventReader::canvasHead(const std::string &community,
                                                                     const std::string &channel)
{
    auto select = m_connection.prepare(
        "SELECT id, created_at FROM events INDEXED BY events_by_channel_kind WHERE community = ?1 "
        "AND channel = ?2 "
        "AND kind = 40100 AND deleted_at IS NULL ORDER BY created_at DESC, id ASC LIMIT 1");
    select.bindStatic(1, community);
    select.bindStatic(2, channel);
    if (!select.step())
        return std::nullopt;
    return Head {HexKey::hex(select.blob(0)), select.int64(1)};
}

std::optional<SqliteEventReader::Head>
SqliteEventReader::liveReplaceable(const std::string &community, int kind,
                                   const std::string &pubkey,
                                   const std::optional<std::string> &dTag)
{
    auto select = dTag
        ? m_connection.prepare(
            "SELECT id, created_at FROM events WHERE community = ?1 AND kind = ?2 AND pubkey = ?3 "
            "AND d_tag = ?4 AND deleted_at IS NULL ORDER BY created_at DESC, id ASC LIMIT 1")
        : m_connection.prepare(
            "SELECT id, created_at FROM events WHERE community = ?1 AND kind = ?2 AND pubkey = ?3 "
            "AND deleted_at IS NULL ORDER BY created_at DESC, id ASC LIMIT 1");
    select.bindStatic(1, community);
    const auto key = HexKey::decode<32>(pubkey);
    if (!key)
        return std::nullopt;
    select.bind(2, kind);
    select.bindBlobStatic(3, key->data(), key->size());
    if (dTag)
        select.bindStatic(4, *dTag);
    if (!select.step())
        return std::nullopt;
    return Head {HexKey::hex(select.blob(0)), select.int64(1)};
}

std::optional<model::Channel> SqliteEventReader::channel(const std::string &community,
                                                         const std::string &uuid)
{
    auto select = m_connection.prepare(
        "SELECT community, uuid, name, visibility, channel_type, about, topic, purpose, ttl, "
        "archived, created_by, "
        "created_at, create_event_id FROM channels WHERE community = ?1 AND uuid = ?2");
    select.bindStatic(1, community);
    select.bindStatic(2, uuid);
    if (!select.step())
        return std::nullopt;
    return rowToChannel(select);
}

bool SqliteEventReader::isRetiredChannel(const std::string &community, const std::string &uuid)
{
    auto select =
        m_connection.prepare("SELECT 1 FROM retired_channels WHERE community = ?1 AND uuid = ?2");
    select.bindStatic(1, community);
    select.bindStatic(2, uuid);
    return select.step();
}

std::optional<model::ChannelMember> SqliteEventReader::member(const std::string &community,
                                                              const std::string &channel,
                                                              const std::string &pubkey)
{
    auto select = m_connection.prepare(
        "SELECT community, channel, pubkey, role, joined_at, removed_at, removed_by FROM "
        "channel_members WHERE community = ?1 AND channel = ?2 AND pubkey = ?3");
    select.bindStatic(1, community);
    select.bindStatic(2, channel);
    select.bindStatic(3, pubkey);
    if (!select.step())
        return std::nullopt;
    return rowToMember(select);
}

std::vector<model::ChannelMember> SqliteEventReader::activeMembers(const std::string &community,
                                                                   const std::string &channel)
{
    auto select = m_connection.prepare(
        "SELECT community, channel, pubkey, role, joined_at, removed_at, removed_by FROM "
        "channel_members WHERE community = ?1 "
        "AND channel = ?2 AND removed_at IS NULL ORDER BY joined_at, pubkey");
    select.bindStatic(1, community);
    select.bindStatic(2, channel);
    std::vector<model::ChannelMember> members;
    while (select.step())
        members.push_back(rowToMember(select));
    return members;
}

std::optional<std::vector<std::string>>
SqliteEventReader::readableChannels(const std::string &community, const std::string &pubkey)
{
    auto select = m_connection.prepare(
        "SELECT c.uuid FROM channels c WHERE c.community = ?1 AND (c.visibility = 'open' OR "
        "EXISTS (SELECT 1 FROM channel_members m WHERE m.community = ?1 AND m.channel = c.uuid "
        "AND m.pubkey = ?2 AND m.removed_at IS NULL))");
    select.bindStatic(1, community);
    select.bindStatic(2, pubkey);
    std::vector<std::string> channels;
    while (select.step())
        channels.emplace_back(select.text(0));
    if (!select.ok())
        return std::nullopt;
    return channels;
}

bool SqliteEventReader::canRead(const std::string &community, const std::string &channel,
                                const std::string &pubkey)
{
    auto select = m_connection.prepare("SELECT 1 FROM channels c WHERE c.community = ?1 AND c.uuid "
                                       "= ?2 AND (c.visibility = 'open' OR EXISTS "
                                       "(SELECT 1 FROM channel_members m WHERE m.community = ?1 "
                                       "AND m.channel = ?2 AND m.pubkey = ?3 AND "
                                       "m.removed_at IS NULL))");
    select.bindStatic(1, community);
    select.bindStatic(2, channel);
    select.bindStatic(3, pubkey);
    return select.step();
}

bool SqliteEventReader::reactionExists(const std::string &community, const std::string &targetId,
                                       const std::string &pubkey, const std::string &emoji)
{
    auto select = m_connection.prepare("SELECT 1 FROM reactions WHERE community = ?1 AND target_id "
                                       "= ?2 AND pubkey = ?3 AND emoji = ?4");
    select.bindStatic(1, community);
    select.bindStatic(2, targetId);
    select.bindStatic(3, pubkey);
    select.bindStatic(4, emoji);
    return select.step();
}

std::optional<model::ThreadLink> SqliteEventReader::threadLink(const std::string &community,
                                                               const std::string &eventId)
{
    auto select = m_connection.prepare("SELECT root_id, parent_id, depth FROM thread_metadata "
                                       "WHERE community = ?1 AND event_id = ?2");
    const auto key = HexKey::decode<32>(eventId);
    if (!key)
        return std::nullopt;
    select.bindStatic(1, community);
    select.bindBlobStatic(2, key->data(), key->size());
    if (!select.step())
        return std::nullopt;
    return model::ThreadLink {HexKey::hex(select.blob(0)), HexKey::hex(select.blob(1)),
                              static_cast<int>(select.int64(2))};
}

} // namespace buzz::relay::store
