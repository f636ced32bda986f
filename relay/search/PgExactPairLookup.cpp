#include "relay/search/PgExactPairLookup.h"

#include "relay/store/HexKey.h"
#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgEventReader.h"

#include <string>
#include <vector>

namespace buzz::relay::search {

namespace {
ExactPairLookup::Rows collect(const store::PgResult &result)
{
    ExactPairLookup::Rows rows;
    rows.ok = result.ok();
    if (!rows.ok) {
        rows.timedOut = result.sqlState() == store::pgstate::kQueryCanceled;
        return rows;
    }
    rows.events.reserve(std::size_t(result.rows()));
    for (int row = 0; row < result.rows(); ++row)
        rows.events.push_back(store::PgEventReader::rowToStoredEvent(result, row));
    return rows;
}

std::string keyBytes(const std::string &hex)
{
    const auto key = store::HexKey::decode<32>(hex); // validated before
    return key ? std::string(reinterpret_cast<const char *>(key->data()), key->size())
               : std::string();
}

std::string lateral(const char *match, ExactPairLookup::Deleted deleted)
{
    std::string sql = "SELECT ";
    sql += store::PgEventReader::kEventColumns;
    sql += " FROM events e WHERE e.community = $1 AND ";
    sql += match;
    if (deleted == ExactPairLookup::Deleted::Omit)
        sql += " AND e.deleted_at IS NULL";
    return sql + " LIMIT 1";
}
} // namespace

std::string PgExactPairLookup::pairSql(ExactPairLookup::Deleted deleted)
{
    // Rows come back in batch order (the pair's ordinality), which callers rank by.
    return "SELECT h.* FROM unnest($2::bytea[], $3::timestamptz[]) WITH ORDINALITY AS p(id, "
           "created_at, n) CROSS JOIN LATERAL ("
        + lateral("e.created_at = p.created_at AND e.id = p.id", deleted) + ") h ORDER BY p.n";
}

std::string PgExactPairLookup::idSql()
{
    return "SELECT h.* FROM unnest($2::bytea[]) WITH ORDINALITY AS p(id, n) CROSS JOIN LATERAL ("
        + lateral("e.id = p.id", ExactPairLookup::Deleted::Omit) + ") h ORDER BY p.n";
}

store::PgParams PgExactPairLookup::pairParams(const std::string &community,
                                              std::span<const EventPair> pairs)
{
    std::vector<std::string> ids;
    std::vector<std::int64_t> times;
    ids.reserve(pairs.size());
    times.reserve(pairs.size());
    for (const EventPair &pair : pairs) {
        ids.push_back(keyBytes(pair.id));
        times.push_back(pair.createdAt);
    }
    store::PgParams params;
    params.text(community).bytesArray(ids).timestampArray(times);
    return params;
}

ExactPairLookup::Rows PgExactPairLookup::findPairs(store::PgConnection &connection,
                                                   const std::string &community,
                                                   std::span<const EventPair> pairs,
                                                   ExactPairLookup::Deleted deleted)
{
    if (pairs.empty())
        return {};
    return collect(connection.run(pairSql(deleted), pairParams(community, pairs)));
}

ExactPairLookup::Rows PgExactPairLookup::findIds(store::PgConnection &connection,
                                                 const std::string &community,
                                                 std::span<const std::string> ids)
{
    if (ids.empty())
        return {};
    std::vector<std::string> keys;
    keys.reserve(ids.size());
    for (const std::string &id : ids)
        keys.push_back(keyBytes(id));
    store::PgParams params;
    params.text(community).bytesArray(keys);
    return collect(connection.run(idSql(), params));
}

} // namespace buzz::relay::search
