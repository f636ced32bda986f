#include "relay/store/postgres/PgEventReader.h"

#include "relay/store/EventJson.h"
#include "relay/store/HexKey.h"
#include "relay/store/postgres/PgConnection.h"
#include "relay/store/sqlite/SqliteRowWriter.h"

namespace buzz::relay::store {

namespace {
constexpr const char *kChannelColumns =
    "community, uuid, name, visibility, channel_type, about, topic, purpose, ttl, archived, "
    "created_by, created_at, create_event_id";
constexpr const char *kMemberColumns =
    "community, channel, pubkey, role, joined_at, removed_at, removed_by";

model::Channel rowToChannel(const PgResult &row)
{
    model::Channel channel;
    channel.community = row.text(0, 0);
    channel.uuid = row.text(0, 1);
    channel.name = row.text(0, 2);
    channel.visibility = row.text(0, 3);
    channel.channelType = row.text(0, 4);
    channel.about = row.text(0, 5);
    channel.topic = row.optionalText(0, 6);
    channel.purpose = row.optionalText(0, 7);
    channel.ttl = row.optionalInt64(0, 8);
    channel.archived = row.int64(0, 9) != 0;
    channel.createdBy = row.text(0, 10);
    channel.createdAt = row.int64(0, 11);
    channel.createEventId = row.text(0, 12);
    return channel;
}

model::ChannelMember rowToMember(const PgResult &rows, int row)
{
    model::ChannelMember member;
    member.community = rows.text(row, 0);
    member.channel = rows.text(row, 1);
    member.pubkey = rows.text(row, 2);
    member.role = rows.text(row, 3);
    member.joinedAt = rows.int64(row, 4);
    member.removedAt = rows.optionalInt64(row, 5);
    member.removedBy = rows.optionalText(row, 6);
    return member;
}

std::optional<EventLookup::Head> headOf(const PgResult &result)
{
    if (!result.ok() || result.rows() == 0)
        return std::nullopt;
    return EventLookup::Head {HexKey::hex(result.bytes(0, 0)), result.int64(0, 1)};
}

std::string keyBytes(const std::array<std::uint8_t, 32> &key)
{
    return std::string(reinterpret_cast<const char *>(key.data()), key.size());
}
} // namespace

StoredEvent PgEventReader::rowToStoredEvent(const PgResult &result, int row, int c)
{
    StoredEvent stored;
    stored.community = result.text(row, c);
    stored.channel = result.optionalText(row, c + 1);
    nostr::Event &event = stored.event;
    event.id = HexKey::hex(result.bytes(row, c + 2));
    event.pubkey = HexKey::hex(result.bytes(row, c + 3));
    event.createdAt = result.int64(row, c + 4);
    event.kind = static_cast<int>(result.int64(row, c + 5));
    event.tags = EventJson::parseTags(result.text(row, c + 6));
    event.content = result.text(row, c + 7);
    event.sig = HexKey::hex(result.bytes(row, c + 8));
    // JSONB keeps its own layout: the tags are written again in the canonical form their id was
    // computed over.
    stored.json = EventJson::canonical(event, SqliteRowWriter::tagsJson(event.tags));
    return stored;
}

std::optional<EventLookup::Found> PgEventReader::findById(const std::string &community,
                                                          const std::string &id)
{
    const auto key = HexKey::decode<32>(id);
    if (!key)
        return std::nullopt;
    PgResult found = m_connection.run(std::string("SELECT ") + kEventColumns
                                          + ", e.deleted_at FROM events e WHERE e.community = $1 "
                                            "AND e.id = $2",
                                      PgParams().text(community).bytes(keyBytes(*key)));
    if (!found.ok() || found.rows() == 0)
        return std::nullopt;
    return Found {rowToStoredEvent(found, 0), found.optionalInt64(0, kEventColumnCount)};
}

std::optional<EventLookup::Found> PgEventReader::findByExactPair(const std::string &community,
                                                                 const std::string &id,
                                                                 std::int64_t createdAt)
{
    const auto key = HexKey::decode<32>(id);
    if (!key)
        return std::nullopt;
    // created_at names the month: only that partition is read.
    PgResult found = m_connection.run(
        std::string("SELECT ") + kEventColumns
            + ", e.deleted_at FROM events e WHERE e.community = $1 AND e.created_at = $2 AND "
              "e.id = $3",
        PgParams().text(community).timestamp(createdAt).bytes(keyBytes(*key)));
    if (!found.ok() || found.rows() == 0)
        return std::nullopt;
    return Found {rowToStoredEvent(found, 0), found.optionalInt64(0, kEventColumnCount)};
}

std::optional<EventLookup::Head> PgEventReader::canvasHead(const std::string &community,
                                                           const std::string &channel)
{
    return headOf(m_connection.run(
        "SELECT id, created_at FROM events WHERE community = $1 AND channel = $2 AND kind = 40100 "
        "AND deleted_at IS NULL ORDER BY created_at DESC, id ASC LIMIT 1",
        PgParams().text(community).text(channel)));
}

std::optional<EventLookup::Head>
PgEventReader::liveReplaceable(const std::string &community, int kind, const std::string &pubkey,
                               const std::optional<std::string> &dTag)
{
    const auto key = HexKey::decode<32>(pubkey);
    if (!key)
        return std::nullopt;
    PgParams params;
    params.text(community).int32(kind).bytes(keyBytes(*key));
    if (dTag) {
        params.text(*dTag);
        return headOf(m_connection.run(
            "SELECT id, created_at FROM events WHERE community = $1 AND kind = $2 AND pubkey = $3 "
            "AND d_tag = $4 AND deleted_at IS NULL ORDER BY created_at DESC, id ASC LIMIT 1",
            params));
    }
    return headOf(m_connection.run(
        "SELECT id, created_at FROM events WHERE community = $1 AND kind = $2 AND pubkey = $3 AND "
        "deleted_at IS NULL ORDER BY created_at DESC, id ASC LIMIT 1",
        params));
}

std::optional<model::Channel> PgEventReader::channel(const std::string &community,
                                                     const std::string &uuid)
{
    PgResult found = m_connection.run(std::string("SELECT ") + kChannelColumns
                                          + " FROM channels WHERE community = $1 AND uuid = $2",
                                      PgParams().text(community).text(uuid));
    if (!found.ok() || found.rows() == 0)
        return std::nullopt;
    return rowToChannel(found);
}

bool PgEventReader::isRetiredChannel(const std::string &community, const std::string &uuid)
{
    PgResult found =
        m_connection.run("SELECT 1 FROM retired_channels WHERE community = $1 AND uuid = $2",
                         PgParams().text(community).text(uuid));
    return found.ok() && found.rows() > 0;
}

std::optional<model::ChannelMember> PgEventReader::member(const std::string &community,
                                                          const std::string &channel,
                                                          const std::string &pubkey)
{
    PgResult found = m_connection.run(
        std::string("SELECT ") + kMemberColumns
            + " FROM channel_members WHERE community = $1 AND channel = $2 AND pubkey = $3",
        PgParams().text(community).text(channel).text(pubkey));
    if (!found.ok() || found.rows() == 0)
        return std::nullopt;
    return rowToMember(found, 0);
}

std::vector<model::ChannelMember> PgEventReader::activeMembers(const std::string &community,
                                                               const std::string &channel)
{
    PgResult found = m_connection.run(
        std::string("SELECT ") + kMemberColumns
            + " FROM channel_members WHERE community = $1 AND channel = $2 AND removed_at IS NULL "
              "ORDER BY joined_at, pubkey COLLATE \"C\"",
        PgParams().text(community).text(channel));
    std::vector<model::ChannelMember> members;
    for (int row = 0; found.ok() && row < found.rows(); ++row)
        members.push_back(rowToMember(found, row));
    return members;
}

std::optional<std::vector<std::string>>
PgEventReader::readableChannels(const std::string &community, const std::string &pubkey)
{
    PgResult found = m_connection.run(
        "SELECT c.uuid FROM channels c WHERE c.community = $1 AND (c.visibility = 'open' OR "
        "EXISTS (SELECT 1 FROM channel_members m WHERE m.community = $1 AND m.channel = c.uuid "
        "AND m.pubkey = $2 AND m.removed_at IS NULL))",
        PgParams().text(community).text(pubkey));
    if (!found.ok())
        return std::nullopt;
    std::vector<std::string> channels;
    channels.reserve(std::size_t(found.rows()));
    for (int row = 0; row < found.rows(); ++row)
        channels.emplace_back(found.text(row, 0));
    return channels;
}

bool PgEventReader::canRead(const std::string &community, const std::string &channel,
                            const std::string &pubkey)
{
    PgResult found = m_connection.run(
        "SELECT 1 FROM channels c WHERE c.community = $1 AND c.uuid = $2 AND (c.visibility = "
        "'open' OR EXISTS (SELECT 1 FROM channel_members m WHERE m.community = $1 AND m.channel = "
        "$2 AND m.pubkey = $3 AND m.removed_at IS NULL))",
        PgParams().text(community).text(channel).text(pubkey));
    return found.ok() && found.rows() > 0;
}

bool PgEventReader::reactionExists(const std::string &community, const std::string &targetId,
                                   const std::string &pubkey, const std::string &emoji)
{
    PgResult found = m_connection.run(
        "SELECT 1 FROM reactions WHERE community = $1 AND target_id = $2 AND pubkey = $3 AND "
        "emoji = $4",
        PgParams().text(community).text(targetId).text(pubkey).text(emoji));
    return found.ok() && found.rows() > 0;
}

std::optional<model::ThreadLink> PgEventReader::threadLink(const std::string &community,
                                                           const std::string &eventId)
{
    const auto key = HexKey::decode<32>(eventId);
    if (!key)
        return std::nullopt;
    PgResult found = m_connection.run("SELECT root_id, parent_id, depth FROM thread_metadata "
                                      "WHERE community = $1 AND event_id = $2",
                                      PgParams().text(community).bytes(keyBytes(*key)));
    if (!found.ok() || found.rows() == 0)
        return std::nullopt;
    return model::ThreadLink {HexKey::hex(found.bytes(0, 0)), HexKey::hex(found.bytes(0, 1)),
                              static_cast<int>(found.int64(0, 2))};
}

} // namespace buzz::relay::store
