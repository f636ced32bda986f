#include "relay/store/sqlite/SqliteExactPairLookup.h"

#include "relay/store/sqlite/SqliteConnection.h"
#include "relay/store/sqlite/SqliteEventReader.h"

#include <algorithm>

namespace buzz::relay::store {

namespace {
// Rows carry their pair's position in the batch (json_each key, the last column): the result is
// put in batch order without hashing a single id.
ReadStatus collectPairRows(Statement &select, std::size_t expected,
                           std::vector<StoredEvent> &events)
{
    events.reserve(expected);
    std::vector<std::int64_t> positions;
    positions.reserve(expected);
    while (select.step()) {
        events.push_back(SqliteEventReader::rowToStoredEvent(select));
        positions.push_back(select.int64(SqliteEventReader::kEventColumnCount));
    }
    const ReadStatus status {select.ok(), SqliteConnection::isInterrupted(select.resultCode()),
                             select.ok() ? 0 : select.resultCode()};
    if (!std::is_sorted(positions.begin(), positions.end())) {
        std::vector<std::size_t> order(positions.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t b) { return positions[a] < positions[b]; });
        std::vector<StoredEvent> sorted;
        sorted.reserve(order.size());
        for (const std::size_t index : order)
            sorted.push_back(std::move(events[index]));
        events = std::move(sorted);
    }
    return status;
}

ReadStatus pairStatementFailure(SqliteConnection &connection)
{
    const int code = connection.errorCode();
    return {false, SqliteConnection::isInterrupted(code), code};
}
} // namespace

std::string SqliteExactPairLookup::pairSql(Deleted deleted)
{
    // json_each as the outer loop, pinned by CROSS JOIN: every pair is one SEARCH of events_by_id
    // (community=? AND id=?), then the row's created_at must equal the pair's (a wrong-timestamp
    // hit is omitted). Not a VALUES list: once the table has ANALYZE statistics SQLite puts a Bloom
    // filter on a VALUES join, built by scanning all of events. Each pair is one string, the
    // 64-hex id then the decimal created_at, so splitting it costs two substr calls rather than a
    // JSON parse per pair.
    std::string sql = "SELECT ";
    sql += SqliteEventReader::kEventColumns;
    sql += ", p.key FROM json_each(?2) p CROSS JOIN events e INDEXED BY events_by_id"
           " ON e.community = ?1 AND e.id = hex_key(substr(p.value, 1, 64))"
           " WHERE e.created_at = CAST(substr(p.value, 65) AS INTEGER)";
    if (deleted == Deleted::Omit)
        sql += " AND e.deleted_at IS NULL";
    return sql;
}

std::string SqliteExactPairLookup::idSql()
{
    std::string sql = "SELECT ";
    sql += SqliteEventReader::kEventColumns;
    sql += ", w.key FROM json_each(?2) w CROSS JOIN events e INDEXED BY events_by_id"
           " ON e.community = ?1 AND e.id = hex_key(w.value) WHERE e.deleted_at IS NULL";
    return sql;
}

std::string SqliteExactPairLookup::pairsJson(std::span<const EventPair> pairs)
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

std::string SqliteExactPairLookup::idsJson(std::span<const std::string> ids)
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

ReadStatus SqliteExactPairLookup::findPairs(SqliteConnection &connection,
                                            const std::string &community,
                                            std::span<const EventPair> pairs, Deleted deleted,
                                            std::vector<StoredEvent> &rows)
{
    if (pairs.empty())
        return {};
    auto select = connection.prepare(pairSql(deleted));
    if (!select.valid())
        return pairStatementFailure(connection);
    const std::string json = pairsJson(pairs);
    select.bindStatic(1, community);
    select.bindStatic(2, json);
    return collectPairRows(select, pairs.size(), rows);
}

ReadStatus SqliteExactPairLookup::findIds(SqliteConnection &connection,
                                          const std::string &community,
                                          std::span<const std::string> ids,
                                          std::vector<StoredEvent> &rows)
{
    if (ids.empty())
        return {};
    auto select = connection.prepare(idSql());
    if (!select.valid())
        return pairStatementFailure(connection);
    const std::string json = idsJson(ids);
    select.bindStatic(1, community);
    select.bindStatic(2, json);
    return collectPairRows(select, ids.size(), rows);
}

} // namespace buzz::relay::store
