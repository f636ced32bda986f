#include "relay/store/postgres/PgEventBatch.h"

#include "relay/store/EventRows.h"
#include "relay/store/HexKey.h"
#include "relay/store/sqlite/SqliteRowWriter.h"

#include <algorithm>
#include <limits>

namespace buzz::relay::store {

namespace {
template<std::size_t N>
std::string bytesOf(const std::array<std::uint8_t, N> &key)
{
    return std::string(reinterpret_cast<const char *>(key.data()), N);
}

bool hasNul(std::string_view text)
{
    return text.find('\0') != std::string_view::npos;
}
} // namespace

// No ON CONFLICT on events: a duplicate fails the statement (and PgStore retries the group one
// event at a time). Tags and thread links belong to rows this statement inserted.
const std::string PgEventBatch::kInsertSql = R"SQL(
WITH inserted AS (
    INSERT INTO events (community, created_at, id, kind, pubkey, channel, d_tag, received_at, sig,
                        tags, content)
    SELECT u.c, u.t, u.i, u.k, u.p, u.h, u.d, u.r, u.s, u.g::jsonb, u.b
    FROM unnest($1::text[], $2::timestamptz[], $3::bytea[], $4::int4[], $5::bytea[], $6::text[],
                $7::text[], $8::timestamptz[], $9::bytea[], $10::text[], $11::text[])
         AS u(c, t, i, k, p, h, d, r, s, g, b)
    RETURNING 1
), tagged AS (
    INSERT INTO event_tags (community, name, value, event_created_at, event_id)
    SELECT * FROM unnest($12::text[], $13::text[], $14::text[], $15::timestamptz[], $16::bytea[])
    ON CONFLICT DO NOTHING
), threaded AS (
    INSERT INTO thread_metadata (community, event_id, event_created_at, root_id, parent_id, depth)
    SELECT * FROM unnest($17::text[], $18::bytea[], $19::timestamptz[], $20::bytea[],
                         $21::bytea[], $22::int4[])
    ON CONFLICT DO NOTHING
)
SELECT count(*) FROM inserted
)SQL";

std::optional<PgEventBatch::Row> PgEventBatch::rowOf(const StoredEvent &stored,
                                                     const std::optional<std::string> &dTag,
                                                     std::int64_t receivedAt,
                                                     const std::optional<model::ThreadLink> &thread,
                                                     std::string &why)
{
    const nostr::Event &event = stored.event;
    const auto id = HexKey::decode<32>(event.id);
    const auto pubkey = HexKey::decode<32>(event.pubkey);
    const auto sig = HexKey::decode<64>(event.sig);
    if (!id || !pubkey || !sig) {
        why = "not in wire form"; // verified events always are
        return std::nullopt;
    }
    // PostgreSQL text holds no NUL character (SQLite does): such an event cannot be stored.
    if (hasNul(event.content)
        || std::any_of(event.tags.begin(), event.tags.end(), [](const nostr::Tag &tag) {
               return std::any_of(tag.begin(), tag.end(),
                                  [](const std::string &value) { return hasNul(value); });
           })) {
        why = "holds a NUL character";
        return std::nullopt;
    }
    Row row;
    row.community = stored.community;
    row.createdAt = event.createdAt;
    row.id = bytesOf(*id);
    row.pubkey = bytesOf(*pubkey);
    row.sig = bytesOf(*sig);
    row.kind = event.kind;
    row.channel = stored.channel;
    row.dTag = dTag;
    row.receivedAt = receivedAt;
    row.tagsJson = SqliteRowWriter::tagsJson(event.tags);
    row.content = event.content;

    std::vector<std::pair<std::string_view, std::string_view>> indexed;
    for (const auto &tag : event.tags) {
        if (tag.size() < 2 || tag[0].size() != 1 || tag[0] == "h"
            || tag[1].size() > EventRows::kMaxIndexedTagValue)
            continue;
        indexed.emplace_back(tag[0], tag[1]);
    }
    std::sort(indexed.begin(), indexed.end());
    indexed.erase(std::unique(indexed.begin(), indexed.end()), indexed.end());
    row.tagNames.reserve(indexed.size());
    row.tagValues.reserve(indexed.size());
    for (const auto &[name, value] : indexed) {
        row.tagNames.emplace_back(name);
        row.tagValues.emplace_back(value);
    }
    if (thread) {
        const auto root = HexKey::decode<32>(thread->rootId);
        const auto parent = HexKey::decode<32>(thread->parentId);
        if (!root || !parent) {
            why = "thread link not in wire form"; // resolved from stored events: always is
            return std::nullopt;
        }
        row.rootId = bytesOf(*root);
        row.parentId = bytesOf(*parent);
        row.depth = thread->depth;
    }
    return row;
}

bool PgEventBatch::touches(std::string_view sql)
{
    // Table names as the statements of PgEventReader / PgRowWriter spell them (event_tags
    // contains "event_", not "events").
    return sql.find("events") != std::string_view::npos
        || sql.find("event_tags") != std::string_view::npos
        || sql.find("thread_metadata") != std::string_view::npos;
}

void PgEventBatch::sendBefore(std::string_view sql, PgConnection &writer, int current,
                              std::string_view savepoint, bool &earlierRowsInSavepoint)
{
    // Only a statement that reads or writes the held-back tables needs their rows first (a
    // message's channel lookup does not); the group's end (no current work) sends them all.
    if (empty() || (current >= 0 && !touches(sql)))
        return;
    // The rows of released works go before the current work's savepoint (a rollback of it must
    // not take them along), its own rows inside it. The current savepoint is still deferred when
    // the work has sent nothing yet.
    if (current >= 0 && writer.withdraw(savepoint)) {
        if (hasRowsBefore(current))
            writer.defer(kInsertSql, takeBefore(current));
        writer.defer(std::string(savepoint));
        if (hasRowsOf(current))
            writer.defer(kInsertSql, takeOf(current));
        return;
    }
    // Its savepoint is open: earlier works' rows go inside it too, so a rollback of this work
    // would take them along (PgStore then runs the group again unbatched).
    if (current >= 0 && hasRowsBefore(current))
        earlierRowsInSavepoint = true;
    writer.defer(kInsertSql, takeBefore(std::numeric_limits<int>::max()));
}

bool PgEventBatch::hasRowsOf(int member) const
{
    return std::any_of(m_rows.begin(), m_rows.end(),
                       [member](const Row &row) { return row.member == member; });
}

bool PgEventBatch::hasRowsBefore(int member) const
{
    return std::any_of(m_rows.begin(), m_rows.end(),
                       [member](const Row &row) { return row.member < member; });
}

void PgEventBatch::drop(int member)
{
    std::erase_if(m_rows, [member](const Row &row) { return row.member == member; });
}

PgParams PgEventBatch::takeBefore(int member)
{
    return take([member](const Row &row) { return row.member < member; });
}

PgParams PgEventBatch::takeOf(int member)
{
    return take([member](const Row &row) { return row.member == member; });
}

template<class Take>
PgParams PgEventBatch::take(Take taken)
{
    std::vector<std::string> communities, ids, pubkeys, sigs, tags, contents;
    std::vector<std::optional<std::string>> channels, dTags;
    std::vector<std::int64_t> createdAt, receivedAt;
    std::vector<int> kinds;
    std::vector<std::string> tagCommunities, tagNames, tagValues, tagIds;
    std::vector<std::int64_t> tagCreatedAt;
    std::vector<std::string> threadCommunities, threadIds, roots, parents;
    std::vector<std::int64_t> threadCreatedAt;
    std::vector<int> depths;
    std::vector<Row> kept;
    for (Row &row : m_rows) {
        if (!taken(row)) {
            kept.push_back(std::move(row));
            continue;
        }
        for (std::size_t i = 0; i < row.tagNames.size(); ++i) {
            tagCommunities.push_back(row.community);
            tagNames.push_back(std::move(row.tagNames[i]));
            tagValues.push_back(std::move(row.tagValues[i]));
            tagCreatedAt.push_back(row.createdAt);
            tagIds.push_back(row.id);
        }
        if (row.rootId) {
            threadCommunities.push_back(row.community);
            threadIds.push_back(row.id);
            threadCreatedAt.push_back(row.createdAt);
            roots.push_back(std::move(*row.rootId));
            parents.push_back(std::move(*row.parentId));
            depths.push_back(row.depth);
        }
        communities.push_back(std::move(row.community));
        createdAt.push_back(row.createdAt);
        ids.push_back(std::move(row.id));
        kinds.push_back(row.kind);
        pubkeys.push_back(std::move(row.pubkey));
        channels.push_back(std::move(row.channel));
        dTags.push_back(std::move(row.dTag));
        receivedAt.push_back(row.receivedAt);
        sigs.push_back(std::move(row.sig));
        tags.push_back(std::move(row.tagsJson));
        contents.push_back(std::move(row.content));
    }
    m_rows = std::move(kept);
    PgParams params;
    params.textArray(communities)
        .timestampArray(createdAt)
        .bytesArray(ids)
        .int32Array(kinds)
        .bytesArray(pubkeys)
        .optionalTextArray(channels)
        .optionalTextArray(dTags)
        .timestampArray(receivedAt)
        .bytesArray(sigs)
        .textArray(tags)
        .textArray(contents)
        .textArray(tagCommunities)
        .textArray(tagNames)
        .textArray(tagValues)
        .timestampArray(tagCreatedAt)
        .bytesArray(tagIds)
        .textArray(threadCommunities)
        .bytesArray(threadIds)
        .timestampArray(threadCreatedAt)
        .bytesArray(roots)
        .bytesArray(parents)
        .int32Array(depths);
    return params;
}

} // namespace buzz::relay::store
