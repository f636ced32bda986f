#pragma once

#include "relay/store/ReadConnection.h"
#include "relay/store/postgres/PgConnection.h"

#include <span>
#include <string>
#include <vector>

namespace buzz::relay::store {

// SqliteExactPairLookup on PostgreSQL. The pairs travel as two arrays (ids as bytea, created_at as
// timestamptz); each one drives its own lookup (a LATERAL subquery with LIMIT 1: an id and its
// created_at name at most one row) on the primary key (community, created_at, id), so the
// executor prunes every event month the pair is not in — only the requested months are read,
// under custom and generic plans alike (test_search_hydration_pg proves it with EXPLAIN).
class PgExactPairLookup
{
public:
    using Deleted = ReadConnection::Deleted;

    static std::string pairSql(Deleted deleted = Deleted::Omit);
    static std::string idSql();

    // `pairs` must be validated and distinct (search::ExactPairLookup::validate, ::distinct).
    static ReadStatus findPairs(PgConnection &connection, const std::string &community,
                                std::span<const EventPair> pairs, Deleted deleted,
                                std::vector<StoredEvent> &rows);
    static ReadStatus findIds(PgConnection &connection, const std::string &community,
                              std::span<const std::string> ids, std::vector<StoredEvent> &rows);
    // The parameters findPairs binds ($1 community, $2 ids, $3 created_at), for EXPLAIN.
    static PgParams pairParams(const std::string &community, std::span<const EventPair> pairs);
};

} // namespace buzz::relay::store
