#include "relay/store/postgres/PgRowWriter.h"

#include "relay/store/HexKey.h"
#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgEventBatch.h"

#include <QLoggingCategory>

#include <algorithm>
#include <vector>

Q_DECLARE_LOGGING_CATEGORY(lcPg)

namespace buzz::relay::store {

namespace {
template<std::size_t N>
std::string bytesOf(const std::array<std::uint8_t, N> &key)
{
    return std::string(reinterpret_cast<const char *>(key.data()), N);
}

// One round trip: the event row, its single-letter tags (not h: a #h filter reads the resolved
// channel column) and its thread link, the last two only when the event row is new.
constexpr const char *kInsertEvent = R"SQL(
WITH inserted AS (
    INSERT INTO events (community, created_at, id, kind, pubkey, channel, d_tag, received_at, sig,
                        tags, content)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
    ON CONFLICT (community, created_at, id) DO NOTHING
    RETURNING 1
), tagged AS (
    INSERT INTO event_tags (community, name, value, event_created_at, event_id)
    SELECT $1, t.name, t.value, $2, $3 FROM unnest($12::text[], $13::text[]) AS t(name, value)
    WHERE EXISTS (SELECT 1 FROM inserted)
    ON CONFLICT DO NOTHING
), threaded AS (
    INSERT INTO thread_metadata (community, event_id, event_created_at, root_id, parent_id, depth)
    SELECT $1, $3, $2, $14, $15, $16 WHERE $14::bytea IS NOT NULL AND EXISTS (SELECT 1 FROM inserted)
    ON CONFLICT DO NOTHING
)
SELECT count(*) FROM inserted
)SQL";
} // namespace

EventRows::InsertOutcome PgRowWriter::insertEvent(const StoredEvent &stored,
                                                  const std::optional<std::string> &dTag,
                                                  std::int64_t receivedAt,
                                                  const std::optional<model::ThreadLink> &thread)
{
    std::string why;
    auto row = PgEventBatch::rowOf(stored, dTag, receivedAt, thread, why);
    if (!row) {
        qCWarning(lcPg) << "event" << stored.event.id.c_str() << why.c_str() << "; not stored";
        return InsertOutcome::Failed;
    }
    if (m_batch) {
        // Held back, inserted with the group's other events (see PgEventBatch).
        row->member = m_member;
        m_batch->add(std::move(*row));
        return InsertOutcome::Inserted;
    }
    PgParams params;
    params.text(row->community)
        .timestamp(row->createdAt)
        .bytes(row->id)
        .int32(row->kind)
        .bytes(row->pubkey)
        .optionalText(row->channel)
        .optionalText(row->dTag)
        .timestamp(row->receivedAt)
        .bytes(row->sig)
        .jsonb(row->tagsJson)
        .text(row->content)
        .textArray(row->tagNames)
        .textArray(row->tagValues);
    if (row->rootId)
        params.bytes(*row->rootId).bytes(*row->parentId).int32(row->depth);
    else
        params.null(17).null(17).int32(0);
    PgResult inserted = m_connection.run(kInsertEvent, params);
    if (!inserted.ok()) {
        qCWarning(lcPg) << "event insert failed:" << inserted.message().c_str();
        return InsertOutcome::Failed;
    }
    return inserted.int64(0, 0) > 0 ? InsertOutcome::Inserted : InsertOutcome::AlreadyExists;
}

bool PgRowWriter::softDelete(const std::string &community, const std::string &id,
                             std::int64_t deletedAt)
{
    const auto key = HexKey::decode<32>(id);
    if (!key)
        return true; // no stored event has that id
    return m_connection
        .run("UPDATE events SET deleted_at = $3 WHERE community = $1 AND id = $2 AND deleted_at "
             "IS NULL",
             PgParams().text(community).bytes(bytesOf(*key)).timestamp(deletedAt))
        .ok();
}

bool PgRowWriter::upsertChannel(const model::Channel &channel)
{
    return m_connection
        .run("INSERT INTO channels (community, uuid, name, visibility, channel_type, about, topic, "
             "purpose, ttl, archived, created_by, created_at, create_event_id) VALUES ($1, $2, $3, "
             "$4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (community, uuid) DO UPDATE "
             "SET name = excluded.name, visibility = excluded.visibility, channel_type = "
             "excluded.channel_type, about = excluded.about, topic = excluded.topic, purpose = "
             "excluded.purpose, ttl = excluded.ttl, archived = excluded.archived",
             PgParams()
                 .text(channel.community)
                 .text(channel.uuid)
                 .text(channel.name)
                 .text(channel.visibility)
                 .text(channel.channelType)
                 .text(channel.about)
                 .optionalText(channel.topic)
                 .optionalText(channel.purpose)
                 .optionalInt64(channel.ttl)
                 .boolean(channel.archived)
                 .text(channel.createdBy)
                 .int64(channel.createdAt)
                 .text(channel.createEventId))
        .ok();
}

bool PgRowWriter::upsertMember(const model::ChannelMember &member)
{
    return m_connection
        .run("INSERT INTO channel_members (community, channel, pubkey, role, joined_at, "
             "removed_at, removed_by) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (community, "
             "channel, pubkey) DO UPDATE SET role = excluded.role, joined_at = excluded.joined_at, "
             "removed_at = excluded.removed_at, removed_by = excluded.removed_by",
             PgParams()
                 .text(member.community)
                 .text(member.channel)
                 .text(member.pubkey)
                 .text(member.role)
                 .int64(member.joinedAt)
                 .optionalInt64(member.removedAt)
                 .optionalText(member.removedBy))
        .ok();
}

bool PgRowWriter::deleteChannel(const std::string &community, const std::string &uuid,
                                std::int64_t deletedAt)
{
    return m_connection
               .run("DELETE FROM channels WHERE community = $1 AND uuid = $2",
                    PgParams().text(community).text(uuid))
               .ok()
        && m_connection
               .run("INSERT INTO retired_channels (community, uuid, retired_at) VALUES ($1, $2, "
                    "$3) ON CONFLICT DO NOTHING",
                    PgParams().text(community).text(uuid).int64(deletedAt))
               .ok();
}

bool PgRowWriter::insertReaction(const std::string &community, const std::string &targetId,
                                 const std::string &pubkey, const std::string &emoji,
                                 const std::string &eventId)
{
    return m_connection
        .run("INSERT INTO reactions (community, target_id, pubkey, emoji, event_id) VALUES ($1, "
             "$2, $3, $4, $5) ON CONFLICT DO NOTHING",
             PgParams().text(community).text(targetId).text(pubkey).text(emoji).text(eventId))
        .ok();
}

bool PgRowWriter::removeReactionByEvent(const std::string &community, const std::string &eventId)
{
    return m_connection
        .run("DELETE FROM reactions WHERE community = $1 AND event_id = $2",
             PgParams().text(community).text(eventId))
        .ok();
}

} // namespace buzz::relay::store
