#include "relay/search/ExactPairLookup.h"

#include "relay/store/sqlite/SqliteConnection.h"
#include "relay/store/sqlite/SqliteEventReader.h"

#include <algorithm>
#include <unordered_set>

namespace buzz::relay::search {

namespace {
struct PairHash
{
    std::size_t operator()(const EventPair &pair) const noexcept
    {
        return std::hash<std::string>()(pair.id) ^ (std::hash<std::int64_t>()(pair.createdAt) << 1);
    }
};

// Rows carry their pair's position in the batch (json_each key, the last column): the result is
// put in batch order without hashing a single id.
ExactPairLookup::Rows collect(store::Statement &select, std::size_t expected)
{
    ExactPairLookup::Rows rows;
    rows.events.reserve(expected);
    std::vector<std::int64_t> positions;
    positions.reserve(expected);
    while (select.step()) {
        rows.events.push_back(store::SqliteEventReader::rowToStoredEvent(select));
        positions.push_back(select.int64(store::SqliteEventReader::kEventColumnCount));
    }
    rows.ok = select.ok();
    rows.sqliteCode = select.resultCode();
    if (!std::is_sorted(positions.begin(), positions.end())) {
        std::vector<std::size_t> order(positions.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t b) { return positions[a] < positions[b]; });
        std::vector<StoredEvent> sorted;
        sorted.reserve(order.size());
        for (const std::size_t index : order)
            sorted.push_back(std::move(rows.events[index]));
        rows.events = std::move(sorted);
    }
    return rows;
}

ExactPairLookup::Rows prepareFailed(store::SqliteConnection &connection)
{
    ExactPairLookup::Rows rows;
    rows.ok = false;
    rows.sqliteCode = connection.errorCode();
    return rows;
}
} // namespace

bool ExactPairLookup::isEventId(std::string_view id)
{
    return id.size() == 64 && std::all_of(id.begin(), id.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

std::optional<std::string> ExactPairLookup::validate(std::span<const EventPair> pairs)
{
    if (pairs.size() > kMaxPairs)
        return "too many event pairs: " + std::to_string(pairs.size()) + " (max "
            + std::to_string(kMaxPairs) + ")";
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (!isEventId(pairs[i].id))
            return "invalid event id at pair " + std::to_string(i)
                + ": must be 64 lower-case hex characters";
        if (pairs[i].createdAt < 0)
            return "invalid created_at at pair " + std::to_string(i) + ": must not be negative";
    }
    return std::nullopt;
}

std::optional<std::string> ExactPairLookup::validateIds(std::span<const std::string> ids)
{
    if (ids.size() > kMaxPairs)
        return "too many event ids: " + std::to_string(ids.size()) + " (max "
            + std::to_string(kMaxPairs) + ")";
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (!isEventId(ids[i]))
            return "invalid event id at position " + std::to_string(i)
                + ": must be 64 lower-case hex characters";
    }
    return std::nullopt;
}

std::vector<EventPair> ExactPairLookup::distinct(std::span<const EventPair> pairs)
{
    std::vector<EventPair> out;
    out.reserve(pairs.size());
    std::unordered_set<EventPair, PairHash> seen;
    seen.reserve(pairs.size());
    for (const EventPair &pair : pairs) {
        if (seen.insert(pair).second)
            out.push_back(pair);
    }
    return out;
}

std::string ExactPairLookup::pairSql(Deleted deleted)
{
    // json_each as the outer loop, pinned by CROSS JOIN: every pair is one SEARCH of events_by_id
    // (community=? AND id=?), then the row's created_at must equal the pair's (a wrong-timestamp
    // hit is omitted). Not a VALUES list: once the table has ANALYZE statistics SQLite puts a Bloom
    // filter on a VALUES join, built by scanning all of events. Each pair is one string, the
    // 64-hex id then the decimal created_at, so splitting it costs two substr calls rather than a
    // JSON parse per pair.
    std::string sql = "SELECT ";
    sql += store::SqliteEventReader::kEventColumns;
    sql += ", p.key FROM json_each(?2) p CROSS JOIN events e INDEXED BY events_by_id"
           " ON e.community = ?1 AND e.id = hex_key(substr(p.value, 1, 64))"
           " WHERE e.created_at = CAST(substr(p.value, 65) AS INTEGER)";
    if (deleted == Deleted::Omit)
        sql += " AND e.deleted_at IS NULL";
    return sql;
}

std::string ExactPairLookup::idSql()
{
    std::string sql = "SELECT ";
    sql += store::SqliteEventReader::kEventColumns;
    sql += ", w.key FROM json_each(?2) w CROSS JOIN events e INDEXED BY events_by_id"
           " ON e.community = ?1 AND e.id = hex_key(w.value) WHERE e.deleted_at IS NULL";
    return sql;
}

std::string ExactPairLookup::pairsJson(std::span<const EventPair> pairs)
{
    // Ids are validated hex, so no escaping is needed.
    std::string json;
    json.reserve(2 + pairs.size() * 90);
    json += '[';
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (i)
            json += ',';
        json += '"';
        json += pairs[i].id;
        json += std::to_string(pairs[i].createdAt);
        json += '"';
    }
    json += ']';
    return json;
}

std::string ExactPairLookup::idsJson(std::span<const std::string> ids)
{
    std::string json;
    json.reserve(2 + ids.size() * 67);
    json += '[';
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i)
            json += ',';
        json += '"';
        json += ids[i];
        json += '"';
    }
    json += ']';
    return json;
}

ExactPairLookup::Rows ExactPairLookup::findPairs(store::SqliteConnection &connection,
                                                 const std::string &community,
                                                 std::span<const EventPair> pairs, Deleted deleted)
{
    if (pairs.empty())
        return {};
    auto select = connection.prepare(pairSql(deleted));
    if (!select.valid())
        return prepareFailed(connection);
    const std::string json = pairsJson(pairs);
    select.bindStatic(1, community);
    select.bindStatic(2, json);
    return collect(select, pairs.size());
}

ExactPairLookup::Rows ExactPairLookup::findIds(store::SqliteConnection &connection,
                                               const std::string &community,
                                               std::span<const std::string> ids)
{
    if (ids.empty())
        return {};
    auto select = connection.prepare(idSql());
    if (!select.valid())
        return prepareFailed(connection);
    const std::string json = idsJson(ids);
    select.bindStatic(1, community);
    select.bindStatic(2, json);
    return collect(select, ids.size());
}

} // namespace buzz::relay::search
