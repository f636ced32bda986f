#pragma once

#include "relay/search/ExactPairLookup.h"
#include "relay/store/postgres/PgConnection.h"

namespace buzz::relay::search {

// ExactPairLookup on PostgreSQL. The pairs travel as two arrays (ids as bytea, created_at as
// timestamptz); each one drives its own lookup (a LATERAL subquery with LIMIT 1: an id and its
// created_at name at most one row) on the primary key (community, created_at, id), so the
// executor prunes every event month the pair is not in — only the requested months are read,
// under custom and generic plans alike (test_search_hydration_pg proves it with EXPLAIN).
class PgExactPairLookup
{
public:
    static std::string pairSql(ExactPairLookup::Deleted deleted = ExactPairLookup::Deleted::Omit);
    static std::string idSql();

    // `pairs` must be validated and distinct (ExactPairLookup::validate, ::distinct).
    static ExactPairLookup::Rows
    findPairs(store::PgConnection &connection, const std::string &community,
              std::span<const EventPair> pairs,
              ExactPairLookup::Deleted deleted = ExactPairLookup::Deleted::Omit);
    static ExactPairLookup::Rows findIds(store::PgConnection &connection,
                                         const std::string &community,
                                         std::span<const std::string> ids);
    // The parameters findPairs binds ($1 community, $2 ids, $3 created_at), for EXPLAIN.
    static store::PgParams pairParams(const std::string &community,
                                      std::span<const EventPair> pairs);
};

} // namespace buzz::relay::search
