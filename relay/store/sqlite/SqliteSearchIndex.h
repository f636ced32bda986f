#pragma once

#include "relay/store/EventPair.h"
#include "relay/store/EventQuery.h"
#include "relay/store/ReadConnection.h"

#include <string>
#include <vector>

namespace buzz::relay::store {

class SqliteConnection;

// Relevance-ordered hits from one database's FTS5 index (SearchSchema), as (id, created_at)
// pairs, scoped in the statement by the query's columns (EventQuery.h, TextQuery).
class SqliteSearchIndex
{
public:
    // `query.match` is an FTS5 MATCH expression (SearchText::toMatchExpression).
    static ReadStatus search(SqliteConnection &connection, const TextQuery &query,
                             std::vector<EventPair> &hits);
    static std::string sqlFor(const TextQuery &query);
};

} // namespace buzz::relay::store
