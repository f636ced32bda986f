#include "relay/store/sqlite/SqliteRowWriter.h"

#include "net/nostr/CanonicalJson.h"
#include "relay/store/HexKey.h"
#include "relay/store/sqlite/ChangeRecord.h"
#include "relay/store/sqlite/SqliteConnection.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace buzz::relay::store {

namespace {
nlohmann::json optionalJson(const std::optional<std::string> &value)
{
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json optionalJson(const std::optional<std::int64_t> &value)
{
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::optional<std::string> optionalString(const nlohmann::json &value)
{
    if (value.is_string())
        return value.get<std::string>();
    return std::nullopt;
}

std::optional<std::int64_t> optionalInt(const nlohmann::json &value)
{
    if (value.is_number_integer())
        return value.get<std::int64_t>();
    return std::nullopt;
}
} // namespace

std::string SqliteRowWriter::tagsJson(const nostr::Tags &tags)
{
    std::string out;
    out.reserve(64 * tags.size() + 2);
    out.push_back('[');
    for (std::size_t i = 0; i < tags.size(); ++i) {
        if (i)
            out.push_back(',');
        out.push_back('[');
        for (std::size_t j = 0; j < tags[i].size(); ++j) {
            if (j)
                out.push_back(',');
            nostr::appendJsonString(out, tags[i][j]);
        }
        out.push_back(']');
    }
    out.push_back(']');
    return out;
}

void SqliteRowWriter::record(const nlohmann::json &op)
{
    if (m_change)
        m_change->add(op);
}

SqliteRowWriter::InsertOutcome
SqliteRowWriter::insertEvent(const StoredEvent &stored, const std::optional<std::string> &dTag,
                             std::int64_t receivedAt,
                             const std::optional<model::ThreadLink> &thread)
{
    const nostr::Event &event = stored.event;
    const auto id = HexKey::decode<32>(event.id);
    const auto pubkey = HexKey::decode<32>(event.pubkey);
    const auto sig = HexKey::decode<64>(event.sig);
    if (!id || !pubkey || !sig)
        return InsertOutcome::Failed; // verified events always carry the wire form
    const std::string tags = tagsJson(event.tags);
    auto insert = m_connection.prepare(
        "INSERT INTO events (community, id, created_at, kind, pubkey, channel, d_tag, "
        "received_at, sig, tags, content) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
        "ON CONFLICT (community, id) DO NOTHING");
    if (!insert.valid())
        return InsertOutcome::Failed;
    insert.bindStatic(1, stored.community);
    insert.bindBlobStatic(2, id->data(), id->size());
    insert.bind(3, event.createdAt);
    insert.bind(4, event.kind);
    insert.bindBlobStatic(5, pubkey->data(), pubkey->size());
    insert.bind(6, stored.channel);
    insert.bind(7, dTag);
    insert.bind(8, receivedAt);
    insert.bindBlobStatic(9, sig->data(), sig->size());
    insert.bindStatic(10, tags);
    insert.bindStatic(11, event.content);
    if (!insert.run())
        return InsertOutcome::Failed;
    if (m_connection.changes() == 0)
        return InsertOutcome::AlreadyExists;
    const std::int64_t rowid = sqlite3_last_insert_rowid(m_connection.handle());

    // Single-letter tags feed the #x filter pushdown; de-duplicated per event. Not h: a #h filter
    // reads the resolved channel column instead.
    std::vector<std::pair<std::string_view, std::string_view>> indexed;
    for (const auto &tag : event.tags) {
        if (tag.size() < 2 || tag[0].size() != 1 || tag[0] == "h"
            || tag[1].size() > EventRows::kMaxIndexedTagValue)
            continue;
        indexed.emplace_back(tag[0], tag[1]);
    }
    std::sort(indexed.begin(), indexed.end());
    indexed.erase(std::unique(indexed.begin(), indexed.end()), indexed.end());
    for (const auto &[name, value] : indexed) {
        auto tagInsert = m_connection.prepare("INSERT OR IGNORE INTO event_tags (event_rowid, "
                                              "community, name, value) VALUES (?1, ?2, ?3, ?4)");
        tagInsert.bind(1, rowid);
        tagInsert.bindStatic(2, stored.community);
        tagInsert.bindStatic(3, name);
        tagInsert.bindStatic(4, value);
        if (!tagInsert.run())
            return InsertOutcome::Failed;
    }
    if (thread) {
        const auto root = HexKey::decode<32>(thread->rootId);
        const auto parent = HexKey::decode<32>(thread->parentId);
        if (!root || !parent)
            return InsertOutcome::Failed; // resolved from stored events: always the wire form
        auto threadInsert =
            m_connection.prepare("INSERT OR IGNORE INTO thread_metadata (community, event_id, "
                                 "root_id, parent_id, depth, created_at) "
                                 "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
        threadInsert.bindStatic(1, stored.community);
        threadInsert.bindBlobStatic(2, id->data(), id->size());
        threadInsert.bindBlobStatic(3, root->data(), root->size());
        threadInsert.bindBlobStatic(4, parent->data(), parent->size());
        threadInsert.bind(5, thread->depth);
        threadInsert.bind(6, event.createdAt);
        if (!threadInsert.run())
            return InsertOutcome::Failed;
    }

    if (m_change)
        m_change->addEvent(stored.community, stored.json, stored.channel, dTag, receivedAt,
                           thread ? &thread->rootId : nullptr, thread ? &thread->parentId : nullptr,
                           thread ? thread->depth : 0);
    return InsertOutcome::Inserted;
}

bool SqliteRowWriter::softDelete(const std::string &community, const std::string &id,
                                 std::int64_t deletedAt)
{
    const auto key = HexKey::decode<32>(id);
    if (!key)
        return true; // no stored event has that id
    auto update = m_connection.prepare("UPDATE events SET deleted_at = ?3 WHERE community = ?1 AND "
                                       "id = ?2 AND deleted_at IS NULL");
    update.bindStatic(1, community);
    update.bindBlobStatic(2, key->data(), key->size());
    update.bind(3, deletedAt);
    if (!update.run())
        return false;
    if (m_connection.changes() > 0)
        record({{"op", "delete"}, {"community", community}, {"id", id}, {"deleted_at", deletedAt}});
    return true;
}

bool SqliteRowWriter::upsertChannel(const model::Channel &channel)
{
    auto upsert = m_connection.prepare(
        "INSERT INTO channels (community, uuid, name, visibility, channel_type, about, topic, "
        "purpose, ttl, "
        "archived, created_by, created_at, create_event_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
        "?8, ?9, ?10, ?11, "
        "?12, ?13) ON CONFLICT (community, uuid) DO UPDATE SET name = excluded.name, visibility = "
        "excluded.visibility, channel_type = excluded.channel_type, about = excluded.about, topic "
        "= "
        "excluded.topic, purpose = excluded.purpose, ttl = excluded.ttl, archived = "
        "excluded.archived");
    upsert.bindStatic(1, channel.community);
    upsert.bindStatic(2, channel.uuid);
    upsert.bindStatic(3, channel.name);
    upsert.bindStatic(4, channel.visibility);
    upsert.bindStatic(5, channel.channelType);
    upsert.bindStatic(6, channel.about);
    upsert.bind(7, channel.topic);
    upsert.bind(8, channel.purpose);
    upsert.bind(9, channel.ttl);
    upsert.bind(10, channel.archived ? 1 : 0);
    upsert.bindStatic(11, channel.createdBy);
    upsert.bind(12, channel.createdAt);
    upsert.bindStatic(13, channel.createEventId);
    if (!upsert.run())
        return false;
    record({{"op", "channel"},
            {"community", channel.community},
            {"uuid", channel.uuid},
            {"name", channel.name},
            {"visibility", channel.visibility},
            {"channel_type", channel.channelType},
            {"about", channel.about},
            {"topic", optionalJson(channel.topic)},
            {"purpose", optionalJson(channel.purpose)},
            {"ttl", optionalJson(channel.ttl)},
            {"archived", channel.archived},
            {"created_by", channel.createdBy},
            {"created_at", channel.createdAt},
            {"create_event_id", channel.createEventId}});
    return true;
}

bool SqliteRowWriter::upsertMember(const model::ChannelMember &member)
{
    auto upsert = m_connection.prepare(
        "INSERT INTO channel_members (community, channel, pubkey, role, joined_at, removed_at, "
        "removed_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (community, channel, pubkey) "
        "DO UPDATE SET role = excluded.role, joined_at = excluded.joined_at, removed_at = "
        "excluded.removed_at, removed_by = excluded.removed_by");
    upsert.bindStatic(1, member.community);
    upsert.bindStatic(2, member.channel);
    upsert.bindStatic(3, member.pubkey);
    upsert.bindStatic(4, member.role);
    upsert.bind(5, member.joinedAt);
    upsert.bind(6, member.removedAt);
    upsert.bind(7, member.removedBy);
    if (!upsert.run())
        return false;
    record({{"op", "member"},
            {"community", member.community},
            {"channel", member.channel},
            {"pubkey", member.pubkey},
            {"role", member.role},
            {"joined_at", member.joinedAt},
            {"removed_at", optionalJson(member.removedAt)},
            {"removed_by", optionalJson(member.removedBy)}});
    return true;
}

bool SqliteRowWriter::deleteChannel(const std::string &community, const std::string &uuid,
                                    std::int64_t deletedAt)
{
    auto remove = m_connection.prepare("DELETE FROM channels WHERE community = ?1 AND uuid = ?2");
    remove.bindStatic(1, community);
    remove.bindStatic(2, uuid);
    auto retire = m_connection.prepare("INSERT OR IGNORE INTO retired_channels (community, uuid, "
                                       "retired_at) VALUES (?1, ?2, ?3)");
    retire.bindStatic(1, community);
    retire.bindStatic(2, uuid);
    retire.bind(3, deletedAt);
    if (!remove.run() || !retire.run())
        return false;
    record({{"op", "channel_delete"},
            {"community", community},
            {"uuid", uuid},
            {"deleted_at", deletedAt}});
    return true;
}

bool SqliteRowWriter::insertReaction(const std::string &community, const std::string &targetId,
                                     const std::string &pubkey, const std::string &emoji,
                                     const std::string &eventId)
{
    auto insert = m_connection.prepare(
        "INSERT OR IGNORE INTO reactions (community, target_id, pubkey, emoji, "
        "event_id) VALUES (?1, ?2, ?3, ?4, ?5)");
    insert.bindStatic(1, community);
    insert.bindStatic(2, targetId);
    insert.bindStatic(3, pubkey);
    insert.bindStatic(4, emoji);
    insert.bindStatic(5, eventId);
    if (!insert.run())
        return false;
    record({{"op", "reaction_add"},
            {"community", community},
            {"target_id", targetId},
            {"pubkey", pubkey},
            {"emoji", emoji},
            {"event_id", eventId}});
    return true;
}

bool SqliteRowWriter::removeReactionByEvent(const std::string &community,
                                            const std::string &eventId)
{
    auto remove =
        m_connection.prepare("DELETE FROM reactions WHERE community = ?1 AND event_id = ?2");
    remove.bindStatic(1, community);
    remove.bindStatic(2, eventId);
    if (!remove.run())
        return false;
    if (m_connection.changes() > 0)
        record({{"op", "reaction_remove"}, {"community", community}, {"event_id", eventId}});
    return true;
}

bool SqliteRowWriter::applyChange(SqliteConnection &connection, const nlohmann::json &change)
{
    SqliteRowWriter rows(connection, nullptr);
    if (!change.contains("ops"))
        return true;
    for (const auto &op : change["ops"]) {
        const std::string kind = op.value("op", "");
        const std::string community = op.value("community", "");
        bool ok = true;
        if (kind == "event") {
            const std::string wire = op.at("json").get<std::string>();
            auto parsed = nostr::Event::fromJson(std::string_view(wire));
            if (!parsed)
                return false;
            StoredEvent stored {std::move(parsed.value()), wire, community,
                                optionalString(op["channel"])};
            std::optional<model::ThreadLink> thread;
            if (op.contains("thread"))
                thread = model::ThreadLink {op["thread"].value("root", ""),
                                            op["thread"].value("parent", ""),
                                            op["thread"].value("depth", 1)};
            ok = rows.insertEvent(stored, optionalString(op["d_tag"]),
                                  op.value("received_at", std::int64_t {0}), thread)
                != InsertOutcome::Failed;
        } else if (kind == "delete") {
            ok = rows.softDelete(community, op.value("id", ""),
                                 op.value("deleted_at", std::int64_t {0}));
        } else if (kind == "channel") {
            model::Channel channel;
            channel.community = community;
            channel.uuid = op.value("uuid", "");
            channel.name = op.value("name", "");
            channel.visibility = op.value("visibility", "open");
            channel.channelType = op.value("channel_type", "stream");
            channel.about = op.value("about", "");
            channel.topic = optionalString(op["topic"]);
            channel.purpose = optionalString(op["purpose"]);
            channel.ttl = optionalInt(op["ttl"]);
            channel.archived = op.value("archived", false);
            channel.createdBy = op.value("created_by", "");
            channel.createdAt = op.value("created_at", std::int64_t {0});
            channel.createEventId = op.value("create_event_id", "");
            ok = rows.upsertChannel(channel);
        } else if (kind == "member") {
            model::ChannelMember member;
            member.community = community;
            member.channel = op.value("channel", "");
            member.pubkey = op.value("pubkey", "");
            member.role = op.value("role", "member");
            member.joinedAt = op.value("joined_at", std::int64_t {0});
            member.removedAt = optionalInt(op["removed_at"]);
            member.removedBy = optionalString(op["removed_by"]);
            ok = rows.upsertMember(member);
        } else if (kind == "channel_delete") {
            ok = rows.deleteChannel(community, op.value("uuid", ""),
                                    op.value("deleted_at", std::int64_t {0}));
        } else if (kind == "reaction_add") {
            ok = rows.insertReaction(community, op.value("target_id", ""), op.value("pubkey", ""),
                                     op.value("emoji", ""), op.value("event_id", ""));
        } else if (kind == "reaction_remove") {
            ok = rows.removeReactionByEvent(community, op.value("event_id", ""));
        }
        if (!ok)
            return false;
    }
    return true;
}

} // namespace buzz::relay::store
