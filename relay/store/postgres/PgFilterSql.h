#pragma once

#include "relay/store/EventQuery.h"
#include "relay/store/postgres/PgConnection.h"

#include <string>
#include <vector>

namespace buzz::relay::store {

// SqliteFilterSql for PostgreSQL: the same filter, pushed down the same way (every row the
// statement returns is still re-matched by EventMatcher), as one statement with typed parameters.
// Ids and pubkeys are bound as bytea (a value that is not lower-case hex matches nothing, as on
// SQLite), timestamps as timestamptz, lists as arrays. Thread pages join thread_metadata to events
// on the exact (created_at, id) pair, so each reply is read from its own month only.
class PgFilterSql
{
public:
    struct Plan
    {
        std::string sql;
        PgParams params;
        bool matchesNothing = false;
    };

    static Plan build(const nostr::Filter &filter, const std::string &community,
                      const std::string &viewer, const std::vector<std::string> &accessibleChannels,
                      EventQuery::Mode mode,
                      const std::vector<std::string> *viewerChannels = nullptr);
    static Plan build(const EventQuery &query)
    {
        return build(query.filter, query.community, query.viewer, query.accessibleChannels,
                     query.mode, query.viewerChannels);
    }
};

} // namespace buzz::relay::store
