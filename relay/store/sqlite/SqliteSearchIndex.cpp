#include "relay/store/sqlite/SqliteSearchIndex.h"

#include "relay/store/HexKey.h"
#include "relay/store/sqlite/SqliteConnection.h"

#include <nlohmann/json.hpp>

namespace buzz::relay::store {

namespace {
enum Parameter { kMatch = 1, kCommunity, kChannels, kKinds, kAuthors, kSince, kUntil, kLimit };
} // namespace

std::string SqliteSearchIndex::sqlFor(const TextQuery &query)
{
    // Every match is joined to its row (CROSS JOIN keeps the full-text match the outer loop, one
    // rowid lookup per match), whose columns scope it; bm25 (`rank`) orders them.
    std::string sql = "SELECT e.id, e.created_at FROM search_fts f CROSS JOIN events e ON "
                      "e.rowid = f.rowid WHERE f.search_fts MATCH ?1 AND e.community = ?2 AND ";
    sql += query.includeGlobal
        ? "(e.channel IS NULL OR e.channel IN (SELECT value FROM json_each(?3)))"
        : "e.channel IN (SELECT value FROM json_each(?3))";
    if (query.kinds)
        sql += " AND e.kind IN (SELECT value FROM json_each(?4))";
    if (query.authors)
        sql += " AND e.pubkey IN (SELECT hex_key(value) FROM json_each(?5))";
    if (query.since)
        sql += " AND e.created_at >= ?6";
    if (query.until)
        sql += " AND e.created_at <= ?7";
    sql += " ORDER BY f.rank LIMIT ?8";
    return sql;
}

ReadStatus SqliteSearchIndex::search(SqliteConnection &connection, const TextQuery &query,
                                     std::vector<EventPair> &hits)
{
    auto select = connection.prepare(sqlFor(query));
    if (!select.valid()) {
        const int code = connection.errorCode();
        return {false, SqliteConnection::isInterrupted(code), code};
    }
    const std::string channels = nlohmann::json(query.channels).dump();
    const std::string kinds = query.kinds ? nlohmann::json(*query.kinds).dump() : std::string();
    const std::string authors =
        query.authors ? nlohmann::json(*query.authors).dump() : std::string();
    select.bindStatic(kMatch, query.match);
    select.bindStatic(kCommunity, query.community);
    select.bindStatic(kChannels, channels);
    if (query.kinds)
        select.bindStatic(kKinds, kinds);
    if (query.authors)
        select.bindStatic(kAuthors, authors);
    if (query.since)
        select.bind(kSince, *query.since);
    if (query.until)
        select.bind(kUntil, *query.until);
    select.bind(kLimit, static_cast<std::int64_t>(query.limit));
    hits.reserve(static_cast<std::size_t>(std::max(0, query.limit)));
    while (select.step())
        hits.push_back(EventPair {HexKey::hex(select.blob(0)), select.int64(1)});
    return {select.ok(), SqliteConnection::isInterrupted(select.resultCode()),
            select.ok() ? 0 : select.resultCode()};
}

} // namespace buzz::relay::store
