#include "relay/store/postgres/PgExactPairLookup.h"

#include "relay/store/HexKey.h"
#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgEventReader.h"

#include <string>
#include <vector>

namespace buzz::relay::store {

namespace {
ReadStatus collectPgPairRows(const PgResult &result, std::vector<StoredEvent> &events)
{
    if (!result.ok())
        return {false, result.sqlState() == pgstate::kQueryCanceled, 0};
    events.reserve(std::size_t(result.rows()));
    for (int row = 0; row < result.rows(); ++row)
        events.push_back(PgEventReader::rowToStoredEvent(result, row));
    return {};
}

std::string pairKeyBytes(const std::string &hex)
{
    const auto key = HexKey::decode<32>(hex); // validated before
    return key ? std::string(reinterpret_cast<const char *>(key->data()), key->size())
               : std::string();
}

std::string pairLookupSql(const char *match, ReadConnection::Deleted deleted)
{
    std::string sql = "SELECT ";
    sql += PgEventReader::kEventColumns;
    sql += " FROM events e WHERE e.community = $1 AND ";
    sql += match;
    if (deleted == ReadConnection::Deleted::Omit)
        sql += " AND e.deleted_at IS NULL";
    return sql + " LIMIT 1";
}
} // namespace

std::string PgExactPairLookup::pairSql(ReadConnection::Deleted deleted)
{
    // Rows come back in batch order (the pair's ordinality), which callers rank by.
    return "SELECT h.* FROM unnest($2::bytea[], $3::timestamptz[]) WITH ORDINALITY AS p(id, "
           "created_at, n) CROSS JOIN LATERAL ("
        + pairLookupSql("e.created_at = p.created_at AND e.id = p.id", deleted)
        + ") h ORDER BY p.n";
}

std::string PgExactPairLookup::idSql()
{
    return "SELECT h.* FROM unnest($2::bytea[]) WITH ORDINALITY AS p(id, n) CROSS JOIN LATERAL ("
        + pairLookupSql("e.id = p.id", ReadConnection::Deleted::Omit) + ") h ORDER BY p.n";
}

PgParams PgExactPairLookup::pairParams(const std::string &community,
                                       std::span<const EventPair> pairs)
{
    std::vector<std::string> ids;
    std::vector<std::int64_t> times;
    ids.reserve(pairs.size());
    times.reserve(pairs.size());
    for (const EventPair &pair : pairs) {
        ids.push_back(pairKeyBytes(pair.id));
        times.push_back(pair.createdAt);
    }
    PgParams params;
    params.text(community).bytesArray(ids).timestampArray(times);
    return params;
}

ReadStatus PgExactPairLookup::findPairs(PgConnection &connection, const std::string &community,
                                        std::span<const EventPair> pairs,
                                        ReadConnection::Deleted deleted,
                                        std::vector<StoredEvent> &rows)
{
    if (pairs.empty())
        return {};
    return collectPgPairRows(connection.run(pairSql(deleted), pairParams(community, pairs)), rows);
}

ReadStatus PgExactPairLookup::findIds(PgConnection &connection, const std::string &community,
                                      std::span<const std::string> ids,
                                      std::vector<StoredEvent> &rows)
{
    if (ids.empty())
        return {};
    std::vector<std::string> keys;
    keys.reserve(ids.size());
    for (const std::string &id : ids)
        keys.push_back(pairKeyBytes(id));
    PgParams params;
    params.text(community).bytesArray(keys);
    return collectPgPairRows(connection.run(idSql(), params), rows);
}

} // namespace buzz::relay::store
